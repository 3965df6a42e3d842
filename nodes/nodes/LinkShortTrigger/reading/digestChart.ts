import type { ClickSeries } from '@linkshort/client/core';
import { seriesChart, type ChartSeries, type ClickChart } from '@linkshort/client/charts';

/**
 * The chart of a period for the whole account: each bucket the sum of the links' buckets (a gap
 * where no link has data, lighter where any count in it is spread over a sampling gap), the
 * clicks no bucket holds counted in the total. `sampled` is the series of any link the history
 * has, for the buckets and where they were sampled when no link gained clicks (zeros, not gaps).
 */
export function accountChart(series: ClickSeries[], sampled: ClickSeries, granularity: 'hour' | 'day', timeZone: string, title: string): ClickChart {
	const buckets = sampled.buckets.map((bucket, index) => {
		let count: number | null = bucket.clicks === null ? null : 0;
		let exact = bucket.quality === 'exact' || bucket.clicks === null;
		for (const link of series) {
			const own = link.buckets[index];
			if (!own || own.clicks === null) continue;
			count = (count ?? 0) + own.clicks;
			exact &&= own.quality === 'exact';
		}
		return { start: bucket.start, count, exact };
	});
	const unplaced = series.reduce((sum, link) => sum + link.unplaced.reduce((spans, span) => spans + span.clicks, 0), 0);
	const chart: ChartSeries = { granularity, timeZone, buckets, unplaced };
	return seriesChart(chart, { title });
}
