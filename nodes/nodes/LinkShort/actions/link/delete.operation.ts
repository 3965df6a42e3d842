import { done, idField, type Operation } from '../common';

export const deleteLink: Operation = {
	properties: [idField('Link ID', 'The ID of the short link to delete')],
	async execute(client, itemIndex) {
		const id = this.getNodeParameter('id', itemIndex) as number;
		const { message } = await client.links.delete(id);
		return done(id, 'deleted', message);
	},
};
