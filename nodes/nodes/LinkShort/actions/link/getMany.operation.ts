import type { INodeProperties } from 'n8n-workflow';
import { collect, returnAllFields } from '../returnAll';
import type { Operation } from '../operation';
import { simpleLinkListItem, simplified, simplifyField } from '../simplify';

const properties: INodeProperties[] = [
	...returnAllFields(),
	{
		displayName: 'Order By',
		name: 'order',
		type: 'options',
		options: [
			{ name: 'Newest First', value: 'date' },
			{ name: 'Most Clicks First', value: 'click' },
		],
		default: 'date',
		description: 'How the links are sorted',
	},
	simplifyField,
];

export const getMany: Operation = {
	properties,
	async execute(client, itemIndex) {
		const order = this.getNodeParameter('order', itemIndex, 'date') as 'date' | 'click';
		const shape = simplified(this, itemIndex) ? simpleLinkListItem : undefined;
		return await collect(this, itemIndex, (limit) => client.links.list({ limit, order }), shape);
	},
};
