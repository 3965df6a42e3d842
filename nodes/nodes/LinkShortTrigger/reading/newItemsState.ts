import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod/v4';
import { dateOrNullSchema, idListSchema, idSchema, isRecord, timeSchema } from './storedShapes';

/** Where a read stops: at the first item dated below `date` (or at it, when `inclusive`); null: the end of the list. */
const floorSchema = z.object({ date: z.string(), inclusive: z.boolean() });
export type Floor = z.infer<typeof floorSchema>;

const placeSchema = idSchema.nullish();

/**
 * The list's exact item count when it was last counted (`total`, at `at` on the n8n host's clock),
 * and the new items emitted since (`emitted`; it starts below 0 by the items that count showed
 * were hidden, which the read it started will emit). `floorId`: the state's `floorId` at that
 * count; `known` keeps every id above it emitted since (up to KEPT_SINCE_COUNT, itemCount.ts), so
 * that the read a later count starts can tell every item created since from one emitted (absent in
 * tallies kept before it was recorded: that read then goes by `floorId` alone).
 */
const tallySchema = z.object({ total: idSchema, at: timeSchema, emitted: z.int(), floorId: idSchema.optional() });
export type Tally = z.infer<typeof tallySchema>;
const capSchema = idSchema.positive();

/**
 * A read of the newest-first list longer than one poll's requests (a burst of new items, a deep
 * read on a server that caps its pages). It goes on over polls in cycles, each down to a floor:
 * - the first descends from the top; a poll that cannot reach the floor only notes how far down it
 *   got (`offset`, at `size` items a page) and emits nothing (a baseline ends when it gets there);
 * - the poll that reaches the floor emits the new items of the pages it read itself (consecutive
 *   pages, each starting at the run of equal dates the one before ended with), except those of
 *   their newest second, and the next cycle climbs: it starts a poll's worth of pages higher and
 *   reads down to that second (`floor`, exclusive), so that the read emits the oldest part of a
 *   burst first and goes up a poll at a time;
 * - a cycle that starts at the top and reaches its floor in one poll ends the read;
 * - a read of more new items than a poll reads starts at its floor instead (put from the page
 *   counts) and reads up, and its cycles read up from what the last one emitted (`from`), each
 *   page showing nothing moved (floorBand.ts); where a page cannot, cycles climb down as above.
 * Items created above the place while it reads are read by the cycles after; items deleted above it
 * only move the rest up (a poll that then starts below its floor starts the cycle again at the top).
 */
const pendingReadSchema = z.object({
	floor: floorSchema.nullable(),
	/** The next offset (items from the top) to read in this cycle; 0: the cycle starts at the top. */
	offset: idSchema,
	/** The page size the cycle reads at; 0 before it knows one. */
	size: idSchema,
	deep: z.boolean(),
	/** The read is the baseline: it emits nothing, and everything it reads is old. */
	baseline: z.boolean(),
	/** When the read's first poll started (a deep read's `deepReadAt`). */
	startedAt: timeSchema,
	/** The largest id the read has emitted or taken as old (the floor of a deep read once it ends). */
	maxId: idSchema,
	/** The cycle climbs (it starts above the part last emitted, to reach it in this poll); else it descends to find the bottom. */
	climbing: z.boolean(),
	/**
	 * The ids seen so far of a run of equal dates longer than any page, which the read goes back to
	 * until it has seen it all. `long`: longer than a poll reads (a bulk import within one second):
	 * the cycles then read down to its bottom from its top (`top`, its place when this cycle saw it),
	 * emit its new items as they see them (everything older was emitted), and end it once as many of
	 * its ids were seen as it has places (`places`, as one poll saw its top and its bottom, `bottom`).
	 * `ids` holds only ids seen while the run kept `places`: a deletion makes it shorter, and the ids
	 * seen before then are dropped, so that a deleted id never counts for an item not yet seen. Its
	 * polls look at its ends only until it has `places`, and again when a cycle ended without
	 * having seen them all (`recount`: deletions may have made them fewer).
	 */
	run: z
		.object({
			date: z.string(),
			ids: idListSchema,
			long: z.boolean().optional(),
			top: placeSchema,
			bottom: placeSchema,
			places: placeSchema,
			recount: z.boolean().optional(),
		})
		.nullable(),
	/** The most items a page of this server holds, as far as its answers showed (1,000 until one gave less than asked). */
	cap: capSchema,
	/** A climbing cycle that reads up from its floor: the place of the first item below it when the last cycle read it (see floorBand.ts). */
	from: placeSchema,
	/** False once a cycle could not read up (see floorBand.ts): the read's cycles climb down to their floors instead. */
	upward: z.boolean().optional(),
	/** The read goes down to the end of the list: the clock stepped back further than a deep read looks (see stepBack.ts). */
	whole: z.boolean().optional(),
	/** New items the read emitted in its earlier polls, and the newest date among them (see stepBack.ts). */
	emitted: idSchema.optional(),
	emittedNewest: dateOrNullSchema.optional(),
	/** The fewest items created since the last poll before the read, as the list's page count showed (see stepBack.ts); for a read the count started, the items it showed hidden. */
	owed: idSchema.optional(),
	/** A read the list's count started (itemCount.ts): it emits every item above this id (the last count's `floorId`) not in `known`. */
	countFloor: idSchema.optional(),
});
export type PendingRead = z.infer<typeof pendingReadSchema>;

/**
 * What the "new item" events keep. The boundary is the id, not the date: new records get higher
 * ids, while their dates are the server's local time, which steps back at the end of daylight
 * saving time or after an NTP correction. An item is new when its id is above `floorId` and not
 * in `known` (the ids above the floor already emitted).
 *
 * Dates only decide how deep a poll reads the newest-first list:
 * - normally down to the block of items dated `top` (the newest date seen), since on a steady
 *   clock nothing new can be dated earlier; once a full read of that block started a few seconds
 *   after the block was first seen (`topSettled`), no new item can take that date either, so a
 *   quiet poll stops at the first page: one request, however many links share the newest second;
 * - deep, down to an hour (a clock step) below the top of the last deep read, when a new item is
 *   dated before `top` (the clock stepped back), when the list grew by a page and nothing new
 *   showed, and every hour in the two hours after a new `top` (a step back can hide items below
 *   a full first page without either sign). A deep read sees every item created since the last
 *   one, so it moves `floorId` up and empties `known`;
 * - whole, down to the end of the list, when a new item shows below that hour or an hour's read
 *   finds nothing new the list's growth promised: the clock stepped back further (see stepBack.ts);
 *   or when the list's count, taken hourly, grew by more than was emitted (`tally`, see itemCount.ts).
 */
const newItemsStateSchema = z.object({
	floorId: idSchema,
	known: idListSchema,
	top: dateOrNullSchema,
	topSeenAt: timeSchema,
	topSettled: z.boolean(),
	pages: idSchema,
	deepTop: dateOrNullSchema,
	deepReadAt: timeSchema,
	/** A read that goes on over polls (see PendingRead); null between reads. */
	reading: pendingReadSchema.nullable(),
	/** The most items a page of this server held in the last read as far as its answers showed (absent in states kept before it was recorded): a fresh read asks no larger page than that, so that it never asks again for a page a capped server cuts short. */
	cap: capSchema.optional(),
	/**
	 * Where the server's clock stands when it stepped back further than a deep read looks below the
	 * top: the newest date of the new items the last read emitted, while that lies below the window
	 * (see stepBack.ts); absent or null otherwise. Deep reads then look below it rather than below `top`.
	 */
	front: dateOrNullSchema.optional(),
	/** When `front` last moved (epoch ms): the hourly deep reads go on for two hours after it, as after a new top. */
	frontSeenAt: timeSchema.optional(),
	/** The list's last count (see itemCount.ts); absent before the first. */
	tally: tallySchema.optional(),
});
export type NewItemsState = z.infer<typeof newItemsStateSchema>;

/**
 * A state kept by version 0.1.0, which bounded by dates: `known` mapped the ids dated at or after
 * `boundary` to their dates. Everything it emitted has an id at most the largest of those; the
 * first poll after the upgrade reads deep. A state kept before reads were spread over polls has no
 * `reading`.
 */
export function upgraded(state: IDataObject): NewItemsState {
	if (typeof state.floorId === 'number') return { ...(state as NewItemsState), reading: (state.reading as PendingRead | null | undefined) ?? null };
	const known = state.known !== null && typeof state.known === 'object' ? Object.keys(state.known).map(Number).filter(Number.isInteger) : [];
	const top = typeof state.previousNewest === 'string' ? state.previousNewest : null;
	return { floorId: Math.max(0, ...known), known: [], top, topSeenAt: 0, topSettled: false, pages: 0, deepTop: top, deepReadAt: 0, reading: null };
}

/** The state as stored: one kept before reads were spread over polls has no `reading` (`upgraded` adds it). */
const storedNewItemsStateSchema = newItemsStateSchema.extend({ reading: pendingReadSchema.nullish() });
/** A state kept by 0.1.0 (see `upgraded`): `known` maps ids to dates. */
const dateBoundedStateSchema = z.object({
	known: z.custom<Record<string, unknown>>((known) => isRecord(known) && Object.keys(known).every((id) => /^[0-9]{1,16}$/.test(id))),
	previousNewest: dateOrNullSchema.optional(),
});

/** The current state, or the one kept by 0.1.0 (no `floorId`; `known` maps ids to dates), which `upgraded` reads. */
export function isNewItemsState(value: unknown): value is NewItemsState {
	return isRecord(value) && ('floorId' in value ? storedNewItemsStateSchema : dateBoundedStateSchema).safeParse(value).success;
}
