import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod/v4';
import type { Link } from '@linkshort/client/core';
import { scanNotice } from '../reading/howMany';
import type { PollEvent } from '../event';
import { linkPages, mostClicked, watched } from '../reading/lists';
import { idListSchema } from '../reading/storedShapes';
import {
	isTrackedState,
	NO_WAIT,
	pollAccount,
	pollWatched,
	readWatched,
	trackedAfterUpgrade,
	trackedFromStart,
	type TrackedState,
	type Tracker,
} from '../reading/tracking';

/**
 * What the threshold event keeps: the ids of watched links now at or above the threshold (so that
 * each fires once), and the ids that fired and have since dropped below (so that a second crossing
 * says so). Both are bounded by the links that ever reached the threshold; deleted links leave
 * both once a complete pass did not see them.
 */
const thresholdFieldsSchema = z.object({ above: idListSchema, droppedAfterFiring: idListSchema });
export type ThresholdState = TrackedState & z.infer<typeof thresholdFieldsSchema>;

const thresholdItem = (link: Link, threshold: number, crossedAgain: boolean): IDataObject => ({
	...link,
	threshold,
	crossedAgain,
	summary: `${link.shorturl} reached ${link.clicks} click${link.clicks === 1 ? '' : 's'} (threshold ${threshold}) -> ${link.longurl}`,
});

function thresholdTracker(threshold: number): Tracker<Link, ThresholdState> {
	const without = (ids: number[], id: number) => ids.filter((other) => other !== id);
	return {
		observe(state, link, emitting) {
			const wasAbove = state.above.includes(link.id);
			if (link.clicks >= threshold) {
				if (wasAbove) return undefined;
				const again = state.droppedAfterFiring.includes(link.id);
				state.above.push(link.id);
				state.droppedAfterFiring = without(state.droppedAfterFiring, link.id);
				return emitting ? thresholdItem(link, threshold, again) : undefined;
			}
			if (wasAbove) {
				state.above = without(state.above, link.id);
				if (!state.droppedAfterFiring.includes(link.id)) state.droppedAfterFiring.push(link.id);
			}
			return undefined;
		},
		trackedIds: (state) => [...new Set([...state.above, ...state.droppedAfterFiring])],
		missing(state, id) {
			// Not among the links at or above the threshold: it dropped below (or was deleted, and then never comes back).
			if (!state.above.includes(id)) return;
			state.above = without(state.above, id);
			if (!state.droppedAfterFiring.includes(id)) state.droppedAfterFiring.push(id);
		},
		forget(state, id) {
			state.above = without(state.above, id);
			state.droppedAfterFiring = without(state.droppedAfterFiring, id);
		},
	};
}

/** A state kept before scans were spread over polls had only `above` and `droppedAfterFiring` (the stored state is checked for these alone). */
function upgraded(state: ThresholdState): ThresholdState {
	return isTrackedState(state) ? state : { above: [...state.above], droppedAfterFiring: [...state.droppedAfterFiring], ...trackedAfterUpgrade() };
}

export const linkClickThreshold: PollEvent<ThresholdState> = {
	isState: (value): value is ThresholdState => thresholdFieldsSchema.safeParse(value).success,

	async baseline(client, parameters) {
		return await this.poll(client, { above: [], droppedAfterFiring: [], ...trackedFromStart() }, parameters).then((outcome) => outcome.state);
	},

	async poll(client, stored, parameters) {
		const state = upgraded(stored);
		const tracker = thresholdTracker(parameters.threshold);
		if (parameters.linkIds.length > 0) return await pollWatched(client, tracker, state, parameters);
		const snapshot = { read: async () => await mostClicked(client, NO_WAIT), interesting: (link: Link) => link.clicks >= parameters.threshold };
		return await pollAccount(linkPages(client), tracker, state, parameters, 'links', snapshot);
	},

	async sample(client, parameters) {
		if (parameters.linkIds.length > 0) {
			const link = await readWatched(client, parameters.linkIds[0]!);
			return link ? [thresholdItem({ ...link, clicks: Math.max(link.clicks, parameters.threshold) }, parameters.threshold, false)] : [];
		}
		const page = await mostClicked(client);
		const top = page.items.filter(watched(parameters));
		const link = top.find((candidate) => candidate.clicks >= parameters.threshold) ?? top[0];
		return link
			? [{ ...thresholdItem({ ...link, clicks: Math.max(link.clicks, parameters.threshold) }, parameters.threshold, false), ...scanNotice(page, 'links') }]
			: [];
	},
};
