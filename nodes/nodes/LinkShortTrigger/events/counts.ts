import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod/v4';
import type { Link, LinkShortClient, QrCode } from '@linkshort/client/core';
import type { EventParameters, PollEvent } from '../event';
import { linkPages, mostClicked, qrPages } from '../reading/lists';
import type { PageReader } from '../reading/pageReader';
import { scanNotice } from '../reading/howMany';
import { countMapSchema } from '../reading/storedShapes';
import {
	isTrackedState,
	NO_WAIT,
	pollAccount,
	pollWatched,
	readWatched,
	trackedAfterUpgrade,
	trackedFromStart,
	trackedStateSchema,
	type Snapshot,
	type Tracker,
} from '../reading/tracking';

/**
 * What the growth events keep: each item's count when it was last emitted (or at the baseline),
 * for items above zero, so that growth below the minimum adds up until it reaches it; and where
 * the scan of the account stands (see `TrackedState`).
 */
const countsStateSchema = trackedStateSchema.extend({ counts: countMapSchema });
export type CountsState = z.infer<typeof countsStateSchema>;
/** The state as stored: the current one, or one kept before scans were spread over polls (`counts` and `unseen`; see `upgraded`). */
const storedCountsStateSchema = z.union([countsStateSchema, z.object({ counts: countMapSchema, unseen: countMapSchema })]);

type Describe<T> = (item: T, previous: number, now: number, minimum: number) => IDataObject;

function countsTracker<T extends { id: number }>(countOf: (item: T) => number, describe: Describe<T>, minimumNew: number): Tracker<T, CountsState> {
	const minimum = Math.max(1, minimumNew);
	return {
		observe(state, item, emitting) {
			const id = String(item.id);
			const previous = state.counts[id] ?? 0;
			const count = countOf(item);
			let emitted: IDataObject | undefined;
			if (!emitting || count < previous)
				state.counts[id] = count; // a baseline, or a count reset: growth counts from here
			else if (count - previous >= minimum) {
				emitted = describe(item, previous, count, minimum);
				state.counts[id] = count;
			}
			if (state.counts[id] === 0) delete state.counts[id];
			return emitted;
		},
		trackedIds: (state) => Object.keys(state.counts).map(Number),
		forget: (state, id) => void delete state.counts[String(id)],
		// Not among the clicked links: back to zero (a reset) or deleted; either way growth counts from zero.
		missing: (state, id) => void delete state.counts[String(id)],
	};
}

/** A state kept before scans were spread over polls had `counts` and `unseen`; it goes on with its counts. */
function upgraded(state: IDataObject): CountsState {
	if (isTrackedState(state)) return state as CountsState;
	return { counts: { ...(state.counts as Record<string, number>) }, ...trackedAfterUpgrade() };
}

const isCountsState = (value: unknown): value is CountsState => storedCountsStateSchema.safeParse(value).success;

function countsEvent<T extends { id: number; date: string | null }>(
	pagesOf: (client: LinkShortClient) => PageReader<T>,
	countOf: (item: T) => number,
	describe: Describe<T>,
	what: string,
	watchedLinks?: (
		client: LinkShortClient,
		state: CountsState,
		parameters: EventParameters,
		tracker: Tracker<T, CountsState>,
	) => Promise<{ items: IDataObject[]; state: CountsState }>,
	snapshotOf?: (client: LinkShortClient) => Snapshot<T>,
	sampleOf?: (client: LinkShortClient, parameters: EventParameters) => Promise<{ items: T[]; maxpage: number; perpage: number }>,
): PollEvent<CountsState> {
	const pollOnce = async (client: LinkShortClient, state: CountsState, parameters: EventParameters) => {
		const tracker = countsTracker(countOf, describe, parameters.minimumNew);
		if (watchedLinks && parameters.linkIds.length > 0) return await watchedLinks(client, state, parameters, tracker);
		return await pollAccount(pagesOf(client), tracker, state, parameters, what, snapshotOf?.(client));
	};
	return {
		isState: isCountsState,

		async baseline(client, parameters) {
			return (await pollOnce(client, { counts: {}, ...trackedFromStart() }, parameters)).state;
		},

		async poll(client, stored, parameters) {
			return await pollOnce(client, upgraded(stored), parameters);
		},

		async sample(client, parameters) {
			const page = sampleOf ? await sampleOf(client, parameters) : await pagesOf(client)(1, 'large');
			const top = [...page.items].sort((a, b) => countOf(b) - countOf(a))[0];
			if (!top) return [];
			// A sample as the event emits it: the latest growth of the most active item.
			const growth = Math.max(1, parameters.minimumNew);
			const count = Math.max(countOf(top), growth);
			return [{ ...describe(top, count - growth, count, growth), ...(parameters.linkIds.length > 0 ? {} : scanNotice(page, what)) }];
		},
	};
}

export const newLinkClicks = countsEvent<Link>(
	linkPages,
	(link) => link.clicks,
	(link, previous, now, minimum) => ({
		...link,
		previousClicks: previous,
		clicks: now,
		newClicks: now - previous,
		minimumNewClicks: minimum,
		summary: `${link.shorturl} got ${now - previous} new click${now - previous === 1 ? '' : 's'} (${now} in all) -> ${link.longurl}`,
	}),
	'links',
	async (client, state, parameters, tracker) => await pollWatched(client, tracker, state, parameters),
	(client) => ({ read: async () => await mostClicked(client, NO_WAIT), interesting: (link) => link.clicks > 0 }),
	async (client, parameters) => {
		if (parameters.linkIds.length > 0) {
			const link = await readWatched(client, parameters.linkIds[0]!);
			return { items: link ? [link] : [], maxpage: 1, perpage: 1 };
		}
		return await mostClicked(client);
	},
);

export const newQrScans = countsEvent<QrCode>(
	qrPages,
	(qr) => qr.scans,
	(qr, previous, now, minimum) => ({
		...qr,
		previousScans: previous,
		scans: now,
		newScans: now - previous,
		minimumNewScans: minimum,
		summary: `QR code "${qr.name}" got ${now - previous} new scan${now - previous === 1 ? '' : 's'} (${now} in all) -> ${qr.link}`,
	}),
	'QR codes',
);
