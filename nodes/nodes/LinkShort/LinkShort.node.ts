import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { operationSubtitle, resourceProperties } from './actions/resources';
import { linkShortBuilderHint } from './builderHint';
import { router } from './actions/router';
import { linkShortApiTest } from '../shared/credentialTest';
import { getDomains, getRedirectTypes } from './methods/loadOptions';
import { searchDomains, searchLinks, searchPixels, searchPlans, searchQrCodes, searchUsers } from './methods/listSearch';

const properties = resourceProperties();

export class LinkShort implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'LinkShort',
		name: 'linkShort',
		icon: { light: 'file:linkshort.svg', dark: 'file:linkshort.dark.svg' },
		group: ['transform'],
		version: [1, 1.1, 1.2],
		defaultVersion: 1.2,
		subtitle: operationSubtitle(properties),
		description: 'Shorten links, make QR codes and read click statistics on a link-shortening service',
		defaults: { name: 'LinkShort' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'linkShortApi', required: true, testedBy: 'linkShortApiTest' }],
		properties,
		// The Docs link as written: n8n adds its own query to the codex's link, which would land after a fragment.
		documentationUrl: 'https://github.com/linkshort/linkshort/tree/main/nodes#readme',
		builderHint: linkShortBuilderHint,
	};

	methods = {
		credentialTest: { linkShortApiTest },
		loadOptions: { getDomains, getRedirectTypes },
		listSearch: { searchLinks, searchQrCodes, searchDomains, searchPixels, searchUsers, searchPlans },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
