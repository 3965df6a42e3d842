import { collect, returnAllFields } from '../returnAll';
import type { Operation } from '../operation';

export const getMany: Operation = {
	properties: returnAllFields(),
	async execute(client, itemIndex) {
		return await collect(this, itemIndex, (limit) => client.domains.list({ limit }));
	},
};
