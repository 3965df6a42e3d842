import type { Operation } from '../operation';

export const get: Operation = {
	properties: [],
	async execute(client) {
		return await client.account.get();
	},
};
