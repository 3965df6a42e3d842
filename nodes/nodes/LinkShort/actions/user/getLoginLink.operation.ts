import { idField, type Operation } from '../common';

export const getLoginLink: Operation = {
	properties: [idField('User ID', 'The ID of the user who will log in')],
	async execute(client, itemIndex) {
		const id = this.getNodeParameter('id', itemIndex) as number;
		const { url } = await client.users.loginLink(id);
		return { id, url };
	},
};
