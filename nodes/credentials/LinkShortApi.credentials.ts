import type { IAuthenticateGeneric, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * Tested by the nodes' `linkShortApiTest` (`testedBy`), which says what to fix in Base URL or API Key
 * for each way the test fails, where a test request could answer only with a network error's code.
 */
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
				'The address of your link-shortening service (your branded domain), without /api. A service on this machine, such as the local sandbox of npm start, is plain http: http://127.0.0.1:8787.',
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
}
