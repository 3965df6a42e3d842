import { z } from 'zod/v4';
import { LARGE_PAGE_SIZE, PagePromise } from '@linkshort/client/core';
import { STOPPED, unlessStopped, type PageReader } from './pageReader';
import { idListSchema, idSchema } from './storedShapes';
import { readSplitRuns, type Answered, type BrokenRun } from './splitRuns';

/**
 * The most list requests one poll of a scan sends. At the documented 30 requests a minute a poll
 * then ends in seconds, far inside n8n's poll timeout (45 s by default), and leaves more than half
 * of the key's window to its other work.
 */
export const SCAN_PAGES_PER_POLL = 12;
/** Ids kept from the end of the last page read, to find the place again (see `ScanCursor`). */
const ANCHOR_IDS = 8;

/**
 * Where a scan of a whole list stands between polls. A pass reads the list from page 1 to its
 * end, spread over as many polls as it takes at `SCAN_PAGES_PER_POLL` pages a poll, under one
 * page size (`pageSize`, what the server gave the pass's first page), so that a page number
 * means the same from one poll to the next.
 *
 * The list is newest first, an order clicks and scans do not change: items created while a pass
 * runs go in above its place and only push what is left down (read twice: harmless); deleted
 * items pull what is left up. A resumed poll therefore reads again the last page it read, and
 * looks for that page's last ids (`anchors`) among what it reads: found, nothing was pulled past
 * the place; not found (more than a page deleted above it since), the pass may have skipped
 * items and says so (`gapSuspected`), so that nothing is concluded from what it did not see.
 */
export const scanCursorSchema = z.object({
	/** Passes started since the baseline began; the first pass (1) is the baseline. */
	pass: idSchema.min(1),
	/** The next page to read; 1 when a pass starts. */
	page: idSchema.min(1),
	/** The pass's page size; 0 before its first page. */
	pageSize: idSchema,
	anchors: idListSchema,
	gapSuspected: z.boolean(),
	/** A run of equal dates longer than any page that the pass goes back to until it has seen all of it: its date and the ids seen. */
	run: z.object({ date: z.string(), ids: idListSchema, places: idSchema.optional() }).nullish(),
	/** The list's pages at `pageSize`, as its last answer said (for the notice of how long a pass takes). */
	pages: idSchema,
});
export type ScanCursor = z.infer<typeof scanCursorSchema>;

export const firstCursor = (): ScanCursor => ({ pass: 1, page: 1, pageSize: 0, anchors: [], gapSuspected: false, pages: 0 });

/**
 * The ids to find the place by: the last of the page above its final run of equal dates, whose
 * items a server may give in another order next time (splitRuns.ts); none when one run fills the page.
 */
function anchorsOf(items: Array<{ id: number; date: string | null }>): number[] {
	const lastDate = items[items.length - 1]?.date;
	let end = items.length;
	while (end > 0 && items[end - 1]!.date === lastDate) end -= 1;
	return items.slice(Math.max(0, end - ANCHOR_IDS), end).map((item) => item.id);
}

export interface ScanLimits {
	/** The most requests this poll may send. */
	requests: number;
	/** Whether the poll must stop sending (its time is up). */
	timeUp: () => boolean;
}

export interface ScanStep<T> {
	/** Items read by this poll, each once. */
	items: T[];
	/** The pass this poll read for. */
	pass: number;
	/** This poll read the pass's last page. */
	passEnded: boolean;
	/** The pass that ended read every item that stayed in the list throughout (no gap suspected). */
	passComplete: boolean;
	cursor: ScanCursor;
	requests: number;
	/** The key's rate limit was spent: the poll stopped there, and the next goes on from its place. */
	rateLimited: boolean;
}

/**
 * One poll's share of a pass: from the cursor, at most `limits.requests` requests, up to the pass's
 * end. A poll never starts the next pass (a small account's pass is one poll, so it reads every
 * item every poll). Runs of equal dates that its pages split are read again whole (splitRuns.ts), and
 * the pages leave room for that; a run it cannot read whole sends the pass back to it next poll. A
 * `RateLimitError` ends the share where it is; other failures fail the poll.
 */
export async function scanStep<T extends { id: number; date: string | null }>(
	readPage: PageReader<T>,
	cursor: ScanCursor,
	limits: ScanLimits,
): Promise<ScanStep<T>> {
	const resuming = cursor.page > 1 && cursor.pageSize > 0;
	const start = resuming ? { page: cursor.page - 1, size: cursor.pageSize } : { page: 1, size: 0 };
	const seen = new Map<number, T>();
	let page = start.page;
	let size = start.size;
	let anchorsFound = !resuming || cursor.anchors.length === 0;
	let gapSuspected = resuming && cursor.gapSuspected;
	let next: ScanCursor = resuming ? cursor : { ...cursor, page: 1, pageSize: 0, anchors: [], gapSuspected: false };
	let requests = 0;
	let rateLimited = false;
	let passEnded = false;

	const answers: Array<Answered<T>> = [];
	/** Page boundaries inside a run of equal dates: each may cost a request to read the run again whole (see splitRuns.ts). */
	let splits = 0;

	// A page after the first may split one more run, whose reading again must fit too.
	while (requests + splits + (answers.length > 0 ? 2 : 1) <= limits.requests && !(requests > 0 && limits.timeUp())) {
		const answer = await unlessStopped(readPage(page, size > 0 ? size : 'large'));
		if (answer === STOPPED) {
			rateLimited = true;
			break;
		}
		requests += 1;
		// The pass's size is what its first page held (a server may write the asked limit into `perpage`); after that, `perpage` tells a change of size.
		const granted = size > 0 && answer.perpage > 0 ? answer.perpage : PagePromise.sizeGiven(answer);
		if (size > 0 && granted !== size) {
			// The server's page size changed under the pass: its page numbers no longer match. The
			// pass starts over under the new size; what it read so far is kept (reading again is harmless).
			size = granted;
			page = 1;
			gapSuspected = false;
			anchorsFound = true;
			for (const item of answer.items) seen.set(item.id, item);
			answers.length = 0;
			splits = 0;
			next = { ...next, page: 1, pageSize: 0, anchors: [], gapSuspected: false };
			continue;
		}
		size = granted;
		for (const item of answer.items) seen.set(item.id, item);
		const previous = answers[answers.length - 1];
		const previousLast = previous?.items[previous.items.length - 1];
		if (previousLast !== undefined && answer.items[0] !== undefined && previousLast.date === answer.items[0].date) splits += 1;
		answers.push({ start: (page - 1) * granted, items: answer.items, endsList: PagePromise.isLastPage(answer, page) });
		if (!anchorsFound && answer.items.some((item) => cursor.anchors.includes(item.id))) anchorsFound = true;
		const last = PagePromise.isLastPage(answer, page);
		if (last) {
			passEnded = true;
			break;
		}
		page = answer.currentpage + 1;
		next = {
			...next,
			page,
			pageSize: size,
			anchors: anchorsOf(answer.items),
			gapSuspected: gapSuspected || !anchorsFound,
			pages: Math.max(answer.maxpage, page),
		};
	}

	// A poll that read pages but never met its anchors may have skipped what slid past them.
	if (!anchorsFound && requests > 0) gapSuspected = true;
	if (answers.length > 1 && !rateLimited) {
		// Runs of equal dates that these pages split, read again whole: a run not read whole may have hidden an item, so the pass cannot conclude from what it did not see.
		const cap = size > 0 && size < LARGE_PAGE_SIZE ? size : LARGE_PAGE_SIZE;
		const runs = await readSplitRuns(readPage, answers, cap, limits.requests - requests, () => false, cursor.run ?? null, { top: resuming, bottom: true });
		requests += runs.requests;
		for (const item of runs.items) if (!seen.has(item.id)) seen.set(item.id, item);
		const broken = runs.broken.reduce<BrokenRun | undefined>((first, run) => (first === undefined || run.from < first.from ? run : first), undefined);
		if (broken && size > 0) {
			// The pass goes back to the first run not read whole (next poll, with its requests; the ids
			// seen of a run longer than any page kept), rather than end without having seen all of it.
			return {
				items: [...seen.values()],
				pass: cursor.pass,
				passEnded: false,
				passComplete: false,
				cursor: {
					...next,
					page: Math.floor(broken.from / size) + 2,
					pageSize: size,
					anchors: [],
					gapSuspected: next.gapSuspected || gapSuspected,
					run: broken.seenIds.length > 0 ? { date: broken.date, ids: broken.seenIds, places: broken.places } : null,
				},
				requests,
				rateLimited,
			};
		}
		next = { ...next, run: null };
	}
	if (passEnded) {
		return {
			items: [...seen.values()],
			pass: cursor.pass,
			passEnded,
			passComplete: !gapSuspected,
			cursor: { pass: cursor.pass + 1, page: 1, pageSize: 0, anchors: [], gapSuspected: false, pages: Math.max(1, page) },
			requests,
			rateLimited,
		};
	}
	if (requests > 0) next = { ...next, gapSuspected: next.gapSuspected || gapSuspected };
	return { items: [...seen.values()], pass: cursor.pass, passEnded, passComplete: false, cursor: next, requests, rateLimited };
}

/**
 * How many polls a pass over `pages` pages takes at most: each poll reads `SCAN_PAGES_PER_POLL - 1`
 * pages of its own (a resumed poll reads its last page again; a first may spend a request on a
 * one-page snapshot).
 */
export function pollsPerPass(pages: number): number {
	return Math.max(1, Math.ceil(pages / (SCAN_PAGES_PER_POLL - 1)));
}
