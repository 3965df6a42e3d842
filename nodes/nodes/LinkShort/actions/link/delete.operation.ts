import { done } from '../outputs';
import type { Operation } from '../operation';
import { idLocator, locatedId } from '../locators';

export const deleteLink: Operation = {
	properties: [idLocator('link', 'The ID of the short link to delete')],
	async execute(client, itemIndex) {
		const id = await locatedId(this, client, itemIndex, 'link');
		const { message } = await client.links.delete(id);
		return done(id, 'deleted', message);
	},
};
