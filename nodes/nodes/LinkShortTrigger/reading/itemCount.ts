import { LARGE_PAGE_SIZE, PagePromise } from '@linkshort/client/core';
import type { EventParameters } from '../event';
import { STOPPED, unlessStopped, type PageReader } from './pageReader';
import { SCAN_PAGES_PER_POLL } from './scan';
import type { NewItemsState, PendingRead, Tally } from './newItemsState';
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

/** A count that saw, at the top of the list, an item made after the poll's read (see `countItems`). */
export const MADE_SINCE = Symbol('made since the read');

/**
 * How many items the list holds, exactly; `STOPPED` when the rate limit or the poll's deadline
 * stopped it; `MADE_SINCE` when the item at the top has an id above `seenUpTo` (made after the
 * poll's read: the count holds it, the emitted items not yet).
 */
export async function countItems<T extends { id: number }>(read: PageReader<T>, seenUpTo = Infinity): Promise<number | typeof STOPPED | typeof MADE_SINCE> {
	const first = await unlessStopped(read(1, 1));
	if (first === STOPPED) return STOPPED;
	if ((first.items[0]?.id ?? 0) > seenUpTo) return MADE_SINCE;
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
 * The most ids at or below `floorId` that `known` keeps above the last count's floor (Tally.floorId):
 * more new items than that between two counts, and the read the next count starts goes by `floorId`
 * alone (an item hidden below what a deep read already passed is then not emitted: the count's log says so).
 */
export const KEPT_SINCE_COUNT = 1_000;

/** `known` once `floorId` holds: the ids above it, and those above the last count's floor while they are few enough (see KEPT_SINCE_COUNT). */
export function keptSinceCount(known: Iterable<number>, floorId: number, tally: Tally | undefined): { known: number[]; tally?: Tally } {
	const ids = [...known];
	const since = tally?.floorId;
	const aboveFloor = () => ids.filter((id) => id > floorId);
	if (tally === undefined) return { known: aboveFloor() };
	if (since === undefined || since >= floorId) return { known: aboveFloor(), tally };
	const kept = ids.filter((id) => id > since);
	if (kept.length - aboveFloor().length <= KEPT_SINCE_COUNT) return { known: kept, tally };
	return { known: aboveFloor(), tally: { ...tally, floorId } };
}

/** The state with `tally` as its count (none: the next poll counts afresh), `known` kept as that count needs. */
function withTally(state: NewItemsState, tally: Tally | undefined): NewItemsState {
	const rest = { ...state };
	delete rest.tally;
	return { ...rest, ...keptSinceCount(state.known, state.floorId, tally) };
}

/** A read the count started ended: says so when it emitted fewer than the count showed hidden. */
function reportCountRead(read: PendingRead, emittedNow: number, parameters: EventParameters): void {
	const owed = read.owed ?? 0;
	const emitted = (read.emitted ?? 0) + emittedNow;
	if (emitted >= owed) return;
	parameters.log(
		`the read of the whole list emitted ${emitted} new items, fewer than the ${owed} the count showed hidden: at least ${owed - emitted} of them not found as new (deleted since, or with ids the trigger had already read past); the list's count starts again from here`,
	);
}

/**
 * The poll's result (`result`, from a read that sent `share.requests`), with the list counted where
 * that is due (free when a page of the read ended the list), and turned into a read down to the end
 * of the list when the count shows hidden items. When a read the count started ends, the count
 * starts again from what the list holds then, so that no count starts a second read for the same items.
 */
export async function countedResult<T extends { id: number }>(
	read: PageReader<T>,
	result: { fresh: T[]; state: NewItemsState },
	before: NewItemsState,
	share: Pick<Share<T>, 'requests' | 'listEnd' | 'fromTop'>,
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
	const countRead = before.reading?.countFloor !== undefined ? before.reading : undefined;
	if (countRead !== undefined) reportCountRead(countRead, result.fresh.length, parameters);
	const hiddenIn = (total: number) => (tally === undefined || countRead !== undefined ? 0 : total - (tally.total + tally.emitted));
	const endShowsHidden = share.listEnd !== undefined && hiddenIn(share.listEnd) > 0;
	// Not counted in this poll: after a read the count started, the next poll counts afresh; where the list's end showed hidden items, the next poll counts.
	const uncounted = {
		...result,
		state: countRead !== undefined ? withTally(state, undefined) : endShowsHidden ? { ...state, tally: { ...tally!, at: now - COUNT_EVERY_MS } } : state,
	};
	// The page that ended the list counts it for free when it was the poll's one request, from the top; a page after
	// the first may count an item made after it, which the poll did not emit: a count of its own then confirms what it shows.
	const free = share.listEnd !== undefined && share.fromTop && share.requests === 1 ? share.listEnd : undefined;
	const due = countRead !== undefined || countDue(tally, now) || endShowsHidden;
	if (free === undefined && (!due || share.requests + COUNT_REQUESTS > SCAN_PAGES_PER_POLL || parameters.timeUp())) return uncounted;
	const total = free ?? (await countItems(read, Math.max(state.floorId, ...state.known)));
	// An item made after the read (emitted next poll) would count twice: the next poll counts instead.
	if (total === STOPPED || total === MADE_SINCE) return uncounted;
	const hidden = hiddenIn(total);
	if (hidden <= 0) return { ...result, state: withTally(state, { total, at: now, emitted: 0, floorId: state.floorId }) };
	parameters.log(`the list holds ${hidden} more than the trigger saw created: the server's clock moved, and the whole list is read for them`);
	// Every item made since the last count has an id above its floor; `known` kept those emitted since.
	const countFloor = tally!.floorId ?? state.floorId;
	return {
		...result,
		state: {
			...state,
			reading: { ...wholeRead(now, state.cap ?? LARGE_PAGE_SIZE), owed: hidden, countFloor },
			tally: { total, at: now, emitted: -hidden, floorId: countFloor },
		},
	};
}
