import type { INodeProperties } from 'n8n-workflow';

/** Where a branded domain sends visitors: set on Create, changed on Update. */
export const redirectFields: INodeProperties[] = [
	{
		displayName: 'Root Redirect',
		name: 'redirectroot',
		type: 'string',
		default: '',
		placeholder: 'https://example.com',
		description: 'Where visitors of the bare domain are sent',
	},
	{
		displayName: 'Not Found Redirect',
		name: 'redirect404',
		type: 'string',
		default: '',
		placeholder: 'https://example.com/404',
		description: 'Where visitors of an unknown short link on this domain are sent',
	},
];
