import type { INodeProperties, NodeHint } from 'n8n-workflow';

/** The fields of the click digest and the click rate events. */
export const clickHistoryProperties: INodeProperties[] = [
	{
		displayName: 'Period',
		name: 'digestPeriod',
		type: 'options',
		options: [
			{ name: 'Day', value: 'day', description: 'Each day from midnight, in the workflow\'s time zone' },
			{ name: 'Week', value: 'week', description: 'Each week from Monday midnight' },
			{ name: 'Month', value: 'month', description: 'Each month from the 1st' },
		],
		default: 'week',
		displayOptions: { show: { event: ['clickDigest'] } },
		description: 'The period each digest covers',
	},
	{
		displayName: 'Hour',
		name: 'digestHour',
		type: 'number',
		default: 9,
		typeOptions: { minValue: 0, maxValue: 23 },
		displayOptions: { show: { event: ['clickDigest'] } },
		description: 'The hour (0-23, in the workflow\'s time zone) the digest is sent after its period ends',
	},
	{
		displayName: 'Clicks',
		name: 'rateClicks',
		type: 'number',
		default: 100,
		typeOptions: { minValue: 1 },
		displayOptions: { show: { event: ['linkClickRate'] } },
		description: 'Start the workflow when a link gets at least this many clicks within the minutes below',
	},
	{
		displayName: 'Minutes',
		name: 'rateMinutes',
		type: 'number',
		default: 60,
		typeOptions: { minValue: 1 },
		displayOptions: { show: { event: ['linkClickRate'] } },
		description: 'The window the clicks are counted in, ending at each check',
	},
	{
		displayName: 'Times Its Usual Rate',
		name: 'rateFactor',
		type: 'number',
		default: 0,
		typeOptions: { minValue: 0 },
		displayOptions: { show: { event: ['linkClickRate'] } },
		description: 'Also require this many times the link\'s clicks in a window of the same length over the day before (0: clicks alone)',
	},
];

const shownFor = (event: string) => `={{ $parameter["event"] === "${event}" }}`;

/**
 * What to expect of the click events, in the editor. A pass over the account reads 1,000 links a
 * request and up to 11,000 a check; each link is sampled once a pass.
 */
export const clickHistoryHints: NodeHint[] = [
	{
		message:
			'Clicks are sampled once per pass over your links: up to 11,000 links a check, so a pass takes one check per 11,000 links. The digest\'s periods start and end within a pass of the hour; "Fetch Test Event" says how long a pass takes on this account.',
		type: 'info',
		location: 'ndv',
		whenToDisplay: 'always',
		displayCondition: shownFor('clickDigest'),
	},
	{
		message:
			'A link\'s rate is measured between passes over your links (one check per 11,000 links; one check for chosen links): choose more minutes than a pass takes. Chosen links in Link Names or IDs are read at every check; "Fetch Test Event" says how long a pass takes on this account.',
		type: 'info',
		location: 'ndv',
		whenToDisplay: 'always',
		displayCondition: shownFor('linkClickRate'),
	},
];
