import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod/v4';
import { isoOrNull, type ClickHistory, type Link, type WindowCount } from '@linkshort/client/core';
import type { EventParameters, PollEvent } from '../event';
import { mostClicked, watched } from '../reading/lists';
import { resolutionNotice, samplePoll, sampledFromStart, sampledStateSchema, sampledTimesAhead } from '../reading/sampling';
import { idListSchema, matches } from '../reading/storedShapes';
import { readWatched } from '../reading/tracking';

/** The rise is measured against the link's clicks of this long before the window. */
const USUAL_MINUTES = 24 * 60;

/**
 * What the rate event keeps beside the sampling: the links now at or above the rate (each fires
 * once) and those that fired and have since fallen back (a second rise says so), as the
 * threshold event does for crossings; `rateKey` is the settings they were found under (new
 * settings start them anew, the history stays).
 */
const rateStateSchema = sampledStateSchema.extend({ rateAbove: idListSchema, rateFellBack: idListSchema, rateKey: z.string() });
export type RateState = z.infer<typeof rateStateSchema>;

interface Measured {
	window: WindowCount;
	/** The link's usual clicks in a window of the same length, from the day before it; null when that is not known. */
	usual: number | null;
}

const settingsKey = (parameters: EventParameters) => JSON.stringify(parameters.rate);

function measure(history: ClickHistory, linkId: number, parameters: EventParameters): Measured {
	const { minutes, factor } = parameters.rate;
	const at = Math.floor(parameters.now());
	const window = history.recent({ linkId, minutes, at });
	if (factor === null) return { window, usual: null };
	const before = history.recent({ linkId, minutes: USUAL_MINUTES, at: window.measuredFrom ?? at - minutes * 60_000 });
	const span = before.measuredFrom === null || before.measuredTo === null ? 0 : before.measuredTo - before.measuredFrom;
	// A usual rate needs at least a window's length of samples before the window.
	return { window, usual: before.clicks === null || span < minutes * 60_000 ? null : (before.clicks * minutes * 60_000) / span };
}

function reached({ window, usual }: Measured, parameters: EventParameters): boolean | undefined {
	if (window.clicks === null) return undefined;
	const { clicks, factor } = parameters.rate;
	if (window.clicks < clicks) return false;
	if (factor === null) return true;
	return usual === null ? undefined : window.clicks >= factor * usual;
}

const rateItem = (link: Link, measured: Measured, parameters: EventParameters, again: boolean): IDataObject => {
	const { clicks, minutes, factor } = parameters.rate;
	const usual = measured.usual === null ? null : Math.round(measured.usual * 10) / 10;
	return {
		...link,
		clicksInWindow: measured.window.clicks,
		minutes,
		minimumClicks: clicks,
		factor,
		usualClicksInWindow: usual,
		windowSampledFrom: isoOrNull(measured.window.measuredFrom),
		windowSampledTo: isoOrNull(measured.window.measuredTo),
		quality: measured.window.quality,
		reachedAgain: again,
		summary: `${link.shorturl} got ${measured.window.clicks} click${measured.window.clicks === 1 ? '' : 's'} in the last ${minutes} minute${minutes === 1 ? '' : 's'}${factor === null ? '' : `, ${factor} times its usual ${usual}`}${again ? ' (again, after falling back)' : ''} -> ${link.longurl}`,
	};
};

const without = (ids: number[], id: number) => ids.filter((other) => other !== id);

export const linkClickRate: PollEvent<RateState> = {
	isState: matches(rateStateSchema),

	unusable: (state, parameters) => sampledTimesAhead(state, parameters.now()),

	async baseline(client, parameters) {
		return (await this.poll(client, { ...sampledFromStart(), rateAbove: [], rateFellBack: [], rateKey: settingsKey(parameters) }, parameters)).state;
	},

	async poll(client, stored, parameters) {
		const sameSettings = stored.rateKey === settingsKey(parameters);
		const emitting = stored.baselineRead && sameSettings;
		const { state, history, read } = await samplePoll(
			client,
			sameSettings ? stored : { ...stored, rateAbove: [], rateFellBack: [], rateKey: settingsKey(parameters) },
			parameters,
		);
		const items: IDataObject[] = [];
		for (const link of read.filter(watched(parameters))) {
			const measured = measure(history, link.id, parameters);
			const now = reached(measured, parameters);
			if (now === undefined) continue;
			const wasAbove = state.rateAbove.includes(link.id);
			if (now && !wasAbove) {
				const again = state.rateFellBack.includes(link.id);
				state.rateAbove.push(link.id);
				state.rateFellBack = without(state.rateFellBack, link.id);
				if (emitting) items.push(rateItem(link, measured, parameters, again));
			} else if (!now && wasAbove) {
				state.rateAbove = without(state.rateAbove, link.id);
				state.rateFellBack.push(link.id);
			}
		}
		// Deleted links leave both lists (a link that fired had clicks, so its label goes with it).
		const kept = (id: number) => String(id) in state.labels;
		state.rateAbove = state.rateAbove.filter(kept);
		state.rateFellBack = state.rateFellBack.filter(kept);
		return { items, state };
	},

	async sample(client, parameters) {
		// An example as the event emits it, on a real link: the rise is made up from the settings (one request: the link, or the most clicked, which also tells how the account is read).
		const chosen = parameters.linkIds.length > 0;
		const page = chosen ? undefined : await mostClicked(client);
		const link = chosen ? await readWatched(client, parameters.linkIds[0]!) : page!.items[0];
		if (!link) return [];
		const { minutes, clicks, factor } = parameters.rate;
		const now = Math.floor(parameters.now());
		const window: WindowCount = { clicks, quality: 'exact', measuredFrom: now - minutes * 60_000, measuredTo: now, uniqueClicks: null, reset: false };
		const item = rateItem(link, { window, usual: factor === null ? null : clicks / factor }, parameters, false);
		return [
			{
				...item,
				summary: `Example: ${String(item.summary)}`,
				testEvent: `An example on one of this account's links: clicksInWindow${factor === null ? '' : ' and usualClicksInWindow'} are made up from your settings, not measured. Once the workflow is published, the trigger measures each link's clicks and starts the workflow when one really reaches the rate.`,
				...resolutionNotice(parameters, page ?? { items: [link], maxpage: 1, perpage: 1 }, 'rate'),
			},
		];
	},
};
