import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod/v4';
import { isLinkShortError, PagePromise, type Link, type LinkShortClient, type Page } from '@linkshort/client/core';
import { aliasFromShortUrl } from '@linkshort/client/values';
import type { EventParameters } from '../event';
import { STOPPED, unlessStopped, type PageReader } from './pageReader';
import { firstCursor, pollsPerPass, scanCursorSchema, scanStep, SCAN_PAGES_PER_POLL } from './scan';
import { countMapSchema, idSchema } from './storedShapes';

/** The most watched links one poll reads (one request each); more are read in turns, this many a poll. */
export const WATCHED_PER_POLL = SCAN_PAGES_PER_POLL;

/** A request made inside a poll never waits for the rate limit: a spent window ends the poll's reading, and the next poll goes on. */
export const NO_WAIT = { maxRateLimitWaitMs: 0 } as const;

/**
 * What the click, threshold and scan events keep beside their own fields: where the scan of the
 * account stands, whether the baseline (the first full pass, which emits nothing) has been read,
 * the pass that last saw each tracked id (a complete pass that did not see one means it was
 * deleted), and for watched links the next one to read.
 */
export const trackedStateSchema = z.object({ scan: scanCursorSchema, baselineRead: z.boolean(), seenIn: countMapSchema, watchNext: idSchema });
export type TrackedState = z.infer<typeof trackedStateSchema>;

/** Whether a stored state holds these fields (as a state kept before scans were spread over polls does not). */
export const isTrackedState = (value: unknown): boolean => trackedStateSchema.safeParse(value).success;

/** The tracking fields of a state kept before scans were spread over polls (a full read each poll): its baseline was read. */
export const trackedAfterUpgrade = (): TrackedState => ({ scan: firstCursor(), baselineRead: true, seenIn: {}, watchNext: 0 });
export const trackedFromStart = (): TrackedState => ({ scan: firstCursor(), baselineRead: false, seenIn: {}, watchNext: 0 });

/** How one event reads what it sees: what to emit, and what it keeps per id. */
export interface Tracker<T extends { id: number }, S extends TrackedState> {
	/** Looks at `item` as read now and updates `state`; returns the item to emit, if any (only when `emitting`). */
	observe(state: S, item: T, emitting: boolean): IDataObject | undefined;
	/** The ids `state` keeps something for. */
	trackedIds(state: S): number[];
	/** Drops what `state` keeps for a deleted item. */
	forget(state: S, id: number): void;
	/** What a complete snapshot (see `Snapshot`) that lacks tracked `id` means: its count fell out of what the snapshot holds, or it was deleted. */
	missing(state: S, id: number): void;
}

/**
 * A read of the whole of what an event looks at in one request, when it fits in one page: the
 * links most clicked first, down to the first that does not interest the event (below the
 * threshold, or at zero clicks). One request is one moment of the server's list: nothing moves
 * between its pages, so what is not in it is not there.
 */
export interface Snapshot<T> {
	read: () => Promise<Page<T>>;
	interesting: (item: T) => boolean;
}

export interface TrackedPoll<S> {
	items: IDataObject[];
	state: S;
}

/**
 * One poll over the whole account: the next share of the current pass (see `scanStep`), each item
 * looked at once. Items are emitted from the second pass on; after a complete pass, ids it did not
 * see are forgotten (their items were deleted).
 */
export async function pollAccount<T extends { id: number; date: string | null }, S extends TrackedState>(
	readPage: PageReader<T>,
	tracker: Tracker<T, S>,
	state: S,
	parameters: EventParameters,
	what: string,
	snapshot?: Snapshot<T>,
): Promise<TrackedPoll<S>> {
	let budget = SCAN_PAGES_PER_POLL;
	if (snapshot && state.scan.page === 1) {
		// Between passes, one request may be all it takes: then the poll is a whole pass.
		const page = await unlessStopped(snapshot.read());
		if (page === STOPPED) return { items: [], state };
		const last = page.items[page.items.length - 1];
		if (PagePromise.isLastPage(page, 1) || (last !== undefined && !snapshot.interesting(last))) {
			const emitting = state.baselineRead;
			const items: IDataObject[] = [];
			for (const item of page.items) {
				const emitted = tracker.observe(state, item, emitting);
				if (emitted) items.push(emitted);
			}
			const inSnapshot = new Set(page.items.map((item) => item.id));
			for (const id of tracker.trackedIds(state)) if (!inSnapshot.has(id)) tracker.missing(state, id);
			state.seenIn = {};
			state.baselineRead = true;
			state.scan = { ...firstCursor(), pass: state.scan.pass + 1, pages: 1 };
			return { items, state };
		}
		budget -= 1;
	}
	const step = await scanStep(readPage, state.scan, { requests: budget, timeUp: parameters.timeUp });
	const emitting = state.baselineRead;
	const items: IDataObject[] = [];
	for (const item of step.items) {
		const emitted = tracker.observe(state, item, emitting);
		if (emitted) items.push(emitted);
	}
	const tracked = new Set(tracker.trackedIds(state));
	for (const item of step.items) if (tracked.has(item.id)) state.seenIn[String(item.id)] = step.pass;
	for (const id of Object.keys(state.seenIn)) if (!tracked.has(Number(id))) delete state.seenIn[id];
	if (step.passComplete) {
		for (const id of tracked) {
			if (state.seenIn[String(id)] === step.pass) continue;
			tracker.forget(state, id);
			delete state.seenIn[String(id)];
		}
	}
	if (!state.baselineRead && !(step.passEnded && state.scan.page === 1)) {
		// A baseline longer than one poll: say how long it takes, and when it is done.
		if (step.passComplete) parameters.log(`the baseline of ${what} is read; changes are emitted from the next poll`);
		else if (state.scan.page === 1 && step.requests > 0) {
			parameters.log(
				`reading the baseline of ${what}: ${step.cursor.pages} pages, about ${pollsPerPass(step.cursor.pages)} polls; nothing is emitted until it is read`,
			);
		}
	}
	if (step.passComplete) state.baselineRead = true;
	state.scan = step.cursor;
	return { items, state };
}

/** A watched link as the list gives links, from its details and statistics. */
export async function readWatched(client: LinkShortClient, id: number): Promise<Link | undefined> {
	return await client.links.get(id, NO_WAIT).then(
		({ details, stats }) => ({
			id: details.id,
			alias: aliasFromShortUrl(details.shorturl),
			shorturl: details.shorturl,
			longurl: details.longurl,
			clicks: stats.clicks,
			title: details.title,
			description: details.description,
			date: details.date,
		}),
		(error: unknown) => {
			if (isLinkShortError(error, 'LINKSHORT_NOT_FOUND')) return undefined;
			throw error;
		},
	);
}

/**
 * One poll over watched links: one request each, `WATCHED_PER_POLL` at most, in turns when there
 * are more. The first round is the baseline. A deleted link is forgotten; a spent rate limit ends
 * the poll's reading, and the next poll goes on from there.
 */
export async function pollWatched<S extends TrackedState>(
	client: LinkShortClient,
	tracker: Tracker<Link, S>,
	state: S,
	parameters: EventParameters,
): Promise<TrackedPoll<S>> {
	const ids = parameters.linkIds;
	const start = state.watchNext % ids.length;
	const emitting = state.baselineRead;
	const items: IDataObject[] = [];
	let read = 0;
	while (read < Math.min(ids.length, WATCHED_PER_POLL) && !(read > 0 && parameters.timeUp())) {
		const id = ids[(start + read) % ids.length]!;
		const link = await unlessStopped(readWatched(client, id));
		if (link === STOPPED) break;
		read += 1;
		if (link === undefined) tracker.forget(state, id);
		else {
			const emitted = tracker.observe(state, link, emitting);
			if (emitted) items.push(emitted);
		}
	}
	if (start + read >= ids.length) state.baselineRead = true;
	state.watchNext = (start + read) % ids.length;
	return { items, state };
}
