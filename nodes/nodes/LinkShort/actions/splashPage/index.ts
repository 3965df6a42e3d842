import { collect, returnAllFields, type Operation } from '../common';
import { defineResource } from '../resource';

const getMany: Operation = {
	properties: returnAllFields(),
	async execute(client, itemIndex) {
		return await collect(this, itemIndex, (limit) => client.splashPages.list({ limit }));
	},
};

export const splashPage = defineResource(
	'splashPage',
	[{ name: 'Get Many', value: 'getMany', action: 'Get many splash pages', description: 'List custom splash pages', operation: getMany }],
	'getMany',
);
