/** A click history's series as the series chart draws it. */
import type { ChartSeries } from "../charts";
import type { ClickSeries } from "./series";

/**
 * `series` as `seriesChart` takes it: a bucket with no data (a gap, or before the first sample)
 * drawn as a gap, a count measured between samples at its edges as exact, one spread over a
 * longer sampling gap or only partly sampled as spread, and the clicks placed in no bucket
 * counted in the total.
 */
export function chartSeriesOf(series: ClickSeries): ChartSeries {
  return {
    granularity: series.granularity,
    timeZone: series.timeZone,
    buckets: series.buckets.map((bucket) => ({ start: bucket.start, count: bucket.clicks, exact: bucket.quality === "exact" })),
    unplaced: series.unplaced.reduce((sum, span) => sum + span.clicks, 0),
  };
}

/**
 * The account's clicks as one chart: `series` (links' series over the same buckets) added up,
 * bucket by bucket, the clicks in no bucket counted in the total; undefined with no series and no
 * `sampled`. A bucket where no link has data is a gap. `sampled` (any link's series, given when
 * the host knows where it sampled the account) gives the buckets: where it has data a bucket with
 * no link's clicks is 0, and a link with no data there adds nothing. Without it a link with no
 * data makes the bucket spread, as its clicks may be missing from the sum.
 */
export function accountSeriesOf(series: readonly ClickSeries[], sampled: ClickSeries): ChartSeries;
export function accountSeriesOf(series: readonly ClickSeries[], sampled?: ClickSeries): ChartSeries | undefined;
export function accountSeriesOf(series: readonly ClickSeries[], sampled?: ClickSeries): ChartSeries | undefined {
  const frame = sampled ?? series[0];
  if (!frame) return undefined;
  const buckets = frame.buckets.map((bucket, index) => {
    let count: number | null = sampled && bucket.clicks !== null ? 0 : null;
    let exact = sampled ? bucket.quality === "exact" || bucket.clicks === null : true;
    for (const link of series) {
      const own = link.buckets[index];
      if (!own || own.clicks === null) {
        if (!sampled) exact = false;
        continue;
      }
      count = (count ?? 0) + own.clicks;
      exact &&= own.quality === "exact";
    }
    return { start: bucket.start, count, exact };
  });
  const unplaced = series.reduce((sum, link) => sum + link.unplaced.reduce((spans, span) => spans + span.clicks, 0), 0);
  return { granularity: frame.granularity, timeZone: frame.timeZone, buckets, unplaced };
}
