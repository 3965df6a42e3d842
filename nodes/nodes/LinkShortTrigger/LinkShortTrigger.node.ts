import type { ILoadOptionsFunctions, INodeExecutionData, INodePropertyOptions, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { linkShortClient } from '../shared/client';
import { toNodeError } from '../shared/errors';
import { linkShortApiTest } from '../shared/credentialTest';
import { triggerProperties } from './description';
import { clickHistoryHints } from './clickHistoryDescription';
import { EVENT_NAMES } from './events';
import { runPoll } from './pollRunner';
import { triggerBuilderHint, withEventHints } from './builderHints';

/** Most recent links offered in the Link IDs list (one request per 100). */
const LINK_CHOICES = 500;

export class LinkShortTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'LinkShort Trigger',
		name: 'linkShortTrigger',
		icon: { light: 'file:../LinkShort/linkshort.svg', dark: 'file:../LinkShort/linkshort.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: `={{ ${JSON.stringify(EVENT_NAMES)}[$parameter["event"]] }}`,
		// n8n's node creator shows the trigger's description for the node and its trigger together (one entry, its actions and events).
		description:
			'Shorten links, make QR codes and read click statistics; start a workflow on new links or QR codes, clicks, a click threshold or rate, a daily, weekly or monthly click digest, or scans',
		defaults: { name: 'LinkShort Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'linkShortApi', required: true, testedBy: 'linkShortApiTest' }],
		properties: withEventHints(triggerProperties),
		hints: clickHistoryHints,
		documentationUrl: 'https://github.com/linkshort/linkshort/tree/main/nodes#readme',
		builderHint: triggerBuilderHint,
	};

	methods = {
		credentialTest: { linkShortApiTest },
		loadOptions: {
			/** The account's most recent links, newest first, through the client's paginated list. */
			async getLinks(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
				const client = await linkShortClient(this);
				const options: INodePropertyOptions[] = [];
				try {
					for await (const link of client.links.list({ order: 'date', limit: 100 })) {
						options.push({
							name: `${link.shorturl} (${link.title || link.longurl})`,
							value: link.id,
							description: `ID ${link.id}, ${link.clicks} ${link.clicks === 1 ? 'click' : 'clicks'}`,
						});
						if (options.length >= LINK_CHOICES) break;
					}
				} catch (error) {
					throw toNodeError(this.getNode(), error);
				}
				return options;
			},
		},
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await runPoll.call(this);
	}
}
