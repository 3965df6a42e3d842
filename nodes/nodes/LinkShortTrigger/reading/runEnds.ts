import { PagePromise } from '@linkshort/client/core';
import type { Dated } from './clockSteps';
import type { PendingRead } from './newItemsState';
import { STOPPED, unlessStopped, type PageReader } from './pageReader';
import type { Answered } from './splitRuns';
import { runEdgesIn } from './windows';

/**
 * The pages that hold the ends of a long run of `date` (at `places`; `bottom` the place of its
 * bottom end) where `answers` did not show them: the page holding each end's place and the one
 * either side, if the run is still there. Stops when `timeUp` says so or the rate limit is spent.
 */
export async function readRunEnds<T extends Dated>(
	read: PageReader<T>,
	date: string,
	places: number[],
	bottom: number | null | undefined,
	answers: Array<Answered<T>>,
	cap: number,
	timeUp: () => boolean,
): Promise<Array<Answered<T>>> {
	const ends: Array<Answered<T>> = [];
	for (const place of places) {
		if (timeUp()) break;
		const shown = runEdgesIn([...answers, ...ends], date);
		if ((place === bottom ? shown.bottom : shown.top) !== undefined) continue;
		const window = PagePromise.pageHolding(Math.max(0, place - 1), place, cap);
		const answer = window ? await unlessStopped(read(window.page, window.limit)) : STOPPED;
		if (answer === STOPPED) break;
		ends.push({ start: (answer.currentpage - 1) * PagePromise.sizeGiven(answer), items: answer.items, endsList: PagePromise.isLastPage(answer, window!.page) });
	}
	return ends;
}

/** The places of a counted run's ends a read from `startOffset` down may not reach: its top above the start, and its bottom. */
export function endPlacesAbove(run: NonNullable<PendingRead['run']>, startOffset: number): number[] {
	return [run.top != null && run.top < startOffset ? run.top : null, run.bottom ?? null].filter((place): place is number => place !== null);
}
