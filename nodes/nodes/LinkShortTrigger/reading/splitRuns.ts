import { PagePromise } from '@linkshort/client/core';
import { STOPPED, unlessStopped, type PageReader } from './pageReader';

/**
 * Deployed servers list by a date kept to the second and give items of the same second in no
 * fixed order (MySQL's ORDER BY date LIMIT/OFFSET): each request may arrange such a run anew, so
 * two pages that split a run can show one of its items twice and another not at all. A run is
 * known whole only when one answer holds it between a newer item (or the top of the list) and an
 * older one (or the end of the list). This reads again, whole, each run that pages split.
 *
 * The client's link index plans its reads of the same runs in `packages/client/src/link-index/split-runs.ts`
 * (for its sweep's steps, a run no page holds read a fixed number of times); this one reads them
 * within a poll's budget and counts a longer run over polls.
 */

interface Dated {
	id: number;
	date: string | null;
}

/** One answer of a read: where its first item stands in the list, and whether it ends the list. */
export interface Answered<T> {
	start: number;
	items: T[];
	endsList: boolean;
}

const dateOf = (item: Dated) => item.date ?? '';

/** Whether one answer holds every item dated `date` (a newer or the top above them, an older or the end below). */
function holdsWhole(answer: Answered<Dated>, date: string): boolean {
	const first = answer.items.findIndex((item) => dateOf(item) === date);
	if (first < 0) return false;
	let last = first;
	while (last + 1 < answer.items.length && dateOf(answer.items[last + 1]!) === date) last += 1;
	const above = first > 0 || answer.start === 0;
	const below = last + 1 < answer.items.length || answer.endsList;
	return above && below;
}

/** A run not read whole: its date, where it starts, and (for one longer than any page) the ids seen of it so far and how many places it had when they were seen. */
export interface BrokenRun {
	date: string;
	from: number;
	seenIds: number[];
	places: number;
}

/**
 * The ids of a run seen in earlier polls (`before`), counted toward its `places` now only while it
 * kept as many places: a run of a past second only loses items (deletions), so the same count means
 * the same items, while a smaller one means some seen ids may be gone and would count for items never seen.
 */
export const idsStillCounted = (before: { date: string; ids: number[]; places?: number | null } | null, date: string, places: number): number[] =>
	before?.date === date && before.places === places ? before.ids : [];

export interface RunsRead<T> {
	items: T[];
	requests: number;
	/** The runs that needed it and were not read whole. */
	broken: BrokenRun[];
}

/**
 * Reads whole every run of equal dates among `answers` (one read's pages, at offsets from the top)
 * that no single answer holds whole, skipping `skip(date)` runs; at most `budget` requests. A run
 * is read in one page when some page of at most `cap` items holds it with an item either side;
 * a longer one is read page by page again (each answer arranges it anew) until as many of its
 * items were seen, here or before (`seenBefore`, from earlier polls), as it has places.
 */
export async function readSplitRuns<T extends Dated>(
	read: PageReader<T>,
	answers: Array<Answered<T>>,
	cap: number,
	budget: number,
	skip: (date: string) => boolean,
	seenBefore: { date: string; ids: number[]; places?: number | null } | null,
	/** The first answer does not start a read whose run above it matters (a scan's earlier poll saw it); likewise the last answer's end. */
	open: { top: boolean; bottom: boolean } = { top: false, bottom: false },
): Promise<RunsRead<T>> {
	const places = new Map<string, { from: number; to: number }>();
	const dateAt = new Map<number, string>();
	let listEnd = Number.POSITIVE_INFINITY;
	for (const answer of answers) {
		answer.items.forEach((item, index) => {
			const date = dateOf(item);
			const place = places.get(date);
			const at = answer.start + index;
			dateAt.set(at, date);
			places.set(date, place ? { from: Math.min(place.from, at), to: Math.max(place.to, at) } : { from: at, to: at });
		});
		if (answer.endsList) listEnd = Math.min(listEnd, answer.start + answer.items.length);
	}
	/** The run's places all lie in one answer, and the places either side hold other dates (or the list ends there). */
	const boundedInOne = (date: string, from: number, to: number) =>
		answers.some((answer) => answer.start <= from && to < answer.start + answer.items.length) &&
		(from === 0 || (dateAt.has(from - 1) && dateAt.get(from - 1) !== date)) &&
		(to + 1 >= listEnd || (dateAt.has(to + 1) && dateAt.get(to + 1) !== date));
	const items: T[] = [];
	const broken: BrokenRun[] = [];
	let requests = 0;
	let limited = false;
	const mayRead = () => !limited && requests < budget;
	const first = answers[0];
	const last = answers[answers.length - 1];
	const atOpenEnd = (from: number, to: number) =>
		(open.top && first !== undefined && from === first.start && to < first.start + first.items.length) ||
		(open.bottom && last !== undefined && !last.endsList && to === last.start + last.items.length - 1 && from >= last.start);
	for (const [date, { from, to }] of places) {
		if (skip(date) || atOpenEnd(from, to) || boundedInOne(date, from, to) || answers.some((answer) => holdsWhole(answer, date))) continue;
		// With an item either side, so that the answer shows the run is whole.
		const window = PagePromise.pageHolding(Math.max(0, from - 1), to + 1, cap);
		if (window) {
			const answer = mayRead() ? await unlessStopped(read(window.page, window.limit)) : STOPPED;
			if (answer === STOPPED) {
				limited ||= requests < budget;
				broken.push({ date, from, seenIds: [], places: to - from + 1 });
				continue;
			}
			requests += 1;
			const answered: Answered<T> = {
				start: (answer.currentpage - 1) * answer.perpage,
				items: answer.items,
				endsList: PagePromise.isLastPage(answer, window.page),
			};
			if (holdsWhole(answered, date)) items.push(...answer.items.filter((item) => dateOf(item) === date));
			else broken.push({ date, from, seenIds: [], places: to - from + 1 });
			continue;
		}
		// Longer than any page: its pages again, until as many of its items were seen as it has places.
		const seen = new Map<number, T>();
		for (const answer of answers) for (const item of answer.items) if (dateOf(item) === date) seen.set(item.id, item);
		const seenIds = new Set([...seen.keys(), ...idsStillCounted(seenBefore, date, to - from + 1)]);
		const size = Math.max(1, cap);
		let page = Math.floor(from / size) + 1;
		while (seenIds.size < to - from + 1 && mayRead()) {
			const answer = await unlessStopped(read(page, size));
			if (answer === STOPPED) {
				limited = true;
				break;
			}
			requests += 1;
			for (const item of answer.items) {
				if (dateOf(item) !== date) continue;
				seen.set(item.id, item);
				seenIds.add(item.id);
			}
			page = page * size > to ? Math.floor(from / size) + 1 : page + 1;
		}
		items.push(...seen.values());
		if (seenIds.size < to - from + 1) broken.push({ date, from, seenIds: [...seenIds], places: to - from + 1 });
	}
	return { items, requests, broken };
}
