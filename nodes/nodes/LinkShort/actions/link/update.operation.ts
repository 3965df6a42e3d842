import type { LinkUpdateInput } from '@linkshort/client/core';
import { idField, type Operation } from '../common';
import { linkInput, updateFields } from './fields';

export const update: Operation = {
	properties: [idField('Link ID', 'The ID of the short link to update'), ...updateFields],
	async execute(client, itemIndex) {
		const id = this.getNodeParameter('id', itemIndex) as number;
		return await client.links.update(id, linkInput(this, itemIndex, 'updateFields') as LinkUpdateInput);
	},
};
