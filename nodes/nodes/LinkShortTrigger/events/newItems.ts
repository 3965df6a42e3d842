import type { IDataObject } from 'n8n-workflow';
import { LARGE_PAGE_SIZE, PagePromise, type LinkShortClient } from '@linkshort/client/core';
import type { EventParameters, PollEvent } from './event';
import { LINK_PAGE, linkPages, QR_PAGE, qrPages } from './reading';
import { RATE_LIMITED, SCAN_PAGES_PER_POLL, unlessRateLimited, type PageReader } from './scan';
import { isDateOrNull, isId, isIdList, isRecord, isTime } from './storedShapes';
import { readSplitRuns, type Answered, type BrokenRun } from './ties';

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
	/** A read that goes on over polls (see PendingRead); null between reads. */
	reading: PendingRead | null;
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

/** Where a read stops: at the first item dated below `date` (or at it, when `inclusive`); null: the end of the list. */
export interface Floor extends IDataObject {
	date: string;
	inclusive: boolean;
}

/**
 * A read of the newest-first list longer than one poll's requests (a burst of new items, a deep
 * read on a server that caps its pages). It goes on over polls in cycles, each down to a floor:
 * - the first descends from the top; a poll that cannot reach the floor only notes how far down it
 *   got (`offset`, at `size` items a page) and emits nothing (a baseline ends when it gets there);
 * - the poll that reaches the floor emits the new items of the pages it read itself (consecutive
 *   pages, each starting at the run of equal dates the one before ended with), except those of
 *   their newest second, and the next cycle climbs: it starts a poll's worth of pages higher and
 *   reads down to that second (`floor`, exclusive), so that the read emits the oldest part of a
 *   burst first and goes up a poll at a time;
 * - a cycle that starts at the top and reaches its floor in one poll ends the read.
 * Items created above the place while it reads are read by the cycles after; items deleted above it
 * only move the rest up (a poll that then starts below its floor starts the cycle again at the top).
 */
export interface PendingRead extends IDataObject {
	floor: Floor | null;
	/** The next offset (items from the top) to read in this cycle; 0: the cycle starts at the top. */
	offset: number;
	/** The page size the cycle reads at; 0 before it knows one. */
	size: number;
	deep: boolean;
	/** The read is the baseline: it emits nothing, and everything it reads is old. */
	baseline: boolean;
	/** When the read's first poll started (a deep read's `deepReadAt`). */
	startedAt: number;
	/** The largest id the read has emitted or taken as old (the floor of a deep read once it ends). */
	maxId: number;
	/** The cycle climbs (it starts above the part last emitted, to reach it in this poll); else it descends to find the bottom. */
	climbing: boolean;
	/** The ids seen so far of a run of equal dates longer than any page, which the read goes back to until it has seen it all. */
	run: { date: string; ids: number[] } | null;
	/** The most items a page of this server holds, as far as its answers showed (1,000 until one gave less than asked). */
	cap: number;
}

/** One poll's share of a read: the consecutive pages it read, and whether they reach the floor. */
interface Share<T> {
	items: T[];
	/** The pages reach the floor (or the end of the list). */
	grounded: boolean;
	/** The oldest run of equal dates this share could not read whole. */
	broken: BrokenRun | undefined;
	/** The offset the pages start at (0: the top of the list). */
	start: number;
	/** How many items further down each request got, on average. */
	advance: number;
	/** The most items a page of this server holds, as far as its answers showed. */
	cap: number;
	fromTop: boolean;
	deep: boolean;
	floor: Floor | null;
	/** The next offset and page size, for a share that did not reach the floor. */
	offset: number;
	size: number;
	/** The list's pages at `pageSize` items, when this poll read the first page. */
	pages: number | undefined;
	/** The read went past the block of its newest date (or to the end of the list). */
	newestBlockRead: boolean;
}

/**
 * The next page to read after one that started at `start` and held `items`: it starts at or
 * just above the run of equal dates the page ended with, so that the run is read whole in one
 * answer (servers give items of one second in no fixed order; see ties.ts), and it is as large
 * as the server gives (up to `cap`), so that a long read asks ever larger pages. Pages are
 * numbered from 1 at a size, so it starts at a multiple of its size; when no size lets it start
 * inside the page (its last run began the page), it starts where the page ended. Of the sizes
 * that fit, the one whose page reaches furthest.
 */
function nextWindow(start: number, items: Dated[], cap: number): { offset: number; size: number } {
	const end = start + items.length;
	const lastDate = dateOf(items[items.length - 1]!);
	let runStart = items.length - 1;
	while (runStart > 0 && dateOf(items[runStart - 1]!) === lastDate) runStart -= 1;
	if (runStart > 0) {
		// The item before the run is read again too, so that the answer shows where the run begins.
		const before = start + runStart - 1;
		let best: { offset: number; size: number } | undefined;
		for (let size = cap; size > end - before; size -= 1) {
			const offset = Math.floor(before / size) * size;
			if (offset > start && offset + size > end && (best === undefined || offset + size > best.offset + best.size)) best = { offset, size };
		}
		if (best) return best;
	}
	for (let size = Math.min(end, cap); size > 1; size -= 1) if (end % size === 0) return { offset: end, size };
	return { offset: end, size: 1 };
}

const below = (item: Dated, floor: Floor | null) => floor !== null && (dateOf(item) < floor.date || (floor.inclusive && dateOf(item) === floor.date));

/**
 * Reads newest-first pages from where `pending` stands (or from the top), as deep as `state`
 * requires (see NewItemsState), at most `SCAN_PAGES_PER_POLL` requests. A fresh shallow read asks
 * for a page of the usual size first (a quiet poll reads only that), and for large pages from then
 * on; others ask large pages from the start. A spent rate limit ends the share where it is.
 */
async function readShare<T extends Dated>(
	list: ListOf<T>,
	state: NewItemsState,
	pending: PendingRead | null,
	parameters: EventParameters,
	startedAt: number,
): Promise<Share<T>> {
	const known = new Set(state.known);
	const isNew = (item: T) => item.id > state.floorId && !known.has(item.id);
	const fresh = pending === null;
	let deep = pending?.deep ?? (startedAt - state.deepReadAt >= SWEEP_EVERY_MS && state.deepReadAt < state.topSeenAt + HIDDEN_WINDOW_MS);
	const shallowFloor = (): Floor | null => (state.top === null ? null : { date: state.top, inclusive: state.topSettled });
	const deepFloor = (newest: string | null): Floor | null => {
		const from = pending?.baseline ? newest : earlier(state.deepTop, state.top);
		const date = from === null ? null : dateBefore(from, CLOCK_STEP_MS);
		return date === null ? null : { date, inclusive: false };
	};
	let floor: Floor | null = pending && pending.offset > 0 ? pending.floor : pending?.floor ?? (deep ? null : shallowFloor());
	const floorFixed = pending !== null && (pending.offset > 0 || pending.floor !== null);

	// A cycle that goes on reads again the last page it read: it then starts below the floor only if more than a page was deleted above it.
	let size = pending && pending.offset > 0 ? pending.size : 0;
	let offset = pending && pending.offset > 0 ? Math.max(0, pending.offset - size) : 0;
	const startOffset = offset;
	const descending = pending !== null && pending.offset > 0 && !pending.climbing;
	/** The most a page of this server holds, once an answer gave less than asked. */
	let cap = pending?.cap ?? LARGE_PAGE_SIZE;
	let ask: number | 'large' = size > 0 ? size : fresh && !deep ? list.pageSize : 'large';
	const seen = new Map<number, T>();
	const answers: Array<Answered<T>> = [];
	let reachedEnd = startOffset;
	let requests = 0;
	let grounded = false;
	let stoppedAtFloor = false;
	let pages: number | undefined;
	let last: T | undefined;

	while (requests < SCAN_PAGES_PER_POLL && !(requests > 0 && parameters.timeUp())) {
		const page = ask === 'large' ? 1 : Math.floor(offset / ask) + 1;
		// A spent rate limit before any page fails the poll as a whole (its state stays); after, the share ends where it is.
		const answer = requests === 0 ? await list.read(page, ask) : await unlessRateLimited(list.read(page, ask));
		if (answer === RATE_LIMITED) break;
		requests += 1;
		const granted = answer.perpage > 0 ? answer.perpage : Math.max(1, answer.items.length);
		if (granted < (ask === 'large' ? LARGE_PAGE_SIZE : ask)) cap = Math.min(cap, granted);
		size = granted;
		for (const item of answer.items) if (!seen.has(item.id)) seen.set(item.id, item);
		answers.push({ start: (page - 1) * granted, items: answer.items, endsList: PagePromise.isLastPage(answer, page) });
		if (page === 1) pages = Math.ceil((answer.maxpage * Math.max(1, answer.perpage)) / list.pageSize);
		const pageLast = answer.items[answer.items.length - 1];
		if (!floorFixed && floor === null && deep) floor = deepFloor(newestDate([...seen.values()], null));
		if (!floorFixed && !deep && stepSuspected()) {
			deep = true;
			floor = deepFloor(newestDate([...seen.values()], null));
		}
		if (pageLast === undefined || PagePromise.isLastPage(answer, page)) {
			grounded = true;
			if (pageLast !== undefined) last = pageLast;
			break;
		}
		last = pageLast;
		if (below(pageLast, floor)) {
			grounded = true;
			stoppedAtFloor = true;
			break;
		}
		reachedEnd = Math.max(reachedEnd, (page - 1) * granted + answer.items.length);
		if (descending) {
			// Finding the bottom emits nothing, so runs split here do not matter: whole pages, each further down.
			offset = (page - 1) * granted + answer.items.length;
			ask = granted;
		} else {
			const next = nextWindow((page - 1) * granted, answer.items, cap);
			offset = next.offset;
			ask = next.size;
		}
	}

	function stepSuspected() {
		const items = [...seen.values()].filter(isNew);
		return items.some((item) => state.top !== null && dateOf(item) < state.top) || (pages !== undefined && pages > state.pages && items.length === 0);
	}

	let broken: BrokenRun | undefined;
	if (grounded) {
		// Runs of equal dates that pages split are read again whole (see ties.ts): those below the
		// floor are not this read's, and the newest of a read that does not start at the top is the next cycle's.
		const top = newestDate([...seen.values()], null);
		const skip = (date: string) => below({ id: 0, date }, floor) || (startOffset > 0 && date === top);
		const runs = await readSplitRuns(list.read, answers, cap, SCAN_PAGES_PER_POLL - requests, skip, pending?.run ?? null);
		for (const item of runs.items) if (!seen.has(item.id)) seen.set(item.id, item);
		// The oldest run not read whole: the next cycle reads down to it again.
		broken = runs.broken.reduce<BrokenRun | undefined>((oldest, run) => (oldest === undefined || run.date < oldest.date ? run : oldest), undefined);
	}

	const items = [...seen.values()];
	const newest = newestDate(items, null);
	return {
		items,
		grounded,
		broken,
		cap,
		start: startOffset,
		advance: requests > 0 ? Math.max(1, (reachedEnd - startOffset) / requests) : 1,
		fromTop: startOffset === 0,
		deep,
		floor,
		offset,
		size,
		pages,
		newestBlockRead: !stoppedAtFloor || (last !== undefined && newest !== null && dateOf(last) < newest),
	};
}

/**
 * A state kept by version 0.1.0, which bounded by dates: `known` mapped the ids dated at or after
 * `boundary` to their dates. Everything it emitted has an id at most the largest of those; the
 * first poll after the upgrade reads deep. A state kept before reads were spread over polls has no
 * `reading`.
 */
function upgraded(state: IDataObject): NewItemsState {
	if (typeof state.floorId === 'number') return { ...(state as NewItemsState), reading: (state.reading as PendingRead | null | undefined) ?? null };
	const known = state.known !== null && typeof state.known === 'object' ? Object.keys(state.known).map(Number).filter(Number.isInteger) : [];
	const top = typeof state.previousNewest === 'string' ? state.previousNewest : null;
	return { floorId: Math.max(0, ...known), known: [], top, topSeenAt: 0, topSettled: false, pages: 0, deepTop: top, deepReadAt: 0, reading: null };
}

const isFloor = (value: unknown): value is Floor => isRecord(value) && typeof value.date === 'string' && typeof value.inclusive === 'boolean';

const isPendingRead = (value: unknown): value is PendingRead =>
	isRecord(value) &&
	(value.floor === null || isFloor(value.floor)) &&
	isId(value.offset) &&
	isId(value.size) &&
	typeof value.deep === 'boolean' &&
	typeof value.baseline === 'boolean' &&
	isTime(value.startedAt) &&
	isId(value.maxId) &&
	isId(value.cap) &&
	(value.cap as number) > 0 &&
	typeof value.climbing === 'boolean' &&
	(value.run === null || (isRecord(value.run) && typeof value.run.date === 'string' && isIdList(value.run.ids)));

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
		isTime(value.deepReadAt) &&
		(value.reading === undefined || value.reading === null || isPendingRead(value.reading))
	);
}

/** How an event lists its items newest first: one page at a size, or large ones; `pageSize` is the usual size. */
interface ListOf<T> {
	read: PageReader<T>;
	pageSize: number;
}

const maxIdOf = (items: Dated[], atLeast: number) => items.reduce((max, item) => Math.max(max, item.id), atLeast);

/**
 * One poll of a new-items event: the next share of the read (see PendingRead). A share that ends
 * the read sets the state as a whole read does; one that reaches its floor part way emits its new
 * items and starts the next cycle; one that does not reach it notes where it stopped.
 */
async function pollNewItems<T extends Dated>(list: ListOf<T>, state: NewItemsState, parameters: EventParameters): Promise<{ fresh: T[]; state: NewItemsState }> {
	const startedAt = parameters.now();
	const pending = state.reading;
	const share = await readShare(list, state, pending, parameters, startedAt);
	const baseline = pending?.baseline ?? false;
	const readStartedAt = pending?.startedAt ?? startedAt;
	const pages = share.pages ?? state.pages;
	const known = new Set(state.known);
	const isNew = (item: T) => !baseline && item.id > state.floorId && !known.has(item.id);
	const goOn = (reading: PendingRead): NewItemsState => ({ ...state, pages, reading });
	const pendingOf = (changes: Partial<PendingRead>): PendingRead => ({
		floor: share.floor,
		offset: share.offset,
		size: share.size,
		deep: share.deep,
		baseline,
		startedAt: readStartedAt,
		maxId: pending?.maxId ?? 0,
		climbing: pending?.climbing ?? false,
		run: pending?.run ?? null,
		cap: share.cap,
		...changes,
	});

	if (!share.grounded) {
		if (share.items.length === 0) return { fresh: [], state };
		if (share.fromTop && (pending === null || pending.floor === null)) {
			parameters.log(baseline ? 'the baseline is more than one poll reads; it goes on over the next polls and emits nothing' : 'more new items than one poll reads: they are read over the next polls and emitted oldest first');
		}
		// A baseline keeps the newest date and the largest id it saw on the way down (it ends at the bottom).
		if (baseline) return { fresh: [], state: { ...goOn(pendingOf({ maxId: maxIdOf(share.items, pending?.maxId ?? 0) })), top: newestDate(share.items, state.top) } };
		return { fresh: [], state: goOn(pendingOf({})) };
	}
	const first = share.items[0];
	if (!share.fromTop && first !== undefined && below(first, share.floor)) {
		// More than a page was deleted above the place: the cycle starts again from the top.
		return { fresh: [], state: goOn(pendingOf({ offset: 0, size: 0, floor: pending?.floor ?? null })) };
	}
	const maxId = maxIdOf(share.items, pending?.maxId ?? 0);
	const rangeTop = newestDate(share.items, null);
	// The next cycle reads again every item dated at or above `cutoff` (the newest date of a part
	// that did not start at the top, or a run not read whole): those wait for it, so that a second's
	// items come together and in id order. The seen part of a run longer than any page goes now.
	const cutoff = share.broken?.date ?? (share.fromTop ? null : rangeTop);
	const longRun = share.broken !== undefined && share.broken.seenIds.length > 0;
	const fresh = share.items
		.filter(isNew)
		.filter((item) => cutoff === null || dateOf(item) < cutoff || (longRun && dateOf(item) === cutoff))
		.sort((a, b) => a.id - b.id);
	for (const item of fresh) known.add(item.id);

	if (baseline) {
		// Everything down to the floor has been seen (what the descent missed was created or moved
		// while it read, and counts as there): the baseline ends, with nothing to emit.
		const top = newestDate(share.items, state.top);
		return {
			fresh: [],
			state: { floorId: maxId, known: [], top, topSeenAt: parameters.now(), topSettled: false, pages, deepTop: top, deepReadAt: readStartedAt, reading: null },
		};
	}

	if (!share.fromTop || share.broken) {
		// The oldest part of what the read has to emit. The next cycle reads down to the newest of it
		// (or to a run of equal dates not read whole), from a poll's worth of pages above it (the top
		// when that is less): the read climbs a poll at a time.
		const top = rangeTop;
		const size = Math.max(1, share.size);
		const from = share.broken ? share.broken.from : share.start;
		// Just above a run not read whole, so that the next poll has its requests for it; else a poll's worth above.
		const climb = share.broken ? 2 * size : Math.floor(share.advance * (SCAN_PAGES_PER_POLL - 2));
		const next = Math.max(0, from - climb);
		const floor = share.broken ? { date: share.broken.date, inclusive: false } : top === null ? share.floor : { date: top, inclusive: false };
		const run = share.broken && share.broken.seenIds.length > 0 ? { date: share.broken.date, ids: share.broken.seenIds } : null;
		return {
			fresh,
			state: {
				...state,
				pages,
				known: [...known],
				reading: pendingOf({ offset: next > 0 ? next + size : 0, size: next > 0 ? size : 0, floor, maxId, climbing: true, run }),
			},
		};
	}

	let { floorId, deepTop, deepReadAt } = state;
	if (share.deep || baseline) {
		// A deep read sees every item created since the last one (a baseline: every item there is).
		floorId = Math.max(floorId, maxId);
		deepTop = state.top ?? newestDate(share.items, null);
		deepReadAt = readStartedAt;
	}
	const newest = newestDate(share.items, state.top);
	const topMoved = newest !== state.top;
	return {
		fresh,
		state: {
			floorId,
			known: [...known].filter((id) => id > floorId),
			top: newest,
			// Taken after the read: the server showed items dated `newest` no later than this.
			topSeenAt: topMoved || baseline ? parameters.now() : state.topSeenAt,
			topSettled: topMoved || baseline ? false : state.topSettled || (share.newestBlockRead && startedAt - state.topSeenAt >= SETTLE_AFTER_MS),
			pages,
			deepTop: baseline ? newest : deepTop,
			deepReadAt,
			reading: null,
		},
	};
}

function newItemsEvent<T extends Dated>(listOf: (client: LinkShortClient) => ListOf<T>, describe: (item: T) => IDataObject): PollEvent<NewItemsState> {
	return {
		isState: isNewItemsState,

		async baseline(client, parameters) {
			const start: NewItemsState = {
				floorId: 0,
				known: [],
				top: null,
				topSeenAt: 0,
				topSettled: false,
				pages: 0,
				deepTop: null,
				deepReadAt: 0,
				reading: { floor: null, offset: 0, size: 0, deep: true, baseline: true, startedAt: parameters.now(), maxId: 0, climbing: false, run: null, cap: LARGE_PAGE_SIZE },
			};
			return (await pollNewItems(listOf(client), start, parameters)).state;
		},

		async poll(client, stored, parameters) {
			const { fresh, state } = await pollNewItems(listOf(client), upgraded(stored), parameters);
			return { items: fresh.map(describe), state };
		},

		async sample(client) {
			const list = listOf(client);
			const first = await list.read(1, list.pageSize);
			return first.items.slice(0, 1).map(describe);
		},
	};
}

export const newLink = newItemsEvent((client) => ({ read: linkPages(client), pageSize: LINK_PAGE }), (link): IDataObject => ({ ...link, summary: `New short link ${link.shorturl} -> ${link.longurl}` }));
export const newQrCode = newItemsEvent((client) => ({ read: qrPages(client), pageSize: QR_PAGE }), (qr): IDataObject => ({ ...qr, summary: `New QR code "${qr.name}" -> ${qr.link}` }));
