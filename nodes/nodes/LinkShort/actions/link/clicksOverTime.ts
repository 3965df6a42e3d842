import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { ClickHistory, isoOrNull, lastDays, sampleWhile, stateHolderStore, TimeZoneSchema, type LinkShortClient } from '@linkshort/client/core';
import { NodeOperationError } from 'n8n-workflow';

/** Days of history a Get shows, ending today in the workflow's time zone. */
const DAYS = 7;
/** A week without a Get of the account is a gap: a node sampled only when a workflow runs samples seldom. */
const GAP_AFTER_MS = 7 * 24 * 3_600_000;

export const clicksOverTimeField: INodeProperties = {
	displayName: 'Add Clicks Over Time',
	name: 'clicksOverTime',
	type: 'boolean',
	default: false,
	description:
		'Whether to add the link\'s clicks per day over the last 7 days, from what this node recorded each time it read the link in earlier runs of the active workflow (the API keeps only totals). Days before its first reading say "no data", never 0.',
};

/**
 * Runs `read` with this node's click history recording what the client reads (kept in the node's
 * static data, which n8n saves after production runs), then answers the link's last days from it.
 */
export async function withClicksOverTime<T>(
	context: IExecuteFunctions,
	client: LinkShortClient,
	itemIndex: number,
	linkId: number,
	read: () => Promise<T>,
): Promise<{ result: T; clicksOverTime?: IDataObject }> {
	if (!(context.getNodeParameter('clicksOverTime', itemIndex, false) as boolean)) return { result: await read() };
	const parsedZone = TimeZoneSchema.safeParse(context.getTimezone());
	if (!parsedZone.success)
		throw new NodeOperationError(
			context.getNode(),
			"Timezone (the workflow's settings): must be an IANA time zone this system knows, such as Europe/Berlin or UTC",
			{ itemIndex },
		);
	const timeZone = parsedZone.data;
	const staticData = context.getWorkflowStaticData('node');
	const history = new ClickHistory({
		account: client.accountId,
		store: stateHolderStore({ get: () => staticData.clickHistory, set: (state) => void (staticData.clickHistory = state as unknown as IDataObject) }),
		timeZone,
		gapAfterMs: GAP_AFTER_MS,
		saveEveryMs: Number.MAX_SAFE_INTEGER,
		now: () => Math.floor(Date.now()),
	});
	const result = await sampleWhile(history, client, read);
	const series = history.series({ linkId, ...lastDays({ days: DAYS, timeZone, at: Math.floor(Date.now()) }), granularity: 'day', timeZone });
	const sampled = series.firstSampleAt !== null && series.buckets.some((bucket) => bucket.clicks !== null);
	return {
		result,
		clicksOverTime: {
			timeZone,
			firstSampleAt: isoOrNull(series.firstSampleAt),
			total: series.total,
			days: series.buckets.map((bucket) => ({
				day: new Date(bucket.start).toISOString(),
				clicks: bucket.clicks,
				quality: bucket.quality,
				uniqueClicks: bucket.uniqueClicks,
			})),
			note: sampled
				? 'Clicks per day between the readings of this node (quality "spread": shared out over a longer time between readings; "none": before the first reading, no data).'
				: "No history yet: this node records the link's clicks each time it reads it in a run of the active workflow, and shows them per day from the second reading on.",
		},
	};
}
