import type { IDataObject } from 'n8n-workflow';
import { NotFoundError, type Link, type LinkShortClient, type PagePromise, type QrCode } from '@linkshort/client/core';

/** Page sizes: large, so that a quiet account costs one request per poll. */
const LINK_PAGE = 100;
const QR_PAGE = 500;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** How far back a server's clock may step (the end of daylight saving time), with a margin. */
const CLOCK_STEP_MS = HOUR + 5 * MINUTE;
/** How long after the newest item appeared a step back could still hide items created after it. */
const HIDDEN_WINDOW_MS = 2 * CLOCK_STEP_MS;
/** How often a deep read looks below the top for items a step back hid, while that can happen. */
const SWEEP_EVERY_MS = HOUR;
/** After this long, a server that already showed items dated `top` can give that date to no new item. */
const SETTLE_AFTER_MS = 2_000;

export interface EventParameters {
	threshold: number;
	/** Watch only these links (threshold and click events); all links when empty. */
	linkIds: number[];
	/** Emit a link or QR code only once its clicks or scans grew by at least this much. */
	minimumNew: number;
	/** The n8n host's clock (milliseconds), never the server's. */
	now: () => number;
}

/** One kind of event: how to start watching, how to poll, and a sample for "Fetch Test Event". */
export interface PollEvent<State extends IDataObject> {
	/** Whether a stored value is a state this event can go on from (static data can hold anything). */
	isState(value: unknown): value is State;
	baseline(client: LinkShortClient, parameters: EventParameters): Promise<State>;
	/** Reads the server and returns what is new since `state`, and the next state; never changes `state`. */
	poll(client: LinkShortClient, state: State, parameters: EventParameters): Promise<{ items: IDataObject[]; state: State }>;
	sample(client: LinkShortClient, parameters: EventParameters): Promise<IDataObject[]>;
}

// ------------------------------------------------------------------ shapes of stored states

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const isIdList = (value: unknown): value is number[] => Array.isArray(value) && value.every(isId);
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;
const isCountMap = (value: unknown): value is Record<string, number> => isRecord(value) && Object.values(value).every(isCount);
const isDateOrNull = (value: unknown): value is string | null => value === null || typeof value === 'string';
const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

// ------------------------------------------------------------------ new items (links, QR codes)

/**
 * What the "new item" events keep. The boundary is the id, not the date: new records get higher
 * ids, while their dates are the server's local time, which steps back at the end of daylight
 * saving time or after an NTP correction. An item is new when its id is above `floorId` and not
 * in `known` (the ids above the floor already emitted).
 *
 * Dates only decide how deep a poll reads the newest-first list:
 * - normally down to the block of items dated `top` (the newest date seen), since on a steady
 *   clock nothing new can be dated earlier; once a full read of that block started a few seconds
 *   after the block was first seen (`topSettled`), no new item can take that date either, so a
 *   quiet poll stops at the first page: one request, however many links share the newest second;
 * - deep, down to an hour (a clock step) below the top of the last deep read, when a new item is
 *   dated before `top` (the clock stepped back), when the list grew by a page and nothing new
 *   showed, and every hour in the two hours after a new `top` (a step back can hide items below
 *   a full first page without either sign). A deep read sees every item created since the last
 *   one, so it moves `floorId` up and empties `known`.
 */
interface NewItemsState extends IDataObject {
	floorId: number;
	known: number[];
	top: string | null;
	topSeenAt: number;
	topSettled: boolean;
	pages: number;
	deepTop: string | null;
	deepReadAt: number;
}

interface Dated {
	id: number;
	date: string | null;
}

const dateOf = (item: Dated) => item.date ?? '';

/** `date` (`YYYY-MM-DD[ HH:MM:SS]`, the server's local time) moved back by `ms`, in the same format. */
function dateBefore(date: string, ms: number): string {
	const match = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?/.exec(date);
	if (!match) return '';
	const [, y, mo, d, h = '0', mi = '0', s = '0'] = match;
	const moved = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) - ms);
	return moved.toISOString().slice(0, 19).replace('T', ' ');
}

const earlier = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : a < b ? a : b);

function newestDate(items: Dated[], atLeast: string | null): string | null {
	return items.reduce<string | null>((newest, item) => (item.date !== null && (newest === null || item.date > newest) ? item.date : newest), atLeast);
}

interface Reading<T> {
	items: T[];
	deep: boolean;
	/** The read went past the block of its newest date (or to the end of the list). */
	newestBlockRead: boolean;
	pages: number;
}

/**
 * Reads newest-first pages as deep as `state` requires (see NewItemsState); each id once.
 * Without a state (a baseline) it reads deep from the start.
 */
async function readNewest<T extends Dated>(pages: PagePromise<T>, state: NewItemsState | undefined, startedAt: number): Promise<Reading<T>> {
	const seen = new Map<number, T>();
	const known = new Set(state?.known ?? []);
	const isNew = (item: T) => state !== undefined && item.id > state.floorId && !known.has(item.id);
	let deep = state === undefined || (startedAt - state.deepReadAt >= SWEEP_EVERY_MS && state.deepReadAt < state.topSeenAt + HIDDEN_WINDOW_MS);
	let pageCount = state?.pages ?? 0;
	let first = true;
	let last: T | undefined;
	let stopped = false;
	const top = state?.top ?? null;

	const stepSuspected = () => {
		if (state === undefined) return false;
		const fresh = [...seen.values()].filter(isNew);
		return fresh.some((item) => top !== null && dateOf(item) < top) || (pageCount > state.pages && fresh.length === 0);
	};
	const deepFloor = () => {
		const from = state === undefined ? newestDate([...seen.values()], null) : earlier(state.deepTop, top);
		return from === null ? null : dateBefore(from, CLOCK_STEP_MS);
	};
	const reachedFloor = (item: T) => {
		if (deep) {
			const floor = deepFloor();
			return floor !== null && dateOf(item) < floor;
		}
		if (top === null) return false;
		return state?.topSettled ? dateOf(item) <= top : dateOf(item) < top;
	};

	for await (const page of pages.pages()) {
		for (const item of page.items) if (!seen.has(item.id)) seen.set(item.id, item);
		if (first) pageCount = page.maxpage;
		first = false;
		const pageLast = page.items[page.items.length - 1];
		if (pageLast === undefined) break;
		last = pageLast;
		if (!deep && stepSuspected()) deep = true;
		if (reachedFloor(pageLast)) {
			stopped = true;
			break;
		}
	}
	const items = [...seen.values()];
	const newest = newestDate(items, null);
	return { items, deep, pages: pageCount, newestBlockRead: !stopped || (last !== undefined && newest !== null && dateOf(last) < newest) };
}

/**
 * A state kept by version 0.1.0, which bounded by dates: `known` mapped the ids dated at or after
 * `boundary` to their dates. Everything it emitted has an id at most the largest of those; the
 * first poll after the upgrade reads deep.
 */
function upgraded(state: IDataObject): NewItemsState {
	if (typeof state.floorId === 'number') return state as NewItemsState;
	const known = state.known !== null && typeof state.known === 'object' ? Object.keys(state.known).map(Number).filter(Number.isInteger) : [];
	const top = typeof state.previousNewest === 'string' ? state.previousNewest : null;
	return { floorId: Math.max(0, ...known), known: [], top, topSeenAt: 0, topSettled: false, pages: 0, deepTop: top, deepReadAt: 0 };
}

/** The current state, or the one kept by 0.1.0 (no `floorId`; `known` maps ids to dates), which `upgraded` reads. */
function isNewItemsState(value: unknown): value is NewItemsState {
	if (!isRecord(value)) return false;
	if (!('floorId' in value)) {
		return isRecord(value.known) && Object.keys(value.known).every((id) => /^[0-9]{1,16}$/.test(id)) && (value.previousNewest === undefined || isDateOrNull(value.previousNewest));
	}
	return (
		isId(value.floorId) &&
		isIdList(value.known) &&
		isDateOrNull(value.top) &&
		isTime(value.topSeenAt) &&
		typeof value.topSettled === 'boolean' &&
		isId(value.pages) &&
		isDateOrNull(value.deepTop) &&
		isTime(value.deepReadAt)
	);
}

function newItemsEvent<T extends Dated>(list: (client: LinkShortClient) => PagePromise<T>, describe: (item: T) => IDataObject): PollEvent<NewItemsState> {
	return {
		isState: isNewItemsState,

		async baseline(client, { now }) {
			const startedAt = now();
			const reading = await readNewest(list(client), undefined, startedAt);
			const top = newestDate(reading.items, null);
			return {
				floorId: reading.items.reduce((max, item) => Math.max(max, item.id), 0),
				known: [],
				top,
				topSeenAt: now(),
				topSettled: false,
				pages: reading.pages,
				deepTop: top,
				deepReadAt: startedAt,
			};
		},

		async poll(client, stored, { now }) {
			const state = upgraded(stored);
			const startedAt = now();
			const reading = await readNewest(list(client), state, startedAt);
			const known = new Set(state.known);
			const fresh = reading.items.filter((item) => item.id > state.floorId && !known.has(item.id)).sort((a, b) => a.id - b.id);
			for (const item of fresh) known.add(item.id);

			let floorId = state.floorId;
			let { deepTop, deepReadAt } = state;
			if (reading.deep) {
				floorId = reading.items.reduce((max, item) => Math.max(max, item.id), floorId);
				// The server's clock was at least `state.top` when this read started: items created since are dated at most a step below it.
				deepTop = state.top ?? newestDate(reading.items, null);
				deepReadAt = startedAt;
			}
			const newest = newestDate(reading.items, state.top);
			const topMoved = newest !== state.top;
			return {
				items: fresh.map(describe),
				state: {
					floorId,
					known: [...known].filter((id) => id > floorId),
					top: newest,
					// Taken after the read: the server showed items dated `newest` no later than this.
					topSeenAt: topMoved ? now() : state.topSeenAt,
					topSettled: topMoved ? false : state.topSettled || (reading.newestBlockRead && startedAt - state.topSeenAt >= SETTLE_AFTER_MS),
					pages: reading.pages,
					deepTop,
					deepReadAt,
				},
			};
		},

		async sample(client) {
			const first = await list(client);
			return first.items.slice(0, 1).map(describe);
		},
	};
}

export const newLink = newItemsEvent(
	(client) => client.links.list({ order: 'date', limit: LINK_PAGE }),
	(link): IDataObject => ({ ...link, summary: `New short link ${link.shorturl} -> ${link.longurl}` }),
);
export const newQrCode = newItemsEvent(
	(client) => client.qrCodes.list({ limit: QR_PAGE }),
	(qr): IDataObject => ({ ...qr, summary: `New QR code "${qr.name}" -> ${qr.link}` }),
);

// ------------------------------------------------------------------ click threshold

/**
 * What the threshold event keeps: the ids of watched links now at or above the threshold (so that
 * each fires once), and the ids that fired and have since dropped below (so that a second crossing
 * says so). Both are bounded by the links that ever reached the threshold.
 */
interface ThresholdState extends IDataObject {
	above: number[];
	droppedAfterFiring: number[];
}

/** Reads most-clicked-first pages until a page ends below the threshold. */
async function readAtOrAbove(client: LinkShortClient, threshold: number): Promise<Link[]> {
	const found = new Map<number, Link>();
	for await (const page of client.links.list({ order: 'click', limit: LINK_PAGE }).pages()) {
		for (const link of page.items) if (link.clicks >= threshold && !found.has(link.id)) found.set(link.id, link);
		const last = page.items[page.items.length - 1];
		if (last !== undefined && last.clicks < threshold) break;
	}
	return [...found.values()];
}

/** A link's clicks, or undefined once it was deleted; other failures fail the poll (the node reports them). */
async function clicksOf(client: LinkShortClient, id: number): Promise<number | undefined> {
	return await client.links.get(id).then(
		({ stats }) => stats.clicks,
		(error: unknown) => {
			if (error instanceof NotFoundError) return undefined;
			throw error;
		},
	);
}

const watched = (parameters: EventParameters) => (link: { id: number }) => parameters.linkIds.length === 0 || parameters.linkIds.includes(link.id);

const thresholdItem = (link: Link, threshold: number, crossedAgain: boolean): IDataObject => ({
	...link,
	threshold,
	crossedAgain,
	summary: `${link.shorturl} reached ${link.clicks} clicks (threshold ${threshold}) -> ${link.longurl}`,
});

export const linkClickThreshold: PollEvent<ThresholdState> = {
	isState: (value): value is ThresholdState => isRecord(value) && isIdList(value.above) && isIdList(value.droppedAfterFiring),

	async baseline(client, parameters) {
		const above = (await readAtOrAbove(client, parameters.threshold)).filter(watched(parameters));
		return { above: above.map((link) => link.id), droppedAfterFiring: [] };
	},

	async poll(client, state, parameters) {
		const current = (await readAtOrAbove(client, parameters.threshold)).filter(watched(parameters));
		const currentIds = new Set(current.map((link) => link.id));
		const wasAbove = new Set(state.above);
		const dropped = new Set(state.droppedAfterFiring);

		// A link that was above and is not in this scan either dropped, was deleted, or moved
		// between pages while we read: ask for it rather than guess, so nothing fires twice.
		const stillAbove: number[] = [];
		for (const id of state.above) {
			if (currentIds.has(id)) continue;
			const clicks = await clicksOf(client, id);
			if (clicks === undefined) dropped.delete(id);
			else if (clicks >= parameters.threshold) stillAbove.push(id);
			else dropped.add(id);
		}

		const crossed = current.filter((link) => !wasAbove.has(link.id));
		const items = crossed.map((link) => thresholdItem(link, parameters.threshold, dropped.has(link.id)));
		for (const link of crossed) dropped.delete(link.id);
		return {
			items,
			state: { above: [...currentIds, ...stillAbove], droppedAfterFiring: [...dropped] },
		};
	},

	async sample(client, parameters) {
		const top = (await client.links.list({ order: 'click', limit: LINK_PAGE })).items.filter(watched(parameters));
		const link = top.find((candidate) => candidate.clicks >= parameters.threshold) ?? top[0];
		return link ? [thresholdItem({ ...link, clicks: Math.max(link.clicks, parameters.threshold) }, parameters.threshold, false)] : [];
	},
};

// ------------------------------------------------------------------ growing counts (clicks, scans)

/**
 * What the growth events keep: each item's count when it was last emitted (or at the baseline),
 * for items above zero, so that growth below the minimum adds up until it reaches it; and how many
 * polls in a row an item was not seen, so that deleted items are forgotten while an item that
 * merely moved between pages during one read is not.
 */
interface CountsState extends IDataObject {
	counts: Record<string, number>;
	unseen: Record<string, number>;
}

const FORGET_AFTER_UNSEEN_POLLS = 2;

function countsEvent<T extends { id: number }>(
	readAll: (client: LinkShortClient, parameters: EventParameters) => Promise<T[]>,
	countOf: (item: T) => number,
	describe: (item: T, previous: number, now: number, minimum: number) => IDataObject,
): PollEvent<CountsState> {
	return {
		isState: (value): value is CountsState => isRecord(value) && isCountMap(value.counts) && isCountMap(value.unseen),

		async baseline(client, parameters) {
			const items = await readAll(client, parameters);
			return { counts: Object.fromEntries(items.filter((item) => countOf(item) > 0).map((item) => [String(item.id), countOf(item)])), unseen: {} };
		},

		async poll(client, state, parameters) {
			const minimum = Math.max(1, parameters.minimumNew);
			const items = await readAll(client, parameters);
			const counts: Record<string, number> = {};
			const grown: IDataObject[] = [];
			for (const item of items) {
				const id = String(item.id);
				const previous = state.counts[id] ?? 0;
				const count = countOf(item);
				if (count - previous >= minimum) {
					grown.push(describe(item, previous, count, minimum));
					counts[id] = count;
				} else if (count < previous) {
					counts[id] = count; // the count was reset: growth counts from here
				} else if (previous > 0) {
					counts[id] = previous;
				}
			}
			const unseen: Record<string, number> = {};
			for (const [id, previous] of Object.entries(state.counts)) {
				if (id in counts || items.some((item) => String(item.id) === id)) continue;
				const misses = (state.unseen[id] ?? 0) + 1;
				if (misses < FORGET_AFTER_UNSEEN_POLLS) {
					counts[id] = previous;
					unseen[id] = misses;
				}
			}
			for (const id of Object.keys(counts)) if (counts[id] === 0) delete counts[id];
			return { items: grown, state: { counts, unseen } };
		},

		async sample(client, parameters) {
			const items = await readAll(client, parameters);
			const top = [...items].sort((a, b) => countOf(b) - countOf(a))[0];
			if (!top) return [];
			// A sample as the event emits it: the latest growth of the most active item.
			const growth = Math.max(1, parameters.minimumNew);
			const count = Math.max(countOf(top), growth);
			return [describe(top, count - growth, count, growth)];
		},
	};
}

/** Links with at least one click, most clicked first; links at zero are not read. */
async function readClickedLinks(client: LinkShortClient, parameters: EventParameters): Promise<Link[]> {
	return (await readAtOrAbove(client, 1)).filter(watched(parameters));
}

async function readAllQrCodes(client: LinkShortClient): Promise<QrCode[]> {
	return await client.qrCodes.list({ limit: QR_PAGE }).toArray();
}

export const newLinkClicks = countsEvent(readClickedLinks, (link) => link.clicks, (link, previous, now, minimum) => ({
	...link,
	previousClicks: previous,
	clicks: now,
	newClicks: now - previous,
	minimumNewClicks: minimum,
	summary: `${link.shorturl} got ${now - previous} new click${now - previous === 1 ? '' : 's'} (${now} in all) -> ${link.longurl}`,
}));

export const newQrScans = countsEvent(readAllQrCodes, (qr) => qr.scans, (qr, previous, now, minimum) => ({
	...qr,
	previousScans: previous,
	scans: now,
	newScans: now - previous,
	minimumNewScans: minimum,
	summary: `QR code "${qr.name}" got ${now - previous} new scan${now - previous === 1 ? '' : 's'} (${now} in all) -> ${qr.link}`,
}));

export const EVENTS = { newLink, newQrCode, linkClickThreshold, newLinkClicks, newQrScans } as const;
export type EventName = keyof typeof EVENTS;

/** What each event is called where a person sees it (the node's subtitle, the node creator). */
export const EVENT_NAMES: Record<EventName, string> = {
	newLink: 'New Link',
	newQrCode: 'New QR Code',
	linkClickThreshold: 'Link Reached Click Threshold',
	newLinkClicks: 'Link Received Clicks',
	newQrScans: 'QR Code Scanned',
};

