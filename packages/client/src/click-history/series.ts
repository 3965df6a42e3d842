/**
 * The answers of a click history: a link's series in buckets, its count over a window, and the
 * account's top links, built from channels by `query.ts`. Times here are epoch milliseconds.
 */
import type { Channel } from "./checkpoints";
import { measureBuckets, type BucketQuality, type MeasuredCount } from "./query";
import type { Granularity } from "./zone";

export interface ClickBucket {
  start: number;
  end: number;
  /** Clicks gained in the bucket; null when nothing was sampled in it (see `quality`). */
  clicks: number | null;
  quality: BucketQuality;
  /** The sampled times the count runs between (a boundary itself where the count is known there or spread). */
  measuredFrom: number | null;
  measuredTo: number | null;
  /** New unique clicks, where a link's details were read around it; else null. */
  uniqueClicks: number | null;
  uniqueQuality: BucketQuality;
  /** A total went down in it (a reset link, an id used again): that interval counts nothing. */
  reset: boolean;
}

/** Clicks gained while nothing was sampling, between two buckets: in the period, in no bucket. */
export interface UnplacedClickSpan {
  from: number;
  to: number;
  clicks: number;
}

export interface ClickSeries {
  linkId: number;
  timeZone: string;
  granularity: Granularity;
  start: number;
  end: number;
  buckets: ClickBucket[];
  /** The buckets' clicks plus `unplaced`: the difference of the totals at `measuredFrom` and `measuredTo`; null when nothing was sampled. */
  total: number | null;
  measuredFrom: number | null;
  measuredTo: number | null;
  unplaced: UnplacedClickSpan[];
  uniqueTotal: number | null;
  /** The first and last sample of the link (null: never sampled). */
  firstSampleAt: number | null;
  lastSampleAt: number | null;
}

export interface WindowCount {
  clicks: number | null;
  quality: BucketQuality;
  measuredFrom: number | null;
  measuredTo: number | null;
  uniqueClicks: number | null;
  reset: boolean;
}

const ms = (seconds: number | null) => (seconds === null ? null : seconds * 1000);

export function seriesOf(
  clicks: Channel,
  unique: Channel | undefined,
  boundaries: number[],
  tolerance: number,
): Pick<ClickSeries, "buckets" | "total" | "measuredFrom" | "measuredTo" | "unplaced" | "uniqueTotal"> {
  const seconds = boundaries.map((at) => at / 1000);
  const measured = measureBuckets(clicks, seconds, tolerance);
  const uniques = unique ? measureBuckets(unique, seconds, tolerance) : undefined;
  const buckets = measured.buckets.map((bucket, index): ClickBucket => {
    const uniqueBucket = uniques?.buckets[index];
    return {
      start: boundaries[index]!,
      end: boundaries[index + 1]!,
      clicks: bucket.count,
      quality: bucket.quality,
      measuredFrom: ms(bucket.from),
      measuredTo: ms(bucket.to),
      uniqueClicks: uniqueBucket?.count ?? null,
      uniqueQuality: uniqueBucket?.quality ?? "none",
      reset: bucket.reset,
    };
  });
  const known = measured.buckets.filter((bucket) => bucket.count !== null);
  const unplaced = measured.unplaced.map((span) => ({ from: span.from * 1000, to: span.to * 1000, clicks: span.count }));
  return {
    buckets,
    total: totalOf(measured),
    measuredFrom: ms(known[0]?.from ?? null),
    measuredTo: ms(known[known.length - 1]?.to ?? null),
    unplaced,
    uniqueTotal: uniques ? totalOf(uniques) : null,
  };
}

function sum(buckets: MeasuredCount[]): number {
  return buckets.reduce((total, bucket) => total + bucket.count!, 0);
}

/** The buckets' clicks and the clicks no bucket holds: the difference of the totals at the period's sampled ends; null when nothing was sampled. */
function totalOf(measured: ReturnType<typeof measureBuckets>): number | null {
  const known = measured.buckets.filter((bucket) => bucket.count !== null);
  return known.length === 0 ? null : sum(known) + measured.unplaced.reduce((total, span) => total + span.count, 0);
}

/** The clicks between two moments (ms) as one bucket. */
export function windowCount(clicks: Channel, unique: Channel | undefined, from: number, to: number, tolerance: number): WindowCount {
  const [bucket] = measureBuckets(clicks, [from / 1000, to / 1000], tolerance).buckets;
  const uniqueBucket = unique ? measureBuckets(unique, [from / 1000, to / 1000], tolerance).buckets[0] : undefined;
  return {
    clicks: bucket!.count,
    quality: bucket!.quality,
    measuredFrom: ms(bucket!.from),
    measuredTo: ms(bucket!.to),
    uniqueClicks: uniqueBucket?.count ?? null,
    reset: bucket!.reset,
  };
}
