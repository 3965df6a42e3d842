import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod/v4';
import { accountSeriesOf, calendarPeriod, ClickHistory, hourOfDay, isoOrNull } from '@linkshort/client/core';
import { seriesChart } from '@linkshort/client/charts';
import type { EventParameters, PollChart, PollEvent } from '../event';
import { mostClicked } from '../reading/lists';
import { labelOf, resolutionNotice, samplePoll, sampledFromStart, sampledStateSchema, sampledTimesAhead } from '../reading/sampling';
import { isTime, matches, momentSchema } from '../reading/storedShapes';

/** Most link items one digest emits (the links with the most clicks); the summary says how many more gained clicks. */
export const DIGEST_LINKS = 1000;
/** Most periods one poll catches up on after a long stop (older ones are logged as skipped). */
const CATCH_UP_PERIODS = 31;

/**
 * What the digest keeps beside the sampling: the end of the last period digested. A period is
 * digested once, at the first poll at or after its due time (the chosen hour after it ends) that
 * follows a complete pass started after its end, so that every link was sampled past it: a
 * missed poll or a restart makes it late, never lost or repeated.
 */
const digestStateSchema = sampledStateSchema.extend({ digestedUntil: momentSchema.nullable() });
export type DigestState = z.infer<typeof digestStateSchema>;

interface Period {
	start: number;
	end: number;
}

/** "Mon 25 Nov 00:10" in `timeZone`. */
export const localTime = (at: number, timeZone: string): string =>
	new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
		.format(at)
		.replace(',', '');

const PERIOD_LABELS: Record<EventParameters['digest']['period'], Intl.DateTimeFormatOptions> = {
	day: { weekday: 'short', day: 'numeric', month: 'short' },
	week: { weekday: 'short', day: 'numeric', month: 'short' },
	month: { month: 'long', year: 'numeric' },
};

/** The period that starts at `start`, as a sentence names it: "on Mon 23 Nov", "in the week from Mon 23 Nov", "in November 2026". */
export function periodPhrase(kind: EventParameters['digest']['period'], start: number, timeZone: string): string {
	const label = new Intl.DateTimeFormat('en-GB', { timeZone, ...PERIOD_LABELS[kind] }).format(start).replace(',', '');
	return kind === 'day' ? `on ${label}` : kind === 'week' ? `in the week from ${label}` : `in ${label}`;
}

const percentChange = (now: number, before: number | null) => (before === null || before === 0 ? null : Math.round(((now - before) / before) * 1000) / 10);

/** The items of one period: a link item per link that gained clicks (most first), then the summary with its chart. */
function digestOf(history: ClickHistory, state: DigestState, period: Period, parameters: EventParameters): { items: IDataObject[]; chart: Uint8Array } {
	const { timeZone } = parameters;
	const kind = parameters.digest.period;
	const before = calendarPeriod({ period: kind, timeZone, at: period.start, offset: -1 });
	const granularity = kind === 'day' ? 'hour' : 'day';
	const ranked = history.top({ start: period.start, end: period.end, timeZone, limit: DIGEST_LINKS, granularity });
	const items: IDataObject[] = [];
	let previousTotal: number | null = null;
	for (const entry of ranked.links) {
		const previous = history.series({ linkId: entry.linkId, start: before.start, end: before.end, granularity: kind, timeZone }).total;
		if (previous !== null) previousTotal = (previousTotal ?? 0) + previous;
		const [shorturl, title] = state.labels[String(entry.linkId)] ?? [null, null];
		items.push({
			kind: 'link',
			id: entry.linkId,
			shorturl,
			title,
			clicks: entry.clicks,
			uniqueClicks: entry.uniqueClicks,
			previousClicks: previous,
			changePercent: percentChange(entry.clicks!, previous),
			quality: entry.quality,
			sampledFrom: isoOrNull(entry.measuredFrom),
			sampledTo: isoOrNull(entry.measuredTo),
			reset: entry.reset,
		});
	}
	const clicks = items.reduce((sum, item) => sum + (item.clicks as number), 0);
	const sampledFrom = Math.min(...ranked.links.map((entry) => entry.measuredFrom).filter(isTime));
	const sampledTo = Math.max(...ranked.links.map((entry) => entry.measuredTo).filter(isTime));
	const measured = Number.isFinite(sampledFrom) && Number.isFinite(sampledTo);
	const span = measured
		? `from about ${localTime(sampledFrom, timeZone)} to about ${localTime(sampledTo, timeZone)}`
		: `from ${localTime(period.start, timeZone)} to ${localTime(period.end, timeZone)}`;
	const phrase = periodPhrase(kind, period.start, timeZone);
	const when = `(${measured ? 'sampled ' : ''}${span}, ${timeZone} time)`;
	const anyLink = ranked.links[0]?.linkId ?? state.sampledLink ?? 1;
	const sampled = history.series({ linkId: anyLink, start: period.start, end: period.end, granularity, timeZone });
	const chart = seriesChart(
		accountSeriesOf(
			ranked.links.map((entry) => entry.series!),
			sampled,
		),
		{ title: `Clicks ${span}` },
	);
	items.push({
		kind: 'summary',
		period: kind,
		periodStart: isoOrNull(period.start),
		periodEnd: isoOrNull(period.end),
		sampledFrom: measured ? isoOrNull(sampledFrom) : null,
		sampledTo: measured ? isoOrNull(sampledTo) : null,
		timeZone,
		clicks,
		previousClicks: previousTotal,
		changePercent: percentChange(clicks, previousTotal),
		links: items.length,
		linksShownAtMost: DIGEST_LINKS,
		chartDescription: chart.description,
		summary:
			items.length === 0
				? `No link gained clicks ${phrase} ${when}.`
				: `${clicks} click${clicks === 1 ? '' : 's'} on ${items.length} link${items.length === 1 ? '' : 's'} ${phrase}${previousTotal === null ? '' : `, against ${previousTotal} the ${kind} before`} ${when}.`,
	});
	return { items, chart: chart.png() };
}

function duePeriods(state: DigestState, parameters: EventParameters): Period[] {
	const now = Math.floor(parameters.now());
	const due: Period[] = [];
	let period = calendarPeriod({ period: parameters.digest.period, timeZone: parameters.timeZone, at: state.digestedUntil! });
	// Due at the chosen hour of the day the period ends, local time.
	while (
		hourOfDay({ at: period.end, hour: parameters.digest.hour, timeZone: parameters.timeZone }) <= now &&
		(state.completePassStartedAt ?? 0) >= period.end
	) {
		due.push(period);
		period = calendarPeriod({ period: parameters.digest.period, timeZone: parameters.timeZone, at: period.end });
	}
	if (due.length > CATCH_UP_PERIODS)
		parameters.log(`${due.length - CATCH_UP_PERIODS} older digests were missed while the workflow was not running; the latest ${CATCH_UP_PERIODS} are sent`);
	return due.slice(-CATCH_UP_PERIODS);
}

export const clickDigest: PollEvent<DigestState> = {
	isState: matches(digestStateSchema),

	unusable: (state, parameters) => sampledTimesAhead(state, parameters.now(), { digestedUntil: state.digestedUntil }),

	async baseline(client, parameters) {
		return (await this.poll(client, { ...sampledFromStart(), digestedUntil: null }, parameters)).state;
	},

	async poll(client, stored, parameters) {
		const { state, history } = await samplePoll(client, stored, parameters);
		// The first digest is of the period under way when sampling began: nothing before it was sampled.
		if (state.digestedUntil === null)
			state.digestedUntil = calendarPeriod({ period: parameters.digest.period, timeZone: parameters.timeZone, at: Math.floor(parameters.now()) }).start;
		const items: IDataObject[] = [];
		const charts: PollChart[] = [];
		for (const period of duePeriods(state, parameters)) {
			const digest = digestOf(history, state, period, parameters);
			items.push(...digest.items);
			charts.push({ item: items.length - 1, png: digest.chart, fileName: `clicks-${new Date(period.start).toISOString().slice(0, 10)}.png` });
			state.digestedUntil = period.end;
		}
		return { items, state, charts };
	},

	async sample(client, parameters) {
		// A digest of the period under way as the event emits it, every field and the chart: the trigger
		// has no history before it is published, so each link's total to date stands in for its clicks,
		// spread over the period so far, and the items say so.
		const { timeZone } = parameters;
		const kind = parameters.digest.period;
		const now = Math.floor(parameters.now());
		const period = calendarPeriod({ period: kind, timeZone, at: now });
		const page = await mostClicked(client);
		const clicked = page.items.filter((link) => link.clicks > 0).slice(0, DIGEST_LINKS);
		const history = new ClickHistory({ account: client.accountId, timeZone, gapAfterMs: period.end - period.start, now: () => now });
		history.record(
			clicked.map((link) => ({ id: link.id, clicks: 0 })),
			period.start,
		);
		history.record(
			clicked.map((link) => ({ id: link.id, clicks: link.clicks })),
			Math.max(now, period.start + 1000),
		);
		const labels = Object.fromEntries(clicked.map((link) => [String(link.id), labelOf(link)]));
		const { items, chart } = digestOf(history, { ...sampledFromStart(), labels, digestedUntil: null }, period, parameters);
		const testEvent = `A test event, made from this account's links as they stand: each link's total clicks to date stands in for the clicks it gains ${periodPhrase(kind, period.start, timeZone)}, spread evenly over the ${kind} so far (the chart too). Once the workflow is published, the trigger records each link's clicks and each digest counts only those of its ${kind}; previousClicks and changePercent stay empty until it has recorded a ${kind} before.`;
		const marked = items.map((item) => ({
			...item,
			...(item.kind === 'summary' ? { summary: `Test event: ${String(item.summary)}`, ...resolutionNotice(parameters, page, 'digest') } : {}),
			testEvent,
		}));
		return {
			items: marked,
			charts: [{ item: marked.length - 1, png: chart, fileName: `clicks-${new Date(period.start).toISOString().slice(0, 10)}-test.png` }],
		};
	},
};
