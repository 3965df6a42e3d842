import type { INodeProperties } from 'n8n-workflow';
import { done } from '../outputs';
import { filled } from '../filled';
import type { Operation } from '../operation';
import { idLocator, locatedId } from '../locators';
import { redirectFields } from './fields';

const properties: INodeProperties[] = [
	idLocator('domain', 'The ID of the branded domain to update'),
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
		const id = await locatedId(this, client, itemIndex, 'domain');
		const fields = this.getNodeParameter('updateFields', itemIndex, {}) as { redirectroot?: string; redirect404?: string };
		const { message } = await client.domains.update(id, filled(fields));
		return done(id, 'updated', message);
	},
};
