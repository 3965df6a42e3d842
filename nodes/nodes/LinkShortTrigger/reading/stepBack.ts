import { CLOCK_STEP_MS, dateBefore, dateOf, earlier, type Dated } from './clockSteps';
import type { Share } from './share';
import type { NewItemsState, PendingRead } from './newItemsState';

/**
 * A server clock that steps back further than a deep read looks below the top (a time zone setting
 * changed, an NTP correction, a restored VM) dates new items anywhere below it, hours or days down
 * the newest-first list. Ids only grow, so the read that finds them is bounded by ids, not dates: it
 * goes down to the end of the list (over polls, a poll's requests at a time, as any long read) and
 * emits every item above `floorId` it has not emitted, then takes the largest id it saw as the floor.
 *
 * A read turns into one (starting again from the top, emitting nothing of the share that showed it)
 * when a new item shows below the hour a deep read looks (`Share.stepFloor`), or when a read ends
 * having found nothing new although the list's page count grew (the items were created somewhere it
 * did not look). After it, the newest date it emitted is where the server's clock stands (`front`):
 * deep reads look below that rather than below the top until new items reach the top again, so that
 * each later new item costs a read down to there, not of the whole list.
 */

const later = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : a > b ? a : b);

/** A read from the top to the end of the list. */
export function wholeRead(now: number, cap: number): PendingRead {
	return { floor: null, offset: 0, size: 0, deep: true, baseline: false, startedAt: now, maxId: 0, climbing: false, run: null, cap, whole: true };
}

/** The poll's result (`result`, from `before`), turned into a whole read where a long step back showed, and keeping track of the server's clock. */
export function followClock<T extends Dated>(
	result: { fresh: T[]; state: NewItemsState },
	share: Pick<Share<T>, 'items' | 'whole' | 'stepFloor' | 'created' | 'cap'>,
	before: NewItemsState,
	now: number,
): { fresh: T[]; state: NewItemsState } {
	const pending = before.reading;
	if (pending?.baseline) return result;
	const known = new Set(before.known);
	const isNew = (item: T) => item.id > before.floorId && !known.has(item.id);
	const whole = share.whole || pending?.whole === true;
	const emitted = (pending?.emitted ?? 0) + result.fresh.length;
	const owed = pending === null ? share.created : (pending.owed ?? 0);
	const ended = result.state.reading === null;
	const hiddenBelow = share.stepFloor !== null && share.items.some((item) => isNew(item) && dateOf(item) < share.stepFloor!);
	if (!whole && (hiddenBelow || (ended && owed > 0 && emitted === 0))) {
		return { fresh: [], state: { ...before, pages: result.state.pages, reading: wholeRead(now, share.cap) } };
	}
	const emittedNewest = later(
		pending?.emittedNewest ?? null,
		result.fresh.reduce<string | null>((newest, item) => later(newest, dateOf(item)), null),
	);
	const reading = result.state.reading;
	if (reading !== null) return { ...result, state: { ...result.state, reading: { ...reading, emitted, owed, emittedNewest } } };
	// Nothing new: the clock stands where it was found (the read built its state afresh).
	if (emittedNewest === null) return { ...result, state: { ...result.state, front: before.front ?? null, frontSeenAt: before.frontSeenAt ?? 0 } };
	// Below the hour a deep read looks under the top: the clock stands there (a shorter step is the deep reads' own).
	const windowFloor = dateBefore(earlier(before.deepTop, before.top) ?? emittedNewest, CLOCK_STEP_MS);
	const front = emittedNewest < windowFloor ? emittedNewest : null;
	const moved = front !== null && front !== (before.front ?? null);
	return { ...result, state: { ...result.state, front, frontSeenAt: moved ? now : (before.frontSeenAt ?? 0) } };
}
