import type { IDataObject, INode } from 'n8n-workflow';
import { NotFoundError, type Link, type LinkShortClient, type Page, type PagePromise, type QrCode } from '@linkshort/client/core';
import { toNodeError } from '../LinkShort/transport';

/** Page sizes: large, so that a quiet account costs one request per poll. */
const LINK_PAGE = 100;
const QR_PAGE = 500;

export interface EventParameters {
	threshold: number;
	linkIds: number[];
	/** The trigger node, for the errors it reports. */
	node: INode;
}

/** One kind of event: how to start watching, how to poll, and a sample for "Fetch Test Event". */
export interface PollEvent<State extends IDataObject> {
	baseline(client: LinkShortClient, parameters: EventParameters): Promise<State>;
	poll(client: LinkShortClient, state: State, parameters: EventParameters): Promise<{ items: IDataObject[]; state: State }>;
	sample(client: LinkShortClient, parameters: EventParameters): Promise<IDataObject[]>;
}

// ------------------------------------------------------------------ new items (links, QR codes)

/**
 * What the "new item" events keep: the id and date of every item dated at or after `boundary`,
 * and the newest date the previous poll saw.
 *
 * Items are found by id; dates only bound the scan. A poll reads newest-first pages until a page
 * ends before `boundary`, so a quiet account costs one request. Each poll moves `boundary` to the
 * newest date seen by the poll before it, not its own: an item that a deletion or an unstable sort
 * of equal dates shifted across a page boundary during one poll is still within the next poll's
 * scan. Known ids are kept with their dates until `boundary` passes them, even when a poll did not
 * see them, so a shifted item is never taken for new. So the state holds the items created during
 * roughly the last two poll intervals, whatever the account's size.
 */
interface NewItemsState extends IDataObject {
	boundary: string | null;
	previousNewest: string | null;
	known: Record<string, string>;
}

interface Dated {
	id: number;
	date: string | null;
}

/** The pages of a list, newest first, from the first page on. */
type ReadPages<T> = () => AsyncIterable<Page<T>>;

const dateOf = (item: Dated) => item.date ?? '';

/** Reads newest-first pages until one ends before `boundary` (or the list ends); each id once. */
async function readSince<T extends Dated>(readPages: ReadPages<T>, boundary: string | null): Promise<T[]> {
	const found = new Map<number, T>();
	for await (const page of readPages()) {
		for (const item of page.items) if (!found.has(item.id)) found.set(item.id, item);
		const last = page.items[page.items.length - 1];
		if (boundary !== null && last !== undefined && dateOf(last) < boundary) break;
	}
	return [...found.values()];
}

function newestDate(items: Dated[], atLeast: string | null = null): string | null {
	return items.reduce<string | null>((newest, item) => (item.date !== null && (newest === null || item.date > newest) ? item.date : newest), atLeast);
}

function newItemsEvent<T extends Dated>(list: (client: LinkShortClient) => PagePromise<T>): PollEvent<NewItemsState> {
	const read = (client: LinkShortClient): ReadPages<T> => () => list(client).pages();
	return {
		async baseline(client) {
			// One PagePromise for both reads: it keeps its first page, so a quiet account costs one request.
			const pages = list(client);
			const newest = newestDate((await pages).items);
			// Every item sharing the newest date is known, even if more of them than a page holds.
			const atNewest = newest === null ? [] : (await readSince(() => pages.pages(), newest)).filter((item) => dateOf(item) >= newest);
			return {
				boundary: newest,
				previousNewest: newest,
				known: Object.fromEntries(atNewest.map((item) => [String(item.id), dateOf(item)])),
			};
		},

		async poll(client, state) {
			const items = await readSince(read(client), state.boundary);
			const fresh = items
				.filter((item) => (state.boundary === null || dateOf(item) >= state.boundary) && !(String(item.id) in state.known))
				.sort((a, b) => (dateOf(a) < dateOf(b) ? -1 : dateOf(a) > dateOf(b) ? 1 : a.id - b.id));
			const newest = newestDate(items, state.previousNewest);
			const boundary = state.previousNewest ?? newest;
			const known: Record<string, string> = {};
			for (const [id, date] of [...Object.entries(state.known), ...fresh.map((item): [string, string] => [String(item.id), dateOf(item)])]) {
				if (boundary === null || date >= boundary) known[id] = date;
			}
			return { items: fresh as unknown as IDataObject[], state: { boundary, previousNewest: newest, known } };
		},

		async sample(client) {
			const first = await list(client);
			return first.items.slice(0, 1) as unknown as IDataObject[];
		},
	};
}

export const newLink = newItemsEvent((client) => client.links.list({ order: 'date', limit: LINK_PAGE }));
export const newQrCode = newItemsEvent((client) => client.qrCodes.list({ limit: QR_PAGE }));

// ------------------------------------------------------------------ click threshold

/**
 * What the threshold event keeps: the ids of watched links now at or above the threshold (so that
 * each fires once), and the ids that fired and have since dropped below (so that a second crossing
 * says so). Both are bounded by the links that ever reached the threshold.
 */
interface ThresholdState extends IDataObject {
	above: number[];
	droppedAfterFiring: number[];
}

/** Reads most-clicked-first pages until a page ends below the threshold. */
async function readAtOrAbove(client: LinkShortClient, threshold: number): Promise<Link[]> {
	const found = new Map<number, Link>();
	for await (const page of client.links.list({ order: 'click', limit: LINK_PAGE }).pages()) {
		for (const link of page.items) if (link.clicks >= threshold && !found.has(link.id)) found.set(link.id, link);
		const last = page.items[page.items.length - 1];
		if (last !== undefined && last.clicks < threshold) break;
	}
	return [...found.values()];
}

const watched = (parameters: EventParameters) => (link: Link) => parameters.linkIds.length === 0 || parameters.linkIds.includes(link.id);

export const linkClickThreshold: PollEvent<ThresholdState> = {
	async baseline(client, parameters) {
		const above = (await readAtOrAbove(client, parameters.threshold)).filter(watched(parameters));
		return { above: above.map((link) => link.id), droppedAfterFiring: [] };
	},

	async poll(client, state, parameters) {
		const current = (await readAtOrAbove(client, parameters.threshold)).filter(watched(parameters));
		const currentIds = new Set(current.map((link) => link.id));
		const wasAbove = new Set(state.above);
		const dropped = new Set(state.droppedAfterFiring);

		// A link that was above and is not in this scan either dropped, was deleted, or moved
		// between pages while we read: ask for it rather than guess, so nothing fires twice.
		const stillAbove: number[] = [];
		for (const id of state.above) {
			if (currentIds.has(id)) continue;
			try {
				const { stats } = await client.links.get(id);
				if (stats.clicks >= parameters.threshold) stillAbove.push(id);
				else dropped.add(id);
			} catch (error) {
				if (!(error instanceof NotFoundError)) throw toNodeError(parameters.node, error);
				dropped.delete(id);
			}
		}

		const crossed = current.filter((link) => !wasAbove.has(link.id));
		const items = crossed.map((link) => ({ ...link, threshold: parameters.threshold, crossedAgain: dropped.has(link.id) }));
		for (const link of crossed) dropped.delete(link.id);
		return {
			items,
			state: { above: [...currentIds, ...stillAbove], droppedAfterFiring: [...dropped] },
		};
	},

	async sample(client, parameters) {
		const top = (await client.links.list({ order: 'click', limit: LINK_PAGE })).items.filter(watched(parameters));
		const link = top.find((candidate) => candidate.clicks >= parameters.threshold) ?? top[0];
		return link ? [{ ...link, threshold: parameters.threshold, crossedAgain: false }] : [];
	},
};

// ------------------------------------------------------------------ growing counts (clicks, scans)

/**
 * What the growth events keep: the last count of every item whose count is above zero (an item at
 * zero cannot have grown), and how many polls in a row an item was not seen, so that deleted
 * items are forgotten while an item that merely moved between pages during one read is not.
 */
interface CountsState extends IDataObject {
	counts: Record<string, number>;
	unseen: Record<string, number>;
}

const FORGET_AFTER_UNSEEN_POLLS = 2;

function countsEvent<T extends { id: number }>(
	readAll: (client: LinkShortClient) => Promise<T[]>,
	countOf: (item: T) => number,
	describe: (item: T, previous: number, now: number) => IDataObject,
): PollEvent<CountsState> {
	const snapshot = (items: T[]) => Object.fromEntries(items.filter((item) => countOf(item) > 0).map((item) => [String(item.id), countOf(item)]));
	return {
		async baseline(client) {
			return { counts: snapshot(await readAll(client)), unseen: {} };
		},

		async poll(client, state) {
			const items = await readAll(client);
			const counts = snapshot(items);
			const grown = items
				.filter((item) => countOf(item) > (state.counts[String(item.id)] ?? 0))
				.map((item) => describe(item, state.counts[String(item.id)] ?? 0, countOf(item)));
			const unseen: Record<string, number> = {};
			for (const [id, previous] of Object.entries(state.counts)) {
				if (id in counts || items.some((item) => String(item.id) === id)) continue;
				const misses = (state.unseen[id] ?? 0) + 1;
				if (misses < FORGET_AFTER_UNSEEN_POLLS) {
					counts[id] = previous;
					unseen[id] = misses;
				}
			}
			return { items: grown, state: { counts, unseen } };
		},

		async sample(client) {
			const items = await readAll(client);
			const top = [...items].sort((a, b) => countOf(b) - countOf(a))[0];
			return top ? [describe(top, countOf(top), countOf(top))] : [];
		},
	};
}

/** Links with at least one click, most clicked first; links at zero are not read. */
async function readClickedLinks(client: LinkShortClient): Promise<Link[]> {
	return await readAtOrAbove(client, 1);
}

async function readAllQrCodes(client: LinkShortClient): Promise<QrCode[]> {
	return await client.qrCodes.list({ limit: QR_PAGE }).toArray();
}

export const newLinkClicks = countsEvent(readClickedLinks, (link) => link.clicks, (link, previous, now) => ({
	...link,
	previousClicks: previous,
	clicks: now,
	newClicks: now - previous,
}));

export const newQrScans = countsEvent(readAllQrCodes, (qr) => qr.scans, (qr, previous, now) => ({
	...qr,
	previousScans: previous,
	scans: now,
	newScans: now - previous,
}));

export const EVENTS = { newLink, newQrCode, linkClickThreshold, newLinkClicks, newQrScans } as const;
export type EventName = keyof typeof EVENTS;
