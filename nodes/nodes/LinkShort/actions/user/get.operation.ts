import type { Operation } from '../common';
import { idLocator, locatedId } from '../locators';

export const get: Operation = {
	properties: [idLocator('user', 'The ID of the user')],
	async execute(client, itemIndex) {
		const id = await locatedId(this, client, itemIndex, 'user');
		return await client.users.get(id);
	},
};
