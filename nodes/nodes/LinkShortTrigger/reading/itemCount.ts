import { LARGE_PAGE_SIZE, PagePromise } from '@linkshort/client/core';
import type { EventParameters } from '../event';
import { STOPPED, unlessStopped, type PageReader } from './pageReader';
import { SCAN_PAGES_PER_POLL } from './scan';
import type { NewItemsState, Tally } from './newItemsState';
import type { Share } from './share';
import { wholeRead } from './stepBack';

/**
 * A server clock that stepped back dates new items below the top of the newest-first list, where
 * no quiet poll looks; fewer than a page of them adds no page to the list. Ids only grow, but the
 * API lists by date only: what shows them is the list's count, exact in the page count of a page
 * of one item, or in the page that ends the list when a read reaches it. Once an hour (and at once
 * when the host's clock went back), a poll that ends with no read under way counts the list: when it
 * holds more than the last count and the new items emitted since, items were created where no read
 * looked, and a read down to the end of the list, bounded by ids (stepBack.ts), emits them.
 * Deletions only lower the count: they never start a read, but as many deletions as hidden items
 * within the hour hide them from it until the count next rises.
 */
export const COUNT_EVERY_MS = 3_600_000;
/** The requests a count may take: a page of one item, and the last page on a server that gives more than asked. */
const COUNT_REQUESTS = 2;

/** How many items the list holds, exactly; `STOPPED` when the rate limit or the poll's deadline stopped it. */
export async function countItems<T>(read: PageReader<T>): Promise<number | typeof STOPPED> {
	const first = await unlessStopped(read(1, 1));
	if (first === STOPPED) return STOPPED;
	if (PagePromise.isLastPage(first, 1)) return first.items.length;
	if (first.items.length <= 1) return first.maxpage;
	// The server gave more than one item: the pages before the last are full ones of that size.
	const size = first.items.length;
	const last = await unlessStopped(read(first.maxpage, size));
	if (last === STOPPED) return STOPPED;
	return (last.currentpage - 1) * size + last.items.length;
}

/** Whether a poll at `now` counts the list: none yet, an hour since the last, or the host's clock went back. */
const countDue = (tally: Tally | undefined, now: number) => tally === undefined || now - tally.at >= COUNT_EVERY_MS || now < tally.at;

/**
 * The poll's result (`result`, from a read that sent `share.requests`), with the list counted where
 * that is due (free when a page of the read ended the list), and turned into a read down to the end
 * of the list when the count shows hidden items.
 */
export async function countedResult<T>(
	read: PageReader<T>,
	result: { fresh: T[]; state: NewItemsState },
	before: NewItemsState,
	share: Pick<Share<T>, 'requests' | 'listEnd'>,
	parameters: EventParameters,
): Promise<{ fresh: T[]; state: NewItemsState }> {
	if (before.reading?.baseline === true && result.state.reading !== null) return result;
	// A baseline that ends counts afresh: its state has no tally.
	const kept = result.state.tally ?? before.tally;
	const tally = kept === undefined || before.reading?.baseline === true ? undefined : { ...kept, emitted: kept.emitted + result.fresh.length };
	const state = { ...result.state, ...(tally === undefined ? {} : { tally }) };
	const now = parameters.now();
	// The host's clock went back while a read is under way: the next count is an hour on (a read down to the end of the list finds what is hidden itself).
	if (state.reading !== null) return { ...result, state: tally !== undefined && tally.at > now ? { ...state, tally: { ...tally, at: now } } : state };
	const free = share.listEnd !== undefined;
	if (!free && (!countDue(tally, now) || share.requests + COUNT_REQUESTS > SCAN_PAGES_PER_POLL || parameters.timeUp())) return { ...result, state };
	const total = share.listEnd ?? (await countItems(read));
	if (total === STOPPED) return { ...result, state };
	const hidden = tally === undefined ? 0 : total - (tally.total + tally.emitted);
	if (hidden <= 0) return { ...result, state: { ...state, tally: { total, at: now, emitted: 0 } } };
	parameters.log(`the list holds ${hidden} more than the trigger saw created: the server's clock moved, and the whole list is read for them`);
	return {
		...result,
		state: { ...state, reading: { ...wholeRead(now, state.cap ?? LARGE_PAGE_SIZE), owed: hidden }, tally: { total, at: now, emitted: -hidden } },
	};
}
