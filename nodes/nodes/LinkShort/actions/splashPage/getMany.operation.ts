import { collect, returnAllFields, type Operation } from '../common';

export const getMany: Operation = {
	properties: returnAllFields(),
	async execute(client, itemIndex) {
		return await collect(this, itemIndex, (limit) => client.splashPages.list({ limit }));
	},
};
