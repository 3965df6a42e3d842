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
