import type { INodeProperties } from 'n8n-workflow';
import { EVENT_NAMES, type EventName } from './events';
import { clickHistoryProperties } from './clickHistoryDescription';

/** An event as the Event list and n8n's node creator show it: one name in both places. */
const eventOption = (value: EventName, description: string) => ({ name: EVENT_NAMES[value], value, action: EVENT_NAMES[value], description });

/** What a person needs to know about each event before activating it; the figures behind "many" are in the README. */
const EVENT_NOTICES: Record<EventName, string> = {
	newLink: 'The first check only records the links that exist and starts nothing. After that, each new link starts the workflow once.',
	newQrCode: 'The first check only records the QR codes that exist and starts nothing. After that, each new QR code starts the workflow once.',
	linkClickThreshold:
		'The first check only records which links are already past the threshold and starts nothing. On an account with more than about 1,000 links, a change can take several checks to arrive, unless you choose the links to watch in Link Names or IDs.',
	newLinkClicks:
		"The first check only records each link's clicks and starts nothing. On an account with more than about 1,000 links, new clicks can take several checks to arrive, unless you choose the links to watch in Link Names or IDs.",
	newQrScans:
		"The first check only records each QR code's scans and starts nothing. On an account with more than about 1,000 QR codes, new scans can take several checks to arrive.",
	clickDigest:
		"The first check only records each link's clicks and starts nothing, so the first digest covers only the rest of its period; each digest arrives at the chosen hour after its period ends, or at the first check after that. Fetch Test Event gives a digest of the period so far, with each link's total clicks standing in until the trigger has recorded its own.",
	linkClickRate:
		"The first check only records each link's clicks and starts nothing. Each link starts the workflow once when it reaches the rate, and again only after its rate has fallen back.",
};

const notices: INodeProperties[] = (Object.keys(EVENT_NOTICES) as EventName[]).map((event) => ({
	displayName: EVENT_NOTICES[event],
	name: `${event}Notice`,
	type: 'notice',
	default: '',
	displayOptions: { show: { event: [event] } },
}));

/** The trigger's fields: the event, what to know about it, and its settings. */
export const triggerProperties: INodeProperties[] = [
	{
		displayName: 'Event',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		options: [
			eventOption('linkClickThreshold', "A link's clicks reached a number (once per crossing)"),
			eventOption('newLinkClicks', "A link's clicks grew since the last check"),
			eventOption('linkClickRate', 'A link got many clicks within a few minutes (once per rise)'),
			eventOption('clickDigest', 'Each day, week or month: clicks per link against the period before, with a chart'),
			eventOption('newLink', 'A short link was created'),
			eventOption('newQrCode', 'A QR code was created'),
			eventOption('newQrScans', "A QR code's scans grew since the last check"),
		],
		default: 'newLink',
	},
	...notices,
	{
		displayName: 'Threshold',
		name: 'threshold',
		type: 'number',
		default: 100,
		typeOptions: { minValue: 1 },
		displayOptions: { show: { event: ['linkClickThreshold'] } },
		description: 'The number of clicks that fires the trigger. Links already past it when the workflow is activated do not fire.',
	},
	{
		displayName: 'Link Names or IDs',
		name: 'linkIds',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getLinks' },
		default: [],
		displayOptions: { show: { event: ['linkClickThreshold', 'newLinkClicks', 'linkClickRate'] } },
		description:
			'Watch only these links; all links when empty. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Minimum New Clicks',
		name: 'minimumNewClicks',
		type: 'number',
		default: 1,
		typeOptions: { minValue: 1 },
		displayOptions: { show: { event: ['newLinkClicks'] } },
		description: 'Emit a link only once it has received at least this many clicks since it was last emitted',
	},
	{
		displayName: 'Minimum New Scans',
		name: 'minimumNewScans',
		type: 'number',
		default: 1,
		typeOptions: { minValue: 1 },
		displayOptions: { show: { event: ['newQrScans'] } },
		description: 'Emit a QR code only once it has been scanned at least this many times since it was last emitted',
	},
	...clickHistoryProperties,
];
