/** What a click series says in a sentence for the model: its total, how its buckets were measured, and what it cannot know. */
import type { BucketQuality, ClickSeries } from "@linkshort/client";

export const toIso = (at: number) => new Date(at).toISOString();

const QUALITY_WORDS: Record<BucketQuality, string> = {
  exact: "measured between samples at its ends",
  spread: "spread over a longer sampling interval (not finer than sampled)",
  partial: "sampled over part of it",
  gap: "a gap: nothing was sampling, no count",
  none: "no data (before the first sample or after the last), not zero",
};

export function seriesSummary(series: ClickSeries): string {
  const unit = series.granularity;
  if (series.total === null) {
    return series.firstSampleAt === null
      ? `Link ${series.linkId} has no samples yet: no data for this period (not zero).`
      : `Link ${series.linkId} was not sampled in this period (its samples run from ${toIso(series.firstSampleAt)} to ${toIso(series.lastSampleAt!)}): no data, not zero.`;
  }
  const counts = new Map<BucketQuality, number>();
  for (const bucket of series.buckets) counts.set(bucket.quality, (counts.get(bucket.quality) ?? 0) + 1);
  const qualities = [...counts].map(([quality, count]) => `${count} ${unit}${count === 1 ? "" : "s"} ${QUALITY_WORDS[quality]}`).join("; ");
  const unplaced = series.unplaced.reduce((sum, span) => sum + span.clicks, 0);
  const parts = [
    `Link ${series.linkId}: ${series.total} clicks${series.uniqueTotal === null ? "" : ` (${series.uniqueTotal} new unique)`} from ${toIso(series.measuredFrom!)} to ${toIso(series.measuredTo!)} as sampled (${series.timeZone}).`,
    `Buckets: ${qualities}.`,
  ];
  if (unplaced > 0) parts.push(`${unplaced} clicks were gained while nothing sampled (unplaced): in the total, in no ${unit}.`);
  const resets = series.buckets.filter((bucket) => bucket.reset).length;
  if (resets > 0)
    parts.push(`Its total went down in ${resets} ${unit}${resets === 1 ? "" : "s"} (reset): nothing subtracted, the clicks around the drop not counted.`);
  return parts.join(" ");
}
