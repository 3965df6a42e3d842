import type { IAuthenticateGeneric, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

export class LinkShortApi implements ICredentialType {
	name = 'linkShortApi';

	displayName = 'LinkShort API';

	icon = { light: 'file:../nodes/LinkShort/linkshort.svg', dark: 'file:../nodes/LinkShort/linkshort.dark.svg' } as const;

	documentationUrl = 'https://github.com/linkshort/linkshort/tree/main/nodes#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://short.example.com',
			description:
				'The address of your link-shortening service (your branded domain), without /api',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Your API key, from the Developer API page of your account',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiKey}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			// The lookbehind starts the trailing-slash match only at the first slash of a run: /\/+$/ alone
			// backtracks quadratically over a long run of slashes in the middle of the address.
			baseURL: '={{$credentials.baseUrl.replace(/(?<!\\/)\\/+$/, "").replace(/\\/api$/, "")}}',
			url: '/api/account',
			method: 'GET',
		},
		// Deployed servers answer a refused key with HTTP 403 (see real-world-notes); n8n's rule types
		// do not mix response-code and body rules in one list.
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The service refused this API key. Copy the key again from the Developer API page of your account (all of it, no spaces), and check that Base URL is the address of the account that issued it.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'No API answered at this Base URL. Use the address of your link-shortening service, such as https://short.example.com, without /api.',
				},
			},
		],
	};
}
