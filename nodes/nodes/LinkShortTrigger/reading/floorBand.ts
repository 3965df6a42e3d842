import { PagePromise, type Page } from '@linkshort/client/core';
import { STOPPED, unlessStopped, type PageReader } from './pageReader';
import type { Answered } from './splitRuns';

/**
 * A burst read from its bottom: the first poll of a read that finds more than a poll reads reaches
 * its floor at once, from where positions put it, and reads upward from there. The list grew by
 * what was created above the floor less what was deleted below it, so the floor lies at least
 * (items now) - (items at the last first page) places down, and, unless older items were deleted,
 * at most a page or two further. Reading upward, a deletion above only moves items up into the
 * page read next (the pages overlap more); an item created above moves them down, which the next
 * page shows by no longer reaching what the last one began with: the band then ends there.
 */

interface Dated {
	id: number;
	date: string | null;
}

const dateOf = (item: Dated) => item.date ?? '';

/**
 * The farthest place the floor can lie at without deletions, after a first page `first` of a list
 * that had `pagesBefore` pages of `pageSize` items at the last first page; undefined when a poll
 * descending at `size` items a page reaches it as soon.
 */
export function farthestFloor(first: Page<Dated>, pagesBefore: number, pageSize: number, size: number, budget: number): number | undefined {
	const held = first.items.length;
	if (pagesBefore <= 0 || held === 0 || size <= 0) return undefined;
	const farthest = first.maxpage * held - ((pagesBefore - 1) * pageSize + 1);
	return farthest - budget * size > held ? farthest : undefined;
}

/**
 * The page just above one that started at `start` and held `items`, as high as a page of at most
 * `cap` items reaches while it still holds the run of equal dates that page began with and the
 * item below that run (so that one answer holds the run whole: see splitRuns.ts, and the item below
 * shows whether anything moved). A run too long for that (no such page gets half a page higher)
 * is split instead: the page then reaches the first item of the one below, and the run is counted
 * or read again whole after (splitRuns.ts). Undefined at the top.
 */
export function windowAbove(start: number, items: Dated[], cap: number): { page: number; limit: number; bottom: number } | undefined {
	if (start === 0 || items.length === 0) return undefined;
	const topDate = dateOf(items[0]!);
	let run = 1;
	while (run < items.length && dateOf(items[run]!) === topDate) run += 1;
	const holding = run < items.length ? highestHolding(start + run, cap, start) : undefined;
	if (holding && start - (holding.page - 1) * holding.limit >= cap / 2) return { ...holding, bottom: start + run };
	const split = highestHolding(start, cap, start);
	return split && { ...split, bottom: start };
}

/** Of the pages of at most `cap` items that hold place `bottom` and start above `below`, the one that starts highest. */
export function highestHolding(bottom: number, cap: number, below = Number.POSITIVE_INFINITY): { page: number; limit: number } | undefined {
	let best: { page: number; limit: number; offset: number } | undefined;
	for (let limit = Math.max(1, cap); limit >= 1; limit -= 1) {
		const offset = Math.floor(bottom / limit) * limit;
		if (offset < below && (best === undefined || offset < best.offset)) best = { page: offset / limit + 1, limit, offset };
	}
	return best && { page: best.page, limit: best.limit };
}

/** Whether `answer`, read above `below`, still reaches the item `below` held at `place` (nothing was created above in between). */
export function stillReaches(answer: Answered<Dated>, below: Answered<Dated>, place: number): boolean {
	const item = below.items[place - below.start];
	if (item === undefined) return false;
	const at = place - answer.start;
	const shown = answer.items[at];
	// In a fresh order of equal dates the place may hold another item of that date: the date then tells
	// (only an item moved down from above could differ, and those are newer), unless the run above the place is of that date too.
	return shown !== undefined && (shown.id === item.id || (dateOf(shown) === dateOf(item) && dateOf(below.items[0]!) !== dateOf(item)));
}

export interface Band<T> {
	/** The pages read, the highest first. */
	answers: Array<Answered<T>>;
	requests: number;
	/** The lowest page shows the floor (an item below it, or the end of the list): the band reaches it. */
	grounded: boolean;
	/** The answer to the list's first page, when the band reached the top. */
	firstPage?: Page<T>;
	/** A page above could not show that nothing moved (a run of equal dates in a fresh order at its bottom): the band ended there. */
	stalled: boolean;
}

/**
 * Reads the page that holds `place` and starts highest (of at most `size` items) and, when it
 * shows the floor, the pages above it (each holding the run the one below began with:
 * `windowAbove`) until `budget` requests, the poll's time, the top, or a page that would start
 * within the first `aboveFrom` places; a page that no longer reaches the one below ends the band
 * there (items created above in between moved it down).
 */
export async function readBand<T extends Dated>(
	read: PageReader<T>,
	place: number,
	size: number,
	budget: number,
	isBelowFloor: (item: T) => boolean,
	timeUp: () => boolean,
	aboveFrom: number,
): Promise<Band<T>> {
	const answered = (answer: Page<T>, page: number): Answered<T> => ({
		start: (page - 1) * PagePromise.sizeGiven(answer),
		items: answer.items,
		endsList: PagePromise.isLastPage(answer, page),
	});
	const lowestPage = highestHolding(place, size)!;
	const first = await unlessStopped(read(lowestPage.page, lowestPage.limit));
	if (first === STOPPED || first.items.length === 0) return { answers: [], requests: first === STOPPED ? 0 : 1, grounded: false, stalled: false };
	const band: Band<T> = {
		answers: [answered(first, lowestPage.page)],
		requests: 1,
		grounded: false,
		stalled: false,
		...(lowestPage.page === 1 ? { firstPage: first } : {}),
	};
	const lowest = band.answers[0]!;
	if (!lowest.endsList && !isBelowFloor(lowest.items[lowest.items.length - 1]!)) return band;
	band.grounded = true;
	let top = lowest;
	while (band.requests < budget && !timeUp()) {
		const window = windowAbove(top.start, top.items, size);
		if (window === undefined || (window.page - 1) * window.limit < aboveFrom) break;
		const answer = await unlessStopped(read(window.page, window.limit));
		if (answer === STOPPED) break;
		band.requests += 1;
		const above = answered(answer, window.page);
		if (!stillReaches(above, top, window.bottom)) {
			band.stalled = true;
			break;
		}
		band.answers.unshift(above);
		if (window.page === 1) band.firstPage = answer;
		top = above;
	}
	return band;
}
