import { idField, type Operation } from '../common';

export const get: Operation = {
	properties: [idField('User ID', 'The ID of the user')],
	async execute(client, itemIndex) {
		const id = this.getNodeParameter('id', itemIndex) as number;
		return await client.users.get(id);
	},
};
