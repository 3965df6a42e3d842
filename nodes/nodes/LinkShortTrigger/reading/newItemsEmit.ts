/** What one share of a new-items read emits, and the state after it (see events/newItems.ts). */
import type { EventParameters } from '../event';
import type { NewItemsState, PendingRead } from './newItemsState';
import { SCAN_PAGES_PER_POLL } from './scan';
import { below, dateOf, newestDate, type Dated, type Share } from './share';
import { keptSinceCount } from './itemCount';

/** After this long, a server that already showed items dated `top` can give that date to no new item. */
const SETTLE_AFTER_MS = 2_000;
/** Pages of one date at the top of a share that did not see where they begin: half of what a climbing cycle reads, so that the run is counted over polls rather than read whole. */
const LONG_RUN_PAGES = (SCAN_PAGES_PER_POLL - 2) / 2;

const maxIdOf = (items: Dated[], atLeast: number) => items.reduce((max, item) => Math.max(max, item.id), atLeast);

type Emitted<T> = { fresh: T[]; state: NewItemsState };

/** A share being emitted: the share, the state it was read from, and what every branch asks of them. */
interface Emitting<T extends Dated> {
	share: Share<T>;
	state: NewItemsState;
	parameters: EventParameters;
	startedAt: number;
	pending: PendingRead | null;
	baseline: boolean;
	readStartedAt: number;
	pages: number;
	known: Set<number>;
	isNew: (item: T) => boolean;
	/** The read goes on from where `reading` says. */
	goOn: (reading: PendingRead) => NewItemsState;
	/** The read's next place: this share's, with `changes`. */
	pendingOf: (changes: Partial<PendingRead>) => PendingRead;
}

function emitting<T extends Dated>(share: Share<T>, state: NewItemsState, parameters: EventParameters, startedAt: number): Emitting<T> {
	const pending = state.reading;
	const baseline = pending?.baseline ?? false;
	const readStartedAt = pending?.startedAt ?? startedAt;
	const pages = share.pages ?? state.pages;
	const known = new Set(state.known);
	return {
		share,
		state,
		parameters,
		startedAt,
		pending,
		baseline,
		readStartedAt,
		pages,
		known,
		// A read the count started looks above the floor of the count before it: `known` holds every id above that emitted since.
		isNew: (item: T) => !baseline && item.id > (pending?.countFloor ?? state.floorId) && !known.has(item.id),
		goOn: (reading: PendingRead): NewItemsState => ({ ...state, pages, reading }),
		pendingOf: (changes: Partial<PendingRead>): PendingRead => ({
			floor: share.floor,
			offset: share.offset,
			size: share.size,
			deep: share.deep,
			baseline,
			startedAt: readStartedAt,
			maxId: pending?.maxId ?? 0,
			climbing: pending?.climbing ?? false,
			run: pending?.run ?? null,
			cap: share.cap,
			...(pending?.upward === false || share.stalled ? { upward: false } : {}),
			...(share.whole ? { whole: true } : {}),
			...changes,
		}),
	};
}

/** What a share of the read emits, and the state after it (see pollNewItems). */
export function emitFrom<T extends Dated>(share: Share<T>, state: NewItemsState, parameters: EventParameters, startedAt: number): Emitted<T> {
	const at = emitting(share, state, parameters, startedAt);
	const { pending, baseline, isNew, known } = at;
	const run = pending?.run;
	if (run?.long && !baseline) return emitLongRun(at, run);
	if (!share.grounded) return notGrounded(at);
	const first = share.items[0];
	if (!share.fromTop && first !== undefined && below(first, share.floor)) {
		// More than a page was deleted above the place: the cycle starts again from the top.
		return { fresh: [], state: at.goOn(at.pendingOf({ offset: 0, size: 0, floor: pending?.floor ?? null })) };
	}
	const maxId = maxIdOf(share.items, pending?.maxId ?? 0);
	const rangeTop = newestDate(share.items, null);
	// The next cycle reads again every item dated at or above `cutoff` (the newest date of a part
	// that did not start at the top, or a run not read whole): those wait for it, so that a second's
	// items come together and in id order. The seen part of a run longer than any page goes now.
	const cutoff = share.broken?.date ?? (share.fromTop ? null : rangeTop);
	const topRun = share.items.filter((item) => dateOf(item) === rangeTop);
	// (A cycle that reads up from its floor and ends within the floor's second climbs down to it next instead: see below.)
	const climbedInto = pending?.floor?.date === rangeTop && !pending.floor.inclusive && pending.from == null;
	if (
		!share.fromTop &&
		!share.broken &&
		!baseline &&
		rangeTop !== null &&
		dateOf(share.items[0]!) === rangeTop &&
		(climbedInto || topRun.length >= LONG_RUN_PAGES * Math.max(1, share.size))
	) {
		return startLongRun(at, rangeTop, topRun, maxId);
	}
	const longRun = share.broken !== undefined && share.broken.seenIds.length > 0;
	const fresh = share.items
		.filter(isNew)
		.filter((item) => cutoff === null || dateOf(item) < cutoff || (longRun && dateOf(item) === cutoff))
		.sort((a, b) => a.id - b.id);
	for (const item of fresh) known.add(item.id);

	if (baseline) {
		// Everything down to the floor has been seen (what the descent missed was created or moved
		// while it read, and counts as there): the baseline ends, with nothing to emit.
		const top = newestDate(share.items, state.top);
		return {
			fresh: [],
			state: {
				floorId: maxId,
				known: [],
				top,
				topSeenAt: parameters.now(),
				topSettled: false,
				pages: at.pages,
				deepTop: top,
				deepReadAt: at.readStartedAt,
				reading: null,
				cap: share.cap,
			},
		};
	}
	if (!share.fromTop || share.broken) return { fresh, state: { ...state, pages: at.pages, known: [...known], reading: climbFrom(at, rangeTop, maxId) } };
	return { fresh, state: readEnded(at, maxId) };
}

/**
 * A run of equal dates longer than a poll reads, everything older emitted: its new items go as
 * they are seen; it ends once as many of its ids were seen as it has places (see PendingRead.run).
 */
function emitLongRun<T extends Dated>(at: Emitting<T>, run: NonNullable<PendingRead['run']>): Emitted<T> {
	const { share, state, known, pages } = at;
	const runDate = run.date;
	const edges = share.runEdges;
	const measured = edges.top !== undefined && edges.bottom !== undefined ? edges.bottom - edges.top : null;
	const ids = new Set(measured === null || measured === run.places ? run.ids : []);
	const places = measured ?? run.places ?? null;
	const seen = share.items.filter((item) => dateOf(item) === runDate);
	for (const item of seen) ids.add(item.id);
	const fresh = seen.filter(at.isNew).sort((a, b) => a.id - b.id);
	for (const item of fresh) known.add(item.id);
	const top = edges.top ?? run.top ?? null;
	const bottom = edges.bottom ?? run.bottom ?? null;
	const withRun = (reading: PendingRead): NewItemsState => ({ ...state, pages, known: [...known], reading });
	const size = Math.max(1, share.size);
	if (places !== null && ids.size >= places && share.fromTop && edges.top === 0 && !share.deep) {
		// Whole, and nothing above it when this poll began: the read ends, its newest date counted whole (settled).
		return {
			fresh,
			state: { ...state, known: [...known], top: runDate, topSeenAt: at.parameters.now(), topSettled: true, pages, reading: null, cap: share.cap },
		};
	}
	if (places !== null && ids.size >= places) {
		// Whole: the next cycle reads what lies above it, from a poll's worth of pages higher.
		const next = Math.max(0, (top ?? 0) - Math.floor(share.advance * (SCAN_PAGES_PER_POLL - 2)));
		return {
			fresh,
			state: withRun(
				at.pendingOf({ offset: next > 0 ? next + size : 0, size: next > 0 ? size : 0, floor: { date: runDate, inclusive: true }, climbing: true, run: null }),
			),
		};
	}
	const counted = { date: runDate, ids: [...ids], long: true, bottom, places, recount: run.recount === true && measured === null };
	if (!share.grounded) return { fresh, state: withRun(at.pendingOf({ run: { ...counted, top } })) };
	// Not yet whole (places not seen in a fresh order, or not yet counted by one poll): again, from just above its top.
	const next = top === null ? 0 : Math.max(0, top - size);
	return {
		fresh,
		state: withRun(
			at.pendingOf({
				offset: next > 0 ? next + size : 0,
				size: next > 0 ? size : 0,
				floor: { date: runDate, inclusive: false },
				climbing: true,
				run: { ...counted, top: null, recount: true },
			}),
		),
	};
}

/** A share that did not reach its floor emits nothing and notes where it stopped. */
function notGrounded<T extends Dated>(at: Emitting<T>): Emitted<T> {
	const { share, state, pending, baseline } = at;
	if (share.items.length === 0) return { fresh: [], state };
	if ((share.fromTop || pending === null) && (pending === null || pending.floor === null)) {
		at.parameters.log(
			baseline
				? 'the baseline is more than one poll reads; it goes on over the next polls and emits nothing'
				: 'more new items than one poll reads: they are read over the next polls and emitted oldest first',
		);
	}
	// A baseline keeps the newest date and the largest id it saw on the way down (it ends at the bottom).
	if (baseline)
		return { fresh: [], state: { ...at.goOn(at.pendingOf({ maxId: maxIdOf(share.items, pending?.maxId ?? 0) })), top: newestDate(share.items, state.top) } };
	return { fresh: [], state: at.goOn(at.pendingOf({})) };
}

/**
 * The share starts inside the run of its newest date, and that run is longer than a climb reads
 * whole with it (or the cycle climbed to read it whole and started inside it again): its items go
 * as they are seen from now on (everything older was emitted), and it is counted, not read whole.
 * With the first page of a band read up from the floor, which may show where the run begins: the ends of the run seen in one poll count it.
 */
function startLongRun<T extends Dated>(at: Emitting<T>, rangeTop: string, topRun: T[], maxId: number): Emitted<T> {
	const { share, state, known } = at;
	const runItems = new Map([...topRun, ...share.above.filter((item) => dateOf(item) === rangeTop)].map((item) => [item.id, item]));
	const fresh = [...share.items.filter((item) => dateOf(item) !== rangeTop), ...runItems.values()].filter(at.isNew).sort((a, b) => a.id - b.id);
	for (const item of fresh) known.add(item.id);
	const { top: runTop, bottom } = share.runEdges;
	const places = runTop !== undefined && bottom !== undefined ? bottom - runTop : null;
	const run = { date: rangeTop, ids: [...runItems.keys()], long: true, top: null, bottom: bottom ?? null, places };
	return {
		fresh,
		state: {
			...state,
			pages: at.pages,
			known: [...known],
			reading: at.pendingOf({ offset: 0, size: 0, floor: { date: rangeTop, inclusive: false }, maxId, climbing: true, run }),
		},
	};
}

/**
 * The oldest part of what the read has to emit went: the next cycle reads down to the newest of it
 * (or to a run of equal dates not read whole), from a poll's worth of pages above it (the top
 * when that is less): the read climbs a poll at a time.
 */
function climbFrom<T extends Dated>(at: Emitting<T>, top: string | null, maxId: number): PendingRead {
	const { share, pending } = at;
	const size = Math.max(1, share.size);
	const from = share.broken ? share.broken.from : share.start;
	// Just above a run not read whole, so that the next poll has its requests for it; else a poll's worth above.
	const climb = share.broken ? 2 * size : Math.floor(share.advance * (SCAN_PAGES_PER_POLL - 2));
	const next = Math.max(0, from - climb);
	const floor = share.broken ? { date: share.broken.date, inclusive: false } : top === null ? share.floor : { date: top, inclusive: false };
	const run = share.broken && share.broken.seenIds.length > 0 ? { date: share.broken.date, ids: share.broken.seenIds, places: share.broken.places } : null;
	// Else it reads up from the first item below the newest second emitted up to now, unless this
	// cycle read up from there and got no higher (a page above could not show it had not moved).
	const stuck = (pending?.from != null && pending.floor?.date === top) || share.stalled || pending?.upward === false;
	const upFrom = share.broken || top === null || stuck ? null : share.start + share.items.findIndex((item) => dateOf(item) < top);
	return upFrom !== null && upFrom > share.start
		? at.pendingOf({ offset: 0, size: 0, from: upFrom, floor, maxId, climbing: true, run })
		: at.pendingOf({ offset: next > 0 ? next + size : 0, size: next > 0 ? size : 0, floor, maxId, climbing: true, run });
}

/** A read that came down from the top to its floor ends: the state as a whole read sets it. */
function readEnded<T extends Dated>(at: Emitting<T>, maxId: number): NewItemsState {
	const { share, state, pending, baseline, parameters } = at;
	let { floorId, deepTop, deepReadAt } = state;
	if (share.deep || baseline) {
		// A deep read sees every item created since the last one (a baseline: every item there is).
		floorId = Math.max(floorId, maxId);
		deepTop = state.top ?? newestDate(share.items, null);
		deepReadAt = at.readStartedAt;
	}
	const newest = newestDate(share.items, state.top);
	const topMoved = newest !== state.top;
	// A read down to a floor that includes its newest date counted that date's block whole before (a long run, or a settled top): no new item can take that date.
	const blockCounted = pending !== null && share.floor?.inclusive === true && share.floor.date === newest;
	return {
		floorId,
		...keptSinceCount(at.known, floorId, baseline ? undefined : state.tally),
		top: newest,
		// Taken after the read: the server showed items dated `newest` no later than this.
		topSeenAt: topMoved || baseline ? parameters.now() : state.topSeenAt,
		topSettled:
			blockCounted || (topMoved || baseline ? false : state.topSettled || (share.newestBlockRead && at.startedAt - state.topSeenAt >= SETTLE_AFTER_MS)),
		pages: at.pages,
		deepTop: baseline ? newest : deepTop,
		deepReadAt,
		reading: null,
		cap: share.cap,
	};
}
