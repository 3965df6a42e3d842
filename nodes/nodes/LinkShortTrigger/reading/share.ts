/** What one poll's read of a newest-first list gives (a share of the read), and the date rules it is read by. */
import type { Floor } from './newItemsState';
import type { PageReader } from './pageReader';
import type { Answered, BrokenRun } from './splitRuns';
import { runEdgesIn } from './windows';
import { dateOf, type Dated } from './clockSteps';

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
	/** The requests this poll's read sent (a count after it keeps within the poll's). */
	requests: number;
	/** How many items the list held, when a page of this read ended it. */
	listEnd: number | undefined;
}

export const below = (item: Dated, floor: Floor | null) => floor !== null && (dateOf(item) < floor.date || (floor.inclusive && dateOf(item) === floor.date));

/** Where a poll's read stands when its pages are in (newItemsRead.ts): what its share is made of. */
export interface ReadSoFar<T extends Dated> {
	readonly seen: Map<number, T>;
	readonly answers: Array<Answered<T>>;
	readonly endAnswers: Array<Answered<T>>;
	readonly firstPage: Answered<T> | undefined;
	readonly longRunDate: string | null;
	readonly whole: boolean;
	readonly deep: boolean;
	readonly stepFloor: string | null;
	readonly floor: Floor | null;
	readonly created: number;
	/** How many items the list held, shown by the page that ended it (the page asked for, not one the server fell back to). */
	readonly listEnd: number | undefined;
	readonly stalled: boolean;
	readonly fromBand: boolean;
	readonly grounded: boolean;
	readonly stoppedAtFloor: boolean;
	readonly broken: BrokenRun | undefined;
	readonly cap: number;
	readonly startOffset: number;
	readonly reachedEnd: number;
	/** The requests of the pages down (how far a request gets), and those that read split runs again whole. */
	readonly requests: number;
	readonly splitRequests: number;
	readonly offset: number;
	readonly size: number;
	readonly pages: number | undefined;
	readonly last: T | undefined;
}

/** The share a read gives, from where it stands. */
export function shareOf<T extends Dated>(read: ReadSoFar<T>): Share<T> {
	const items = [...read.seen.values()];
	const newest = newestDate(items, null);
	const longRunDate = read.longRunDate;
	return {
		whole: read.whole,
		stepFloor: read.stepFloor,
		created: read.created,
		requests: read.requests + read.splitRequests,
		listEnd: read.listEnd,
		runEdges:
			longRunDate !== null
				? runEdgesIn([...read.answers, ...read.endAnswers], longRunDate)
				: newest === null
					? {}
					: runEdgesIn(read.firstPage ? [read.firstPage, ...read.answers] : read.answers, newest),
		above: read.firstPage?.items ?? [],
		stalled: read.stalled,
		items,
		grounded: read.grounded,
		broken: read.broken,
		cap: read.cap,
		start: read.startOffset,
		// A band that stopped early (a page above could not show that nothing moved) says little of how far a climb gets: three quarters of a page a request, then.
		advance: Math.max(read.requests > 0 ? Math.max(1, (read.reachedEnd - read.startOffset) / read.requests) : 1, read.fromBand ? (read.cap * 3) / 4 : 0),
		fromTop: read.startOffset === 0,
		deep: read.deep,
		floor: read.floor,
		offset: read.offset,
		size: read.size,
		pages: read.pages,
		newestBlockRead: !read.stoppedAtFloor || (read.last !== undefined && newest !== null && dateOf(read.last) < newest),
	};
}
