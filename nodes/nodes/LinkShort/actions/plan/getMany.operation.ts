import { collect, forOperation, returnAllFields, type Operation } from '../common';

export const getMany: Operation = {
	description: forOperation('plan', 'getMany', returnAllFields()),
	async execute(client, itemIndex) {
		return await collect(this, itemIndex, () => client.plans.list());
	},
};
