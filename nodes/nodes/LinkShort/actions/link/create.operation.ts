import type { Operation } from '../common';
import { createFields, linkInput } from './fields';

export const create: Operation = {
	properties: createFields,
	async execute(client, itemIndex) {
		return await client.links.create(linkInput(this, itemIndex, 'additionalFields'));
	},
};
