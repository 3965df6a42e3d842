import type { Operation } from '../common';
import { linkOutput } from '../outputs';
import { createFields, linkInput } from './fields';

export const create: Operation = {
	properties: createFields,
	async execute(client, itemIndex) {
		const input = linkInput(this, itemIndex, 'additionalFields');
		return linkOutput(await client.links.create(input), input);
	},
};
