import { done } from '../outputs';
import type { Operation } from '../operation';
import { idLocator, locatedId } from '../locators';

export const deleteDomain: Operation = {
	properties: [idLocator('domain', 'The ID of the branded domain to delete')],
	async execute(client, itemIndex) {
		const id = await locatedId(this, client, itemIndex, 'domain');
		const { message } = await client.domains.delete(id);
		return done(id, 'deleted', message);
	},
};
