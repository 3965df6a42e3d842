import type { LinkUpdateInput } from '@linkshort/client/core';
import type { Operation } from '../common';
import { idLocator, locatedId } from '../locators';
import { linkInput, updateFields } from './fields';

export const update: Operation = {
	properties: [idLocator('link', 'The ID of the short link to update'), ...updateFields],
	async execute(client, itemIndex) {
		const id = await locatedId(this, client, itemIndex, 'link');
		return await client.links.update(id, linkInput(this, itemIndex, 'updateFields') as LinkUpdateInput);
	},
};
