import type { Operation } from '../common';

export const get: Operation = {
	properties: [],
	async execute(client) {
		return await client.account.get();
	},
};
