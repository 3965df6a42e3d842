import type { Answered } from './splitRuns';

/** Pages read down the newest-first list: which page comes next, and where a run of equal dates begins and ends. */

interface Dated {
	id: number;
	date: string | null;
}

const dateOf = (item: Dated) => item.date ?? '';

/**
 * The next page to read after one that started at `start` and held `items`: it holds the run of
 * equal dates the page ended with and the item before it, so that the run is read whole in one
 * answer (servers give items of one second in no fixed order; see splitRuns.ts), or, when one run fills
 * the page, it holds the page's end. Pages are numbered from 1 at a size, so it starts at a
 * multiple of its size; of the sizes up to `cap`, the one whose page reaches furthest, even when it
 * reads part of this page again: after a first page of 100, a page of 1,000 from the top reaches
 * further than any page that starts at 100.
 */
export function nextWindow(start: number, items: Dated[], cap: number): { offset: number; size: number } {
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
	// A run too long for any page to hold it with the item before: the page that reaches furthest from `end` (the run is counted: splitRuns.ts), not one item.
	if (best.size === 1 && cap > 1) return { offset: Math.floor(end / cap) * cap, size: cap };
	return best;
}

/** Where the run of items dated `date` begins (an item newer than it, or the top, above) and ends (an item older, or the end of the list, below), as far as `answers` show. */
export function runEdgesIn(answers: Array<Answered<Dated>>, date: string): { top?: number; bottom?: number } {
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
