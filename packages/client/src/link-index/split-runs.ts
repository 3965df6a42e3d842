/**
 * The arithmetic of a sweep's walk over pages sorted by date: where a run of equal dates crosses a
 * page boundary, and one request that reads such a run whole. A server that sorts by a date kept to
 * the second (MySQL's `ORDER BY date LIMIT/OFFSET`) lists links of one second in any order, and in a
 * different order for each request: two pages that split a run may both show one of its links and
 * neither show another. The run's place in the list is fixed (the dates around it differ), so one
 * answer whose window holds the whole run holds every link of it.
 *
 * The n8n trigger reads the same runs for its polls in `nodes/nodes/LinkShortTrigger/events/splitRuns.ts`:
 * there the reads are made, under a poll's request budget, and a run no page holds is read until
 * as many of its items were seen as it has places, over polls; here they are planned for the
 * sweep's steps, and such a run is read a fixed number of times.
 */
import { PagePromise } from "../pagination";

/** A link as the walk looks at it. */
export interface WalkItem {
  id: number;
  date: string | null;
}

/** Links read no more than this many per request to cover a run (a server may refuse larger pages). */
export const MAX_COVER_LIMIT = 1_000;

const dateKey = (item: WalkItem) => item.date ?? "";

/** Where the run of equal dates that ends a page begins (its index in `items`). */
export function trailingRunStart(items: readonly WalkItem[]): number {
  let start = items.length - 1;
  while (start > 0 && dateKey(items[start - 1]!) === dateKey(items[start]!)) start -= 1;
  return start;
}

/** The last index of the run of `date` that begins a page; -1 when the page does not begin with it. */
export function leadingRunEnd(items: readonly WalkItem[], date: string): number {
  let end = -1;
  while (end + 1 < items.length && dateKey(items[end + 1]!) === date) end += 1;
  return end;
}

export { dateKey };

/** Times the pages a run spans are read again when no one window can hold it (each read shows its links in a new order). */
export const REREADS = 3;

/**
 * The reads that find every link of the runs the walk's pages split: one window holding the whole
 * run where the server's page size allows (`perpage` smaller than the walk asked: the server caps
 * it), else the pages the run spans, read REREADS times over.
 */
export function coveringReads(
  runs: ReadonlyArray<readonly [number, number]>,
  perpage: number,
  maxLimit = MAX_COVER_LIMIT,
): Array<[number, number, number, number]> {
  const reads: Array<[number, number, number, number]> = [];
  for (const [first, last] of runs) {
    const window = PagePromise.pageHolding(first, last, maxLimit);
    if (window) reads.push([window.page, window.limit, first, last]);
    else reads.push(...rereads(first, last, perpage));
  }
  return reads;
}

/** The pages of `perpage` links that positions `first` to `last` span, REREADS times over. */
export function rereads(first: number, last: number, perpage: number): Array<[number, number, number, number]> {
  const reads: Array<[number, number, number, number]> = [];
  for (let round = 0; round < REREADS; round += 1) {
    for (let page = Math.floor(first / perpage) + 1; page <= Math.floor(last / perpage) + 1; page += 1) reads.push([page, perpage, first, last]);
  }
  return reads;
}
