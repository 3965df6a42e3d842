import type { Operation } from '../common';

export const get: Operation = {
	description: [],
	async execute(client) {
		return await client.account.get();
	},
};
