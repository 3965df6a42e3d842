import { done } from '../outputs';
import type { Operation } from '../operation';
import { idLocator, locatedId } from '../locators';

export const deleteUser: Operation = {
	properties: [idLocator('user', 'The ID of the user to delete')],
	async execute(client, itemIndex) {
		const id = await locatedId(this, client, itemIndex, 'user');
		const { message } = await client.users.delete(id);
		return done(id, 'deleted', message);
	},
};
