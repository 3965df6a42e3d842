import type { INodeProperties, NodeHint } from 'n8n-workflow';

/** The fields of the click digest and the click rate events. */
export const clickHistoryProperties: INodeProperties[] = [
	{
		displayName: 'Period',
		name: 'digestPeriod',
		type: 'options',
		options: [
			{ name: 'Day', value: 'day', description: "Each day from midnight, in the workflow's time zone" },
			{ name: 'Week', value: 'week', description: 'Each week from Monday midnight' },
			{ name: 'Month', value: 'month', description: 'Each month from the 1st' },
		],
		default: 'week',
		displayOptions: { show: { event: ['clickDigest'] } },
		description: 'The period each digest covers',
	},
	{
		displayName: 'Hour (Workflow Time Zone)',
		name: 'digestHour',
		type: 'number',
		default: 9,
		typeOptions: { minValue: 0, maxValue: 23 },
		displayOptions: { show: { event: ['clickDigest'] } },
		description:
			"The hour (0-23) the digest is sent after its period ends. Periods and hours follow the time zone in the workflow's settings (Timezone); set to Default, that is the n8n instance's zone. Each digest names its zone.",
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
		default: 1,
		typeOptions: { minValue: 1, numberPrecision: 1 },
		displayOptions: { show: { event: ['linkClickRate'] } },
		description:
			'1: the clicks alone count. 2 or more: the link must also get that many times its usual clicks, those of a window as long over the day before (so a link that is always busy does not fire).',
	},
];

const shownFor = (event: string) => `={{ $parameter["event"] === "${event}" }}`;

/**
 * What to expect of the click events, in the editor. A pass over the account reads 1,000 links a
 * request and up to 11,000 a check; each link is sampled once a pass. "Fetch Test Event" gives the
 * account's own figures (`resolutionNotice`).
 */
export const clickHistoryHints: NodeHint[] = [
	{
		message:
			"The trigger looks at every link's clicks at each check (on accounts with more than 11,000 links, every few checks), so a period starts and ends as exactly as you check: every 10 minutes or every hour suits a digest, and checking every minute gains nothing. Fetch Test Event says how this account is read.",
		type: 'info',
		location: 'ndv',
		whenToDisplay: 'always',
		displayCondition: shownFor('clickDigest'),
	},
	{
		message:
			"A link's rate is counted between two looks at its clicks, one at each check (every few checks on accounts with more than 11,000 links, unless you choose the links below). Choose Minutes that span at least two checks: with a check every 5 minutes, 15 or more. Fetch Test Event says how this account is read.",
		type: 'info',
		location: 'ndv',
		whenToDisplay: 'always',
		displayCondition: shownFor('linkClickRate'),
	},
];
