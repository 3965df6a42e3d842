import type { IDataObject } from 'n8n-workflow';
import type { LinkShortClient, PagePromise } from '@linkshort/client/core';
import type { PollEvent } from './event';
import { LINK_PAGE, QR_PAGE } from './reading';
import { NO_WAIT } from './tracking';
import { isDateOrNull, isId, isIdList, isRecord, isTime } from './storedShapes';

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
export interface NewItemsState extends IDataObject {
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
async function readNewest<T extends Dated>(list: ListOf<T>, state: NewItemsState | undefined, startedAt: number): Promise<Reading<T>> {
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

	// A read that starts deep asks for large pages (see the client's page-size.ts): it reads down an
	// hour below the newest date, which after a bulk import is many pages of the usual size.
	for await (const page of list.read(deep).pages()) {
		for (const item of page.items) if (!seen.has(item.id)) seen.set(item.id, item);
		// Counted in pages of the usual size whatever size this read got (rounded up), so that reads of either size compare.
		if (first) pageCount = Math.ceil((page.maxpage * Math.max(1, page.perpage)) / list.pageSize);
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

/** How an event lists its items newest first: in pages of `pageSize`, or large ones for a deep read. */
interface ListOf<T> {
	read: (large: boolean) => PagePromise<T>;
	pageSize: number;
}

function newItemsEvent<T extends Dated>(listOf: (client: LinkShortClient) => ListOf<T>, describe: (item: T) => IDataObject): PollEvent<NewItemsState> {
	return {
		isState: isNewItemsState,

		async baseline(client, { now }) {
			const startedAt = now();
			const reading = await readNewest(listOf(client), undefined, startedAt);
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
			const reading = await readNewest(listOf(client), state, startedAt);
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
			const first = await listOf(client).read(false);
			return first.items.slice(0, 1).map(describe);
		},
	};
}

export const newLink = newItemsEvent(
	(client) => ({ read: (large) => client.links.list({ order: 'date', limit: large ? 'large' : LINK_PAGE }, NO_WAIT), pageSize: LINK_PAGE }),
	(link): IDataObject => ({ ...link, summary: `New short link ${link.shorturl} -> ${link.longurl}` }),
);
export const newQrCode = newItemsEvent(
	(client) => ({ read: (large) => client.qrCodes.list({ limit: large ? 'large' : QR_PAGE }, NO_WAIT), pageSize: QR_PAGE }),
	(qr): IDataObject => ({ ...qr, summary: `New QR code "${qr.name}" -> ${qr.link}` }),
);
