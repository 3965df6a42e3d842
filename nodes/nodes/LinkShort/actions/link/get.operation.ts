import { idField, type Operation } from '../common';

export const get: Operation = {
	properties: [idField('Link ID', 'The ID of the short link')],
	async execute(client, itemIndex) {
		const id = this.getNodeParameter('id', itemIndex) as number;
		return await client.links.get(id);
	},
};
