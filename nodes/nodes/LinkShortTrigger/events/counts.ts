import type { IDataObject } from 'n8n-workflow';
import type { Link, LinkShortClient, QrCode } from '@linkshort/client/core';
import type { EventParameters, PollEvent } from './event';
import { QR_PAGE, readAtOrAbove, watched } from './reading';
import { isCountMap, isRecord } from './storedShapes';

/**
 * What the growth events keep: each item's count when it was last emitted (or at the baseline),
 * for items above zero, so that growth below the minimum adds up until it reaches it; and how many
 * polls in a row an item was not seen, so that deleted items are forgotten while an item that
 * merely moved between pages during one read is not.
 */
export interface CountsState extends IDataObject {
	counts: Record<string, number>;
	unseen: Record<string, number>;
}

const FORGET_AFTER_UNSEEN_POLLS = 2;

function countsEvent<T extends { id: number }>(
	readAll: (client: LinkShortClient, parameters: EventParameters) => Promise<T[]>,
	countOf: (item: T) => number,
	describe: (item: T, previous: number, now: number, minimum: number) => IDataObject,
): PollEvent<CountsState> {
	return {
		isState: (value): value is CountsState => isRecord(value) && isCountMap(value.counts) && isCountMap(value.unseen),

		async baseline(client, parameters) {
			const items = await readAll(client, parameters);
			return { counts: Object.fromEntries(items.filter((item) => countOf(item) > 0).map((item) => [String(item.id), countOf(item)])), unseen: {} };
		},

		async poll(client, state, parameters) {
			const minimum = Math.max(1, parameters.minimumNew);
			const items = await readAll(client, parameters);
			const counts: Record<string, number> = {};
			const grown: IDataObject[] = [];
			for (const item of items) {
				const id = String(item.id);
				const previous = state.counts[id] ?? 0;
				const count = countOf(item);
				if (count - previous >= minimum) {
					grown.push(describe(item, previous, count, minimum));
					counts[id] = count;
				} else if (count < previous) {
					counts[id] = count; // the count was reset: growth counts from here
				} else if (previous > 0) {
					counts[id] = previous;
				}
			}
			const unseen: Record<string, number> = {};
			for (const [id, previous] of Object.entries(state.counts)) {
				if (id in counts || items.some((item) => String(item.id) === id)) continue;
				const misses = (state.unseen[id] ?? 0) + 1;
				if (misses < FORGET_AFTER_UNSEEN_POLLS) {
					counts[id] = previous;
					unseen[id] = misses;
				}
			}
			for (const id of Object.keys(counts)) if (counts[id] === 0) delete counts[id];
			return { items: grown, state: { counts, unseen } };
		},

		async sample(client, parameters) {
			const items = await readAll(client, parameters);
			const top = [...items].sort((a, b) => countOf(b) - countOf(a))[0];
			if (!top) return [];
			// A sample as the event emits it: the latest growth of the most active item.
			const growth = Math.max(1, parameters.minimumNew);
			const count = Math.max(countOf(top), growth);
			return [describe(top, count - growth, count, growth)];
		},
	};
}

/** Links with at least one click, most clicked first; links at zero are not read. */
async function readClickedLinks(client: LinkShortClient, parameters: EventParameters): Promise<Link[]> {
	return (await readAtOrAbove(client, 1)).filter(watched(parameters));
}

async function readAllQrCodes(client: LinkShortClient): Promise<QrCode[]> {
	return await client.qrCodes.list({ limit: QR_PAGE }).toArray();
}

export const newLinkClicks = countsEvent(readClickedLinks, (link) => link.clicks, (link, previous, now, minimum) => ({
	...link,
	previousClicks: previous,
	clicks: now,
	newClicks: now - previous,
	minimumNewClicks: minimum,
	summary: `${link.shorturl} got ${now - previous} new click${now - previous === 1 ? '' : 's'} (${now} in all) -> ${link.longurl}`,
}));

export const newQrScans = countsEvent(readAllQrCodes, (qr) => qr.scans, (qr, previous, now, minimum) => ({
	...qr,
	previousScans: previous,
	scans: now,
	newScans: now - previous,
	minimumNewScans: minimum,
	summary: `QR code "${qr.name}" got ${now - previous} new scan${now - previous === 1 ? '' : 's'} (${now} in all) -> ${qr.link}`,
}));
