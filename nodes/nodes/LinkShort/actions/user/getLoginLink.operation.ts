import type { Operation } from '../operation';
import { idLocator, locatedId } from '../locators';

export const getLoginLink: Operation = {
	properties: [idLocator('user', 'The ID of the user who will log in')],
	async execute(client, itemIndex) {
		const id = await locatedId(this, client, itemIndex, 'user');
		const { url } = await client.users.loginLink(id);
		return { id, url };
	},
};
