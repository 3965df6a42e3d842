import type { Operation } from '../operation';
import { idLocator, locatedId } from '../locators';
import { userOutput } from './ownKey';

export const get: Operation = {
	properties: [idLocator('user', 'The ID of the user')],
	async execute(client, itemIndex) {
		const id = await locatedId(this, client, itemIndex, 'user');
		return userOutput(client, await client.users.get(id));
	},
};
