import { done, idField, type Operation } from '../common';

export const deleteUser: Operation = {
	properties: [idField('User ID', 'The ID of the user to delete')],
	async execute(client, itemIndex) {
		const id = this.getNodeParameter('id', itemIndex) as number;
		const { message } = await client.users.delete(id);
		return done(id, 'deleted', message);
	},
};
