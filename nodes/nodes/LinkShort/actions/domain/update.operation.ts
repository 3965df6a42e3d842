import type { INodeProperties } from 'n8n-workflow';
import { done, filled, idField, type Operation } from '../common';
import { redirectFields } from './create.operation';

const properties: INodeProperties[] = [
	idField('Domain ID', 'The ID of the branded domain to update'),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: redirectFields,
	},
];

export const update: Operation = {
	properties,
	async execute(client, itemIndex) {
		const id = this.getNodeParameter('id', itemIndex) as number;
		const fields = this.getNodeParameter('updateFields', itemIndex, {}) as { redirectroot?: string; redirect404?: string };
		const { message } = await client.domains.update(id, filled(fields));
		return done(id, 'updated', message);
	},
};
