import { collect, returnAllFields, type Operation } from '../common';
import { defineResource } from '../resource';

const getMany: Operation = {
	properties: returnAllFields(),
	async execute(client, itemIndex) {
		return await collect(this, itemIndex, (limit) => client.overlays.list({ limit }));
	},
};

export const overlay = defineResource(
	'overlay',
	[{ name: 'Get Many', value: 'getMany', action: 'Get many CTA overlays', description: 'List call-to-action overlays', operation: getMany }],
	'getMany',
);
