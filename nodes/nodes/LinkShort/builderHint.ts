import type { IBuilderHint } from 'n8n-workflow';

/** What n8n's AI workflow builder reads about the LinkShort node as a whole; each operation has its own hint. */
export const linkShortBuilderHint: IBuilderHint = {
	searchHint:
		"URL shortener for services speaking the Link-Shortening Service API v3: shorten links (Link Create), read a link's clicks (Link Get), list top links (Link Get Many), QR codes, domains. " +
		"For workflows that may shorten the same URL again (re-runs, forms, table rows), turn on Create's Reuse Existing Link option so no duplicate link is made, and write the returned shorturl back. " +
		'To start a workflow on new links, clicks or scans use the LinkShort Trigger (n8n-nodes-linkshort.linkShortTrigger). Usable as an AI Agent tool.',
	relatedNodes: [
		{
			nodeType: 'n8n-nodes-linkshort.linkShortTrigger',
			relationHint: 'Starts workflows on new links or QR codes, click thresholds, new clicks, click digests',
		},
		{ nodeType: 'n8n-nodes-base.dataTable', relationHint: 'Keep the short URL next to each row after Create, so a re-run can skip rows already shortened' },
		{ nodeType: '@n8n/n8n-nodes-langchain.agent', relationHint: 'Attach LinkShort as a tool: "shorten this and tell me its clicks"' },
	],
};
