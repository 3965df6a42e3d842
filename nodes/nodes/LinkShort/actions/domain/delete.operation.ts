import { done, idField, type Operation } from '../common';

export const deleteDomain: Operation = {
	properties: [idField('Domain ID', 'The ID of the branded domain to delete')],
	async execute(client, itemIndex) {
		const id = this.getNodeParameter('id', itemIndex) as number;
		const { message } = await client.domains.delete(id);
		return done(id, 'deleted', message);
	},
};
