import { LARGE_PAGE_SIZE, PagePromise, type Page } from '@linkshort/client/core';
import type { EventParameters } from '../event';
import type { Floor, NewItemsState, PendingRead } from './newItemsState';
import { STOPPED, unlessStopped, type PageReader } from './pageReader';
import { SCAN_PAGES_PER_POLL } from './scan';
import { readSplitRuns, type Answered, type BrokenRun } from './splitRuns';
import { farthestFloor, readBand, type Band } from './floorBand';
import { nextWindow, runEdgesIn } from './windows';
import { CLOCK_STEP_MS, HIDDEN_WINDOW_MS, SWEEP_EVERY_MS, dateBefore, dateOf, earlier, type Dated } from './clockSteps';

export { dateOf, type Dated } from './clockSteps';

export function newestDate(items: Dated[], atLeast: string | null): string | null {
	return items.reduce<string | null>((newest, item) => (item.date !== null && (newest === null || item.date > newest) ? item.date : newest), atLeast);
}

/** How an event lists its items newest first: one page at a size, or large ones; `pageSize` is the usual size. */
export interface ListOf<T> {
	read: PageReader<T>;
	pageSize: number;
}

/** One poll's share of a read: the consecutive pages it read, and whether they reach the floor. */
export interface Share<T> {
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
	/** The share is a band read up from the floor that a page above could not continue (floorBand.ts). */
	stalled: boolean;
	/** The first page, when the share is a band read up from the floor after it (floorBand.ts): the next cycles' items. */
	above: T[];
	/** Where the long run being read (PendingRead.run), else the run of the newest date, begins and ends, when these pages (and the first page) showed it. */
	runEdges: { top?: number; bottom?: number };
	/** The read goes down to the end of the list (PendingRead.whole). */
	whole: boolean;
	/** A new item dated below this shows a step back longer than a deep read looks (see stepBack.ts); null before anything is known. */
	stepFloor: string | null;
	/** The fewest items created since the last poll, as the growth of the first page's count showed (0 when it did not grow, or was read at another size). */
	created: number;
}

export const below = (item: Dated, floor: Floor | null) => floor !== null && (dateOf(item) < floor.date || (floor.inclusive && dateOf(item) === floor.date));

/**
 * Reads newest-first pages from where `pending` stands (or from the top), as deep as `state`
 * requires (see NewItemsState), at most `SCAN_PAGES_PER_POLL` requests. A fresh shallow read asks
 * for a page of the usual size first (a quiet poll reads only that), and for large pages from then
 * on; others ask large pages from the start. When that first page shows more new than a poll
 * reads, and a climbing cycle always, the share is a band read up from the floor (floorBand.ts).
 * A spent rate limit ends the share where it is.
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
	let deep = pending?.deep ?? (startedAt - state.deepReadAt >= SWEEP_EVERY_MS && state.deepReadAt < Math.max(state.topSeenAt, state.frontSeenAt ?? 0) + HIDDEN_WINDOW_MS);
	let whole = pending?.whole === true;
	// Below the server's clock where it stepped back further than an hour (NewItemsState.front), else below the top.
	const clockTop = earlier(earlier(state.deepTop, state.top), state.front ?? null);
	const stepFloor = clockTop === null ? null : dateBefore(clockTop, CLOCK_STEP_MS);
	const shallowFloor = (): Floor | null => (state.top === null ? null : { date: state.top, inclusive: state.topSettled });
	const deepFloor = (newest: string | null): Floor | null => {
		if (whole) return null;
		const from = pending?.baseline ? newest : clockTop;
		const date = from === null ? null : dateBefore(from, CLOCK_STEP_MS);
		return date === null ? null : { date, inclusive: false };
	};
	let floor: Floor | null = pending && pending.offset > 0 ? pending.floor : pending?.floor ?? (deep ? null : shallowFloor());
	const floorFixed = pending !== null && (pending.offset > 0 || pending.floor !== null);

	// A cycle that goes on reads again the last page it read: it then starts below the floor only if more than a page was deleted above it.
	let size = pending && pending.offset > 0 ? pending.size : 0;
	let offset = pending && pending.offset > 0 ? Math.max(0, pending.offset - size) : 0;
	let startOffset = offset;
	let descending = pending !== null && pending.offset > 0 && !pending.climbing;
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
	let created = 0;
	let last: T | undefined;
	/** Reads deep from here on: an hour below the top, or to the end of the list when a new item already shows below that hour. */
	const goDeep = (alsoSeen: T[] = []) => {
		deep = true;
		floor = deepFloor(newestDate([...seen.values()], null));
		if (stepFloor !== null && [...seen.values(), ...alsoSeen].some((item) => isNew(item) && dateOf(item) < stepFloor)) {
			whole = true;
			floor = null;
		}
	};

	// A long run is counted by polls that see both its ends: the requests to look at an end the pages may not reach.
	const run = longRunDate === null ? null : pending!.run!;
	const counting = run !== null && (run.places == null || run.recount === true);
	const endReads = counting ? [run.top != null && run.top < startOffset ? run.top : null, run.bottom ?? null].filter((place): place is number => place !== null) : [];
	let firstPage: Answered<T> | undefined;
	const isBelowFloor = (item: T) => below(item, floor);
	let fromBand = false;
	let stalled = false;
	/** Takes `band` as the share's pages; true when it reaches the floor, else the share goes on down from its lowest page. */
	const takeBand = (band: Band<T>) => {
		requests += band.requests;
		fromBand = band.answers.length > 0;
		stalled = band.stalled;
		if (band.firstPage) pages = pagesOf(band.firstPage);
		const lowest = band.answers[band.answers.length - 1];
		if (lowest === undefined) return false;
		answers.splice(0, answers.length, ...band.answers);
		seen.clear();
		for (const { items } of answers) for (const item of items) if (!seen.has(item.id)) seen.set(item.id, item);
		startOffset = answers[0]!.start;
		reachedEnd = lowest.start + lowest.items.length;
		last = lowest.items[lowest.items.length - 1];
		size = cap;
		grounded = stoppedAtFloor = band.grounded;
		// Else the floor lies further down (older items were deleted): whole pages down to it from here.
		descending = true;
		offset = reachedEnd;
		ask = cap;
		return grounded;
	};
	if (pending?.from != null && pending.upward !== false) {
		// A climbing cycle reads up from the floor (see floorBand.ts).
		const band = await readBand(list.read, pending.from, cap, SCAN_PAGES_PER_POLL - endReads.length, isBelowFloor, parameters.timeUp, 0);
		if (!takeBand(band) && band.answers.length === 0 && band.requests > 0) ask = cap;
	}
	while (!grounded && requests < SCAN_PAGES_PER_POLL - endReads.length && !(requests > 0 && parameters.timeUp())) {
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
		if (page === 1) pages = pagesOf(answer);
		// The page count grew: at least this many items were created since (deletions only hide more).
		if (page === 1 && granted === list.pageSize && state.pages > 0 && pages! > state.pages) created = (pages! - state.pages - 1) * list.pageSize + 1;
		const pageLast = answer.items[answer.items.length - 1];
		if (!floorFixed && floor === null && deep) floor = deepFloor(newestDate([...seen.values()], null));
		if (!floorFixed && !deep && stepSuspected()) goDeep();
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
		const farthest = fresh && !deep && page === 1 && requests === 1 && floor !== null ? farthestFloor(answer, state.pages, list.pageSize, cap, SCAN_PAGES_PER_POLL - requests) : undefined;
		if (farthest !== undefined) {
			// More than a poll reads is new: the share is the band up from the floor instead (see floorBand.ts); the first page is the next cycles'.
			const band = await readBand(list.read, farthest, cap, SCAN_PAGES_PER_POLL - requests, isBelowFloor, parameters.timeUp, answer.items.length);
			const top = band.answers[0]?.items[0];
			// A new item dated before the newest known: the clock stepped back, and the read goes deep from the first page.
			const stepped = band.answers.some(({ items }) => items.some((item) => isNew(item) && state.top !== null && dateOf(item) < state.top));
			if (stepped || (top !== undefined && below(top, floor))) {
				// Or the band did not get above the floor (a page above it could not show that nothing moved): down from the first page as usual.
				requests += band.requests;
				if (stepped) goDeep(band.answers.flatMap(({ items }) => items));
			} else {
				firstPage = band.answers.length > 0 ? answers[0] : undefined;
				if (takeBand(band)) break;
				if (band.answers.length > 0) continue;
			}
		}
		// A counted long run whose ids have all been seen needs no more pages.
		if (run?.places != null && !counting && new Set([...run.ids, ...[...seen.values()].filter((item) => dateOf(item) === longRunDate).map((item) => item.id)]).size >= run.places) break;
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

	function pagesOf(first: Page<T>) {
		return Math.ceil((first.maxpage * PagePromise.sizeGiven(first)) / list.pageSize);
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
		endAnswers.push({ start: (answer.currentpage - 1) * PagePromise.sizeGiven(answer), items: answer.items, endsList: PagePromise.isLastPage(answer, window!.page) });
		for (const item of answer.items) if (dateOf(item) === longRunDate && !seen.has(item.id)) seen.set(item.id, item);
	}

	let broken: BrokenRun | undefined;
	if (grounded) {
		// Runs of equal dates that pages split are read again whole (see splitRuns.ts): those below the
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
		whole,
		stepFloor,
		created,
		runEdges: longRunDate !== null ? runEdgesIn([...answers, ...endAnswers], longRunDate) : newest === null ? {} : runEdgesIn(firstPage ? [firstPage, ...answers] : answers, newest),
		above: firstPage?.items ?? [],
		stalled,
		items,
		grounded,
		broken,
		cap,
		start: startOffset,
		// A band that stopped early (a page above could not show that nothing moved) says little of how far a climb gets: three quarters of a page a request, then.
		advance: Math.max(requests > 0 ? Math.max(1, (reachedEnd - startOffset) / requests) : 1, fromBand ? (cap * 3) / 4 : 0),
		fromTop: startOffset === 0,
		deep,
		floor,
		offset,
		size,
		pages,
		newestBlockRead: !stoppedAtFloor || (last !== undefined && newest !== null && dateOf(last) < newest),
	};
}
