import type { IBuilderHint, INodeProperties } from 'n8n-workflow';
import type { EventName } from './events';

/**
 * What n8n's AI workflow builder reads about the trigger. n8n's builder asks polling triggers that
 * feed writes to guarantee each item is processed once: this one does by itself (a baseline first,
 * then each item once, its place kept in the workflow's static data).
 */
export const triggerBuilderHint: IBuilderHint = {
	searchHint:
		'Polling trigger for a link-shortening service: starts a workflow on a new link or QR code, a link reaching a click threshold or rate, new clicks or scans, or a daily/weekly/monthly click digest. ' +
		"Exactly once: the first poll after activation only records a baseline and emits nothing; after that each new link, QR code, crossing or digest is emitted once, never repeated or missed across polls, restarts and rate limits (state kept in the workflow's static data). " +
		'Downstream writes (rows, tickets, messages) need no extra de-duplication; for exactly-once across n8n crashes and republishing, the instance should run the durable scheduler with durable cursors and the workflow publication service. ' +
		'New links carry longurl with any utm_ parameters, title and shorturl; to shorten links use the LinkShort node.',
	relatedNodes: [
		{
			nodeType: 'n8n-nodes-linkshort.linkShort',
			relationHint: "Read a link's statistics or chart after the trigger (Link Get by ID {{ $json.id }}), or shorten links",
		},
		{ nodeType: 'n8n-nodes-base.slack', relationHint: 'Post each new link, threshold crossing or digest to a channel' },
	],
};

/** Which event fits which request, on each option of the Event list. */
const EVENT_HINTS: Record<EventName, string> = {
	newLink:
		'For "when a short link is created" / "each new link": one item per new link (id, shorturl, longurl with its utm_ parameters, title), each once; the first poll is a baseline and emits nothing.',
	newQrCode: 'For "when a QR code is created": one item per new QR code, each once; the first poll is a baseline.',
	linkClickThreshold:
		'For "when a link reaches N clicks": emits a link once when its clicks reach threshold (again only after falling below and crossing again). Links already past it at activation do not fire.',
	newLinkClicks:
		'For "when a link gets clicks" / "notify on new clicks": emits links whose clicks grew by minimumNewClicks since last emitted (previousClicks, newClicks).',
	newQrScans: 'For "when a QR code is scanned": emits QR codes whose scans grew by minimumNewScans (previousScans, newScans).',
	clickDigest:
		'For "daily/weekly/monthly click report or digest": once per period at hour, one item per link with clicks in the period (kind: "link"), then a summary item (kind: "summary") with a PNG chart in binary "chart". Each period is emitted once.',
	linkClickRate:
		'For "when a link spikes / goes viral": emits a link once when it gets at least the chosen clicks within the chosen minutes; again only after its rate fell back.',
};

/** The trigger's fields with each event's builder hint on its option of the Event list. */
export function withEventHints(properties: INodeProperties[]): INodeProperties[] {
	return properties.map((property) =>
		property.name !== 'event'
			? property
			: {
					...property,
					options: (property.options ?? []).map((option) =>
						'value' in option && Object.hasOwn(EVENT_HINTS, String(option.value))
							? { ...option, builderHint: { propertyHint: EVENT_HINTS[option.value as EventName] } }
							: option,
					),
				},
	);
}
