import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod/v4';
import { ClickHistory, sampleWhile, stateHolderStore, type ClickHistoryState, type Link, type LinkShortClient, type Page } from '@linkshort/client/core';
import { howMany } from './howMany';
import type { EventParameters } from '../event';
import { linkPages } from './lists';
import { pollsPerPass, SCAN_PAGES_PER_POLL } from './scan';
import { idSchema, isRecord, isTime, mapOf, timeSchema } from './storedShapes';
import { pollAccount, pollWatched, trackedFromStart, trackedStateSchema, WATCHED_PER_POLL, type Tracker } from './tracking';

/**
 * A pause this long with no poll is a gap (nothing was running): the clicks gained across it are
 * the period's, in no hour. Longer than n8n's longest usual poll interval (an hour), so that a
 * missed poll or two is not a gap.
 */
export const GAP_AFTER_MS = 3 * 3_600_000;
/** Characters of a title kept for the digest's items. */
const TITLE_CHARS = 80;
/** What the digest's items show of a link (kept in `SampledState.labels`). */
export const labelOf = (link: Link): [string, string] => [link.shorturl, (link.title ?? '').slice(0, TITLE_CHARS)];

/**
 * What the click events keep: the click history (the client's recorder, its state as stored),
 * where the scan of the account stands, when the pass under way and the last complete one started
 * (a digest waits for a pass that started after its period ended: every link sampled past the
 * end), and the short URL and title of each link with clicks (for the digest's items; links with
 * no clicks cost nothing here).
 */
export const sampledStateSchema = trackedStateSchema.extend({
	/** Only an object: the click history checks its own state when it loads it (a damaged one starts empty). */
	history: z.custom<ClickHistoryState>(isRecord).nullable(),
	passStartedAt: timeSchema.nullable(),
	completePassStartedAt: timeSchema.nullable(),
	labels: mapOf(z.tuple([z.string(), z.string()])),
	/** A link read lately, clicked or not: where the account was sampled when no link gained clicks. */
	sampledLink: idSchema.nullable(),
});
export type SampledState = z.infer<typeof sampledStateSchema>;

export const sampledFromStart = (): SampledState => ({
	...trackedFromStart(),
	history: null,
	passStartedAt: null,
	completePassStartedAt: null,
	labels: {},
	sampledLink: null,
});

/**
 * How far ahead of the host's clock a stored time may be and still be gone on from: a clock set
 * back a little (a time server's correction) costs a sample or two. Further ahead, the history
 * would ignore every sample until real time caught up with the latest it holds (it takes samples in
 * order), so the click events would stay silent for as long as the clock had run ahead.
 */
export const CLOCK_SLACK_MS = 5 * 60_000;

/** Why a sampling state cannot be gone on from at the host's time `now` (times stamped by a clock that ran ahead); undefined when it can. */
export function sampledTimesAhead(state: SampledState, now: number, own: Record<string, number | null> = {}): string | undefined {
	const lastSampleAt = state.history?.lastSampleAt;
	const times: Record<string, number | null> = {
		...own,
		passStartedAt: state.passStartedAt,
		completePassStartedAt: state.completePassStartedAt,
		"the click history's last sample": isTime(lastSampleAt) ? lastSampleAt * 1000 : null,
	};
	const ahead = Object.keys(times).filter((name) => times[name] !== null && times[name]! > now + CLOCK_SLACK_MS);
	if (ahead.length === 0) return undefined;
	return `holds times ahead of this host's clock, ${new Date(now).toISOString()} (${ahead.join(', ')}: a clock ran ahead)`;
}

export interface SampledPoll<S extends SampledState> {
	state: S;
	history: ClickHistory;
	/** The links this poll read (each sampled at the poll's time). */
	read: Link[];
}

/**
 * One poll's sampling: the share of the current pass over the account (or a round of the watched
 * links) that the other link events read, each page's totals recorded by the click history as it
 * arrives (the client's `sampleWhile`: no request of its own), the history then kept in the state
 * through `stateHolderStore`. A damaged or other account's history starts empty (with a log line).
 */
export async function samplePoll<S extends SampledState>(client: LinkShortClient, state: S, parameters: EventParameters): Promise<SampledPoll<S>> {
	let stored: unknown = state.history;
	const history = new ClickHistory({
		account: client.accountId,
		store: stateHolderStore({ get: () => stored, set: (next) => void (stored = next) }),
		timeZone: parameters.timeZone,
		gapAfterMs: GAP_AFTER_MS,
		saveEveryMs: Number.MAX_SAFE_INTEGER,
		// Samples are whole milliseconds (a host clock may give fractions).
		now: () => Math.floor(parameters.now()),
		warn: parameters.log,
	});
	const read: Link[] = [];
	let visited = 0;
	const tracker: Tracker<Link, S> = {
		observe(into, link) {
			read.push(link);
			visited += 1;
			if (link.clicks > 0) into.labels[String(link.id)] = labelOf(link);
			else delete into.labels[String(link.id)];
			return undefined;
		},
		trackedIds: (from) => Object.keys(from.labels).map(Number),
		forget(from, id) {
			visited += 1;
			delete from.labels[String(id)];
			history.forget(id);
		},
		missing: () => undefined,
	};
	const outcome = await sampleWhile(history, client, async () => {
		const startedAt = parameters.now();
		const watching = parameters.linkIds.length > 0;
		const roundStart = watching ? state.watchNext % parameters.linkIds.length : state.scan.page;
		if ((watching ? roundStart === 0 : roundStart === 1) || state.passStartedAt === null) state.passStartedAt = startedAt;
		const passBefore = state.scan.pass;
		const polled = watching ? await pollWatched(client, tracker, state, parameters) : await pollAccount(linkPages(client), tracker, state, parameters, 'links');
		const complete = watching ? roundStart + visited >= parameters.linkIds.length : polled.state.scan.pass > passBefore;
		if (read.length > 0) polled.state.sampledLink = read[0]!.id;
		if (complete) polled.state.completePassStartedAt = polled.state.passStartedAt;
		return polled;
	});
	outcome.state.history = stored as ClickHistoryState;
	return { state: outcome.state, history, read };
}

/** The bytes `state` takes as n8n saves it (JSON). */
export const storedBytes = (state: IDataObject): number => new TextEncoder().encode(JSON.stringify(state)).length;

/**
 * What "Fetch Test Event" says of how often the click events see each link's clicks on this
 * account, from the page of links the test event read anyway: each link is sampled once a pass, so
 * a digest's period starts and ends within a pass of its bounds, and a rate is counted between
 * samples a pass apart.
 */
export function resolutionNotice(parameters: EventParameters, page: Pick<Page<Link>, 'items' | 'maxpage' | 'perpage'>, event: 'digest' | 'rate'): IDataObject {
	const chosen = parameters.linkIds.length;
	const polls = chosen > 0 ? Math.ceil(chosen / WATCHED_PER_POLL) : pollsPerPass(page.maxpage);
	const checks = (count: number) => (count === 1 ? 'one check' : `${count} checks`);
	const read =
		chosen > 0
			? `You chose ${chosen} link${chosen === 1 ? '' : 's'}; the trigger reads each with one request${polls === 1 ? '' : `, ${WATCHED_PER_POLL} a check`}`
			: `This account has ${howMany(page, 'links')}; the trigger reads them in ${page.maxpage === 1 ? 'one request' : polls === 1 ? `${page.maxpage} requests at each check` : `${page.maxpage} requests, ${SCAN_PAGES_PER_POLL - 1} a check`}`;
	const use =
		event === 'digest' ? `a digest's period starts and ends within ${checks(polls)} of its bounds` : `choose Minutes that span at least ${checks(2 * polls)}`;
	return { resolution: `${read}, so each link's clicks are sampled ${polls === 1 ? 'at every check' : `every ${polls} checks`}: ${use}.` };
}
