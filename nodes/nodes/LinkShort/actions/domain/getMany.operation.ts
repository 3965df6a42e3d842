import { collect, forOperation, returnAllFields, type Operation } from '../common';

export const getMany: Operation = {
	description: forOperation('domain', 'getMany', returnAllFields()),
	async execute(client, itemIndex) {
		return await collect(this, itemIndex, (limit) => client.domains.list({ limit }));
	},
};
