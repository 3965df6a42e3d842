import type { IDataObject } from 'n8n-workflow';
import { LARGE_PAGE_SIZE, type LinkShortClient } from '@linkshort/client/core';
import type { EventParameters, PollEvent } from '../event';
import { readShare } from '../reading/newItemsRead';
import { below, dateOf, newestDate, type Dated, type ListOf, type Share } from '../reading/share';
import { followClock } from '../reading/stepBack';
import { isNewItemsState, upgraded, type NewItemsState, type PendingRead } from '../reading/newItemsState';
import { LINK_PAGE, linkPages, QR_PAGE, qrPages } from '../reading/lists';
import { SCAN_PAGES_PER_POLL } from '../reading/scan';

/** After this long, a server that already showed items dated `top` can give that date to no new item. */
const SETTLE_AFTER_MS = 2_000;
/** Pages of one date at the top of a share that did not see where they begin: half of what a climbing cycle reads, so that the run is counted over polls rather than read whole. */
const LONG_RUN_PAGES = (SCAN_PAGES_PER_POLL - 2) / 2;

const maxIdOf = (items: Dated[], atLeast: number) => items.reduce((max, item) => Math.max(max, item.id), atLeast);

/**
 * One poll of a new-items event: the next share of the read (see PendingRead). A share that ends
 * the read sets the state as a whole read does; one that reaches its floor part way emits its new
 * items and starts the next cycle; one that does not reach it notes where it stopped.
 */
async function pollNewItems<T extends Dated>(list: ListOf<T>, state: NewItemsState, parameters: EventParameters): Promise<{ fresh: T[]; state: NewItemsState }> {
	const startedAt = parameters.now();
	const share = await readShare(list, state, state.reading, parameters, startedAt);
	return followClock(emitFrom(share, state, parameters, startedAt), share, state, parameters.now());
}

/** What a share of the read emits, and the state after it (see pollNewItems). */
function emitFrom<T extends Dated>(share: Share<T>, state: NewItemsState, parameters: EventParameters, startedAt: number): { fresh: T[]; state: NewItemsState } {
	const pending = state.reading;
	const baseline = pending?.baseline ?? false;
	const readStartedAt = pending?.startedAt ?? startedAt;
	const pages = share.pages ?? state.pages;
	const known = new Set(state.known);
	const isNew = (item: T) => !baseline && item.id > state.floorId && !known.has(item.id);
	const goOn = (reading: PendingRead): NewItemsState => ({ ...state, pages, reading });
	const pendingOf = (changes: Partial<PendingRead>): PendingRead => ({
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
	});

	const run = pending?.run;
	if (run?.long && !baseline) {
		// A run of equal dates longer than a poll reads, everything older emitted: its new items go as
		// they are seen; it ends once as many of its ids were seen as it has places (see PendingRead.run).
		const runDate = run.date;
		const edges = share.runEdges;
		const measured = edges.top !== undefined && edges.bottom !== undefined ? edges.bottom - edges.top : null;
		const ids = new Set(measured === null || measured === run.places ? run.ids : []);
		const places = measured ?? run.places ?? null;
		const seen = share.items.filter((item) => dateOf(item) === runDate);
		for (const item of seen) ids.add(item.id);
		const fresh = seen.filter(isNew).sort((a, b) => a.id - b.id);
		for (const item of fresh) known.add(item.id);
		const top = edges.top ?? run.top ?? null;
		const bottom = edges.bottom ?? run.bottom ?? null;
		const withRun = (reading: PendingRead): NewItemsState => ({ ...state, pages, known: [...known], reading });
		const size = Math.max(1, share.size);
		if (places !== null && ids.size >= places && share.fromTop && edges.top === 0 && !share.deep) {
			// Whole, and nothing above it when this poll began: the read ends, its newest date counted whole (settled).
			return { fresh, state: { ...state, known: [...known], top: runDate, topSeenAt: parameters.now(), topSettled: true, pages, reading: null, cap: share.cap } };
		}
		if (places !== null && ids.size >= places) {
			// Whole: the next cycle reads what lies above it, from a poll's worth of pages higher.
			const next = Math.max(0, (top ?? 0) - Math.floor(share.advance * (SCAN_PAGES_PER_POLL - 2)));
			return { fresh, state: withRun(pendingOf({ offset: next > 0 ? next + size : 0, size: next > 0 ? size : 0, floor: { date: runDate, inclusive: true }, climbing: true, run: null })) };
		}
		const counted = { date: runDate, ids: [...ids], long: true, bottom, places, recount: run.recount === true && measured === null };
		if (!share.grounded) return { fresh, state: withRun(pendingOf({ run: { ...counted, top } })) };
		// Not yet whole (places not seen in a fresh order, or not yet counted by one poll): again, from just above its top.
		const next = top === null ? 0 : Math.max(0, top - size);
		return { fresh, state: withRun(pendingOf({ offset: next > 0 ? next + size : 0, size: next > 0 ? size : 0, floor: { date: runDate, inclusive: false }, climbing: true, run: { ...counted, top: null, recount: true } })) };
	}

	if (!share.grounded) {
		if (share.items.length === 0) return { fresh: [], state };
		if ((share.fromTop || pending === null) && (pending === null || pending.floor === null)) {
			parameters.log(baseline ? 'the baseline is more than one poll reads; it goes on over the next polls and emits nothing' : 'more new items than one poll reads: they are read over the next polls and emitted oldest first');
		}
		// A baseline keeps the newest date and the largest id it saw on the way down (it ends at the bottom).
		if (baseline) return { fresh: [], state: { ...goOn(pendingOf({ maxId: maxIdOf(share.items, pending?.maxId ?? 0) })), top: newestDate(share.items, state.top) } };
		return { fresh: [], state: goOn(pendingOf({})) };
	}
	const first = share.items[0];
	if (!share.fromTop && first !== undefined && below(first, share.floor)) {
		// More than a page was deleted above the place: the cycle starts again from the top.
		return { fresh: [], state: goOn(pendingOf({ offset: 0, size: 0, floor: pending?.floor ?? null })) };
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
	if (!share.fromTop && !share.broken && !baseline && rangeTop !== null && dateOf(share.items[0]!) === rangeTop && (climbedInto || topRun.length >= LONG_RUN_PAGES * Math.max(1, share.size))) {
		// The share starts inside the run of its newest date, and that run is longer than a climb reads
		// whole with it (or the cycle climbed to read it whole and started inside it again): its items go
		// as they are seen from now on (everything older was emitted), and it is counted, not read whole.
		// With the first page of a band read up from the floor, which may show where the run begins: the ends of the run seen in one poll count it.
		const runItems = new Map([...topRun, ...share.above.filter((item) => dateOf(item) === rangeTop)].map((item) => [item.id, item]));
		const fresh = [...share.items.filter((item) => dateOf(item) !== rangeTop), ...runItems.values()].filter(isNew).sort((a, b) => a.id - b.id);
		for (const item of fresh) known.add(item.id);
		const { top: runTop, bottom } = share.runEdges;
		const places = runTop !== undefined && bottom !== undefined ? bottom - runTop : null;
		const run = { date: rangeTop, ids: [...runItems.keys()], long: true, top: null, bottom: bottom ?? null, places };
		return { fresh, state: { ...state, pages, known: [...known], reading: pendingOf({ offset: 0, size: 0, floor: { date: rangeTop, inclusive: false }, maxId, climbing: true, run }) } };
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
			state: { floorId: maxId, known: [], top, topSeenAt: parameters.now(), topSettled: false, pages, deepTop: top, deepReadAt: readStartedAt, reading: null, cap: share.cap },
		};
	}

	if (!share.fromTop || share.broken) {
		// The oldest part of what the read has to emit. The next cycle reads down to the newest of it
		// (or to a run of equal dates not read whole), from a poll's worth of pages above it (the top
		// when that is less): the read climbs a poll at a time.
		const top = rangeTop;
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
		const reading = upFrom !== null && upFrom > share.start ? pendingOf({ offset: 0, size: 0, from: upFrom, floor, maxId, climbing: true, run }) : pendingOf({ offset: next > 0 ? next + size : 0, size: next > 0 ? size : 0, floor, maxId, climbing: true, run });
		return { fresh, state: { ...state, pages, known: [...known], reading } };
	}

	let { floorId, deepTop, deepReadAt } = state;
	if (share.deep || baseline) {
		// A deep read sees every item created since the last one (a baseline: every item there is).
		floorId = Math.max(floorId, maxId);
		deepTop = state.top ?? newestDate(share.items, null);
		deepReadAt = readStartedAt;
	}
	const newest = newestDate(share.items, state.top);
	const topMoved = newest !== state.top;
	// A read down to a floor that includes its newest date counted that date's block whole before (a long run, or a settled top): no new item can take that date.
	const blockCounted = pending !== null && share.floor?.inclusive === true && share.floor.date === newest;
	return {
		fresh,
		state: {
			floorId,
			known: [...known].filter((id) => id > floorId),
			top: newest,
			// Taken after the read: the server showed items dated `newest` no later than this.
			topSeenAt: topMoved || baseline ? parameters.now() : state.topSeenAt,
			topSettled: blockCounted || (topMoved || baseline ? false : state.topSettled || (share.newestBlockRead && startedAt - state.topSeenAt >= SETTLE_AFTER_MS)),
			pages,
			deepTop: baseline ? newest : deepTop,
			deepReadAt,
			reading: null,
			cap: share.cap,
		},
	};
}

function newItemsEvent<T extends Dated>(listOf: (client: LinkShortClient) => ListOf<T>, describe: (item: T) => IDataObject): PollEvent<NewItemsState> {
	return {
		isState: isNewItemsState,

		async baseline(client, parameters) {
			const start: NewItemsState = {
				floorId: 0,
				known: [],
				top: null,
				topSeenAt: 0,
				topSettled: false,
				pages: 0,
				deepTop: null,
				deepReadAt: 0,
				reading: { floor: null, offset: 0, size: 0, deep: true, baseline: true, startedAt: parameters.now(), maxId: 0, climbing: false, run: null, cap: LARGE_PAGE_SIZE },
			};
			return (await pollNewItems(listOf(client), start, parameters)).state;
		},

		async poll(client, stored, parameters) {
			const { fresh, state } = await pollNewItems(listOf(client), upgraded(stored), parameters);
			return { items: fresh.map(describe), state };
		},

		async sample(client) {
			const list = listOf(client);
			const first = await list.read(1, list.pageSize);
			return first.items.slice(0, 1).map(describe);
		},
	};
}

export const newLink = newItemsEvent((client) => ({ read: linkPages(client), pageSize: LINK_PAGE }), (link): IDataObject => ({ ...link, summary: `New short link ${link.shorturl} -> ${link.longurl}` }));
export const newQrCode = newItemsEvent((client) => ({ read: qrPages(client), pageSize: QR_PAGE }), (qr): IDataObject => ({ ...qr, summary: `New QR code "${qr.name}" -> ${qr.link}` }));
