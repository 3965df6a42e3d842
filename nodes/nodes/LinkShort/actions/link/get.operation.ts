import type { Operation } from '../common';
import { idLocator, locatedId } from '../locators';

export const get: Operation = {
	properties: [idLocator('link', 'The ID of the short link')],
	async execute(client, itemIndex) {
		const id = await locatedId(this, client, itemIndex, 'link');
		return await client.links.get(id);
	},
};
