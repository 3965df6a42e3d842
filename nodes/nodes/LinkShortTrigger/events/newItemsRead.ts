import { LARGE_PAGE_SIZE, PagePromise } from '@linkshort/client/core';
import type { EventParameters } from './event';
import type { Floor, NewItemsState, PendingRead } from './newItemsState';
import { STOPPED, unlessStopped, type PageReader } from './pageReader';
import { SCAN_PAGES_PER_POLL } from './scan';
import { readSplitRuns, type Answered, type BrokenRun } from './ties';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** How far back a server's clock may step (the end of daylight saving time), with a margin. */
const CLOCK_STEP_MS = HOUR + 5 * MINUTE;
/** How long after the newest item appeared a step back could still hide items created after it. */
const HIDDEN_WINDOW_MS = 2 * CLOCK_STEP_MS;
/** How often a deep read looks below the top for items a step back hid, while that can happen. */
const SWEEP_EVERY_MS = HOUR;

export interface Dated {
	id: number;
	date: string | null;
}

export const dateOf = (item: Dated) => item.date ?? '';

/** `date` (`YYYY-MM-DD[ HH:MM:SS]`, the server's local time) moved back by `ms`, in the same format. */
function dateBefore(date: string, ms: number): string {
	const match = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?/.exec(date);
	if (!match) return '';
	const [, y, mo, d, h = '0', mi = '0', s = '0'] = match;
	const moved = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) - ms);
	return moved.toISOString().slice(0, 19).replace('T', ' ');
}

const earlier = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : a < b ? a : b);

export function newestDate(items: Dated[], atLeast: string | null): string | null {
	return items.reduce<string | null>((newest, item) => (item.date !== null && (newest === null || item.date > newest) ? item.date : newest), atLeast);
}

/** How an event lists its items newest first: one page at a size, or large ones; `pageSize` is the usual size. */
export interface ListOf<T> {
	read: PageReader<T>;
	pageSize: number;
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
	/** Where the long run being read (PendingRead.run), else the run of the newest date, begins and ends, when these pages showed it. */
	runEdges: { top?: number; bottom?: number };
}

/** Where the run of items dated `date` begins (an item newer than it, or the top, above) and ends (an item older, or the end of the list, below), as far as `answers` show. */
function runEdgesIn(answers: Array<Answered<Dated>>, date: string): { top?: number; bottom?: number } {
	const dateAt = new Map<number, string>();
	const edges: { top?: number; bottom?: number } = {};
	for (const { start, items, endsList } of answers) {
		items.forEach((item, index) => dateAt.set(start + index, dateOf(item)));
		if (endsList && items.length > 0 && dateOf(items[items.length - 1]!) === date) edges.bottom = start + items.length;
	}
	for (const [at, itemDate] of dateAt) {
		const above = at === 0 ? null : dateAt.get(at - 1);
		if (itemDate === date && (above === null || (above !== undefined && above > date))) edges.top = at;
		if (itemDate < date && above === date) edges.bottom = at;
	}
	return edges;
}

/**
 * The next page to read after one that started at `start` and held `items`: it holds the run of
 * equal dates the page ended with and the item before it, so that the run is read whole in one
 * answer (servers give items of one second in no fixed order; see ties.ts), or, when one run fills
 * the page, it holds the page's end. Pages are numbered from 1 at a size, so it starts at a
 * multiple of its size; of the sizes up to `cap`, the one whose page reaches furthest, even when it
 * reads part of this page again: after a first page of 100, a page of 1,000 from the top reaches
 * further than any page that starts at 100.
 */
function nextWindow(start: number, items: Dated[], cap: number): { offset: number; size: number } {
	const end = start + items.length;
	const lastDate = dateOf(items[items.length - 1]!);
	let runStart = items.length - 1;
	while (runStart > 0 && dateOf(items[runStart - 1]!) === lastDate) runStart -= 1;
	// The item before the run is read again too, so that the answer shows where the run begins.
	const from = runStart > 0 ? start + runStart - 1 : end;
	let best = { offset: end, size: 1 };
	for (let size = Math.max(1, cap); size > end - from; size -= 1) {
		const offset = Math.floor(from / size) * size;
		if (offset + size > end && offset + size > best.offset + best.size) best = { offset, size };
	}
	return best;
}

export const below = (item: Dated, floor: Floor | null) => floor !== null && (dateOf(item) < floor.date || (floor.inclusive && dateOf(item) === floor.date));

/**
 * Reads newest-first pages from where `pending` stands (or from the top), as deep as `state`
 * requires (see NewItemsState), at most `SCAN_PAGES_PER_POLL` requests. A fresh shallow read asks
 * for a page of the usual size first (a quiet poll reads only that), and for large pages from then
 * on; others ask large pages from the start. A spent rate limit ends the share where it is.
 */
export async function readShare<T extends Dated>(
	list: ListOf<T>,
	state: NewItemsState,
	pending: PendingRead | null,
	parameters: EventParameters,
	startedAt: number,
): Promise<Share<T>> {
	const known = new Set(state.known);
	const isNew = (item: T) => item.id > state.floorId && !known.has(item.id);
	const fresh = pending === null;
	const longRunDate = pending?.run?.long ? pending.run.date : null;
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
	let cap = pending?.cap ?? state.cap ?? LARGE_PAGE_SIZE;
	let ask: number | 'large' = size > 0 ? size : fresh && !deep ? list.pageSize : 'large';
	const seen = new Map<number, T>();
	const answers: Array<Answered<T>> = [];
	let reachedEnd = startOffset;
	let requests = 0;
	let grounded = false;
	let stoppedAtFloor = false;
	let pages: number | undefined;
	let last: T | undefined;

	// A long run is counted by polls that see both its ends: the requests to look at an end the pages may not reach.
	const run = longRunDate === null ? null : pending!.run!;
	const endReads = [run?.top != null && run.top < startOffset ? run.top : null, run?.bottom ?? null].filter((place): place is number => place !== null);
	while (requests < SCAN_PAGES_PER_POLL - endReads.length && !(requests > 0 && parameters.timeUp())) {
		const page = ask === 'large' ? 1 : Math.floor(offset / ask) + 1;
		// A spent rate limit before any page fails the poll as a whole (its state stays); after, the share ends where it is.
		const answer = requests === 0 ? await list.read(page, ask) : await unlessStopped(list.read(page, ask));
		if (answer === STOPPED) break;
		requests += 1;
		const granted = PagePromise.sizeGiven(answer);
		if (granted < (ask === 'large' ? LARGE_PAGE_SIZE : ask)) cap = Math.min(cap, granted);
		// A server that now gives larger pages than the read remembered.
		if (ask === 'large' && granted > cap) cap = granted;
		size = granted;
		for (const item of answer.items) if (!seen.has(item.id)) seen.set(item.id, item);
		answers.push({ start: (page - 1) * granted, items: answer.items, endsList: PagePromise.isLastPage(answer, page) });
		if (page === 1) pages = Math.ceil((answer.maxpage * granted) / list.pageSize);
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

	const endAnswers: Array<Answered<T>> = [];
	for (const place of endReads) {
		if (longRunDate === null || requests === 0 || parameters.timeUp()) break;
		const shown = runEdgesIn([...answers, ...endAnswers], longRunDate);
		if ((place === run!.bottom ? shown.bottom : shown.top) !== undefined) continue;
		// The page holding the end's place and the one either side, if the run is still there.
		const window = PagePromise.pageHolding(Math.max(0, place - 1), place, cap);
		const answer = window ? await unlessStopped(list.read(window.page, window.limit)) : STOPPED;
		if (answer === STOPPED) break;
		requests += 1;
		endAnswers.push({ start: (answer.currentpage - 1) * answer.perpage, items: answer.items, endsList: PagePromise.isLastPage(answer, window!.page) });
		for (const item of answer.items) if (dateOf(item) === longRunDate && !seen.has(item.id)) seen.set(item.id, item);
	}

	let broken: BrokenRun | undefined;
	if (grounded) {
		// Runs of equal dates that pages split are read again whole (see ties.ts): those below the
		// floor are not this read's, and the newest of a read that does not start at the top is the next cycle's.
		const top = newestDate([...seen.values()], null);
		// A run longer than a poll reads is counted, not read whole (see PendingRead.run).
		const skip = (date: string) => below({ id: 0, date }, floor) || (startOffset > 0 && date === top) || date === longRunDate;
		const runs = await readSplitRuns(list.read, answers, cap, SCAN_PAGES_PER_POLL - requests, skip, pending?.run ?? null);
		for (const item of runs.items) if (!seen.has(item.id)) seen.set(item.id, item);
		// The oldest run not read whole: the next cycle reads down to it again.
		broken = runs.broken.reduce<BrokenRun | undefined>((oldest, run) => (oldest === undefined || run.date < oldest.date ? run : oldest), undefined);
	}

	const items = [...seen.values()];
	const newest = newestDate(items, null);
	return {
		runEdges: longRunDate !== null ? runEdgesIn([...answers, ...endAnswers], longRunDate) : newest === null ? {} : runEdgesIn(answers, newest),
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
