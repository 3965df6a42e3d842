import { forOperation, type Operation } from '../common';
import { createFields, linkInput } from './fields';

export const create: Operation = {
	description: forOperation('link', 'create', createFields),
	async execute(client, itemIndex) {
		return await client.links.create(linkInput(this, itemIndex, 'additionalFields'));
	},
};
