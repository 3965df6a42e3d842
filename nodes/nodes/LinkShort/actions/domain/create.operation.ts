import type { INodeProperties } from 'n8n-workflow';
import { filled } from '../filled';
import type { Operation } from '../operation';
import { redirectFields } from './fields';

const properties: INodeProperties[] = [
	{
		displayName: 'Domain',
		name: 'domain',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'https://go.example.com',
		description: 'The branded domain with http:// or https://. It must already point at the service.',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: redirectFields,
	},
];

export const create: Operation = {
	properties,
	async execute(client, itemIndex) {
		const domain = this.getNodeParameter('domain', itemIndex) as string;
		const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as { redirectroot?: string; redirect404?: string };
		const { id } = await client.domains.create({ domain, ...filled(additional) });
		return { id, domain, ...filled(additional) };
	},
};
