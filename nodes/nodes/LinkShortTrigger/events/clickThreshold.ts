import type { IDataObject } from 'n8n-workflow';
import { NotFoundError, type Link, type LinkShortClient } from '@linkshort/client/core';
import type { PollEvent } from './event';
import { LINK_PAGE, readAtOrAbove, watched } from './reading';
import { isIdList, isRecord } from './storedShapes';

/**
 * What the threshold event keeps: the ids of watched links now at or above the threshold (so that
 * each fires once), and the ids that fired and have since dropped below (so that a second crossing
 * says so). Both are bounded by the links that ever reached the threshold.
 */
export interface ThresholdState extends IDataObject {
	above: number[];
	droppedAfterFiring: number[];
}

/** A link's clicks, or undefined once it was deleted; other failures fail the poll (the node reports them). */
async function clicksOf(client: LinkShortClient, id: number): Promise<number | undefined> {
	return await client.links.get(id).then(
		({ stats }) => stats.clicks,
		(error: unknown) => {
			if (error instanceof NotFoundError) return undefined;
			throw error;
		},
	);
}

const thresholdItem = (link: Link, threshold: number, crossedAgain: boolean): IDataObject => ({
	...link,
	threshold,
	crossedAgain,
	summary: `${link.shorturl} reached ${link.clicks} clicks (threshold ${threshold}) -> ${link.longurl}`,
});

export const linkClickThreshold: PollEvent<ThresholdState> = {
	isState: (value): value is ThresholdState => isRecord(value) && isIdList(value.above) && isIdList(value.droppedAfterFiring),

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
			const clicks = await clicksOf(client, id);
			if (clicks === undefined) dropped.delete(id);
			else if (clicks >= parameters.threshold) stillAbove.push(id);
			else dropped.add(id);
		}

		const crossed = current.filter((link) => !wasAbove.has(link.id));
		const items = crossed.map((link) => thresholdItem(link, parameters.threshold, dropped.has(link.id)));
		for (const link of crossed) dropped.delete(link.id);
		return {
			items,
			state: { above: [...currentIds, ...stillAbove], droppedAfterFiring: [...dropped] },
		};
	},

	async sample(client, parameters) {
		const top = (await client.links.list({ order: 'click', limit: LINK_PAGE })).items.filter(watched(parameters));
		const link = top.find((candidate) => candidate.clicks >= parameters.threshold) ?? top[0];
		return link ? [thresholdItem({ ...link, clicks: Math.max(link.clicks, parameters.threshold) }, parameters.threshold, false)] : [];
	},
};
