/**
 * What a channel's checkpoints say of a period: the count at each boundary (sampled near it, known
 * unchanged across it, spread over the sampling interval around it, or unknown), and each bucket
 * from the boundaries around it. Consecutive buckets share their boundary's count, so the counts
 * add up: a period's sum is the difference of the totals sampled at its ends.
 */
import { checkpointCount, countAt, DROP, flagsAt, GAP, lastAtOrBefore, timeAt, type Channel } from "./checkpoints";

/**
 * How a bucket's count was measured. `exact`: between samples taken within the tolerance of its
 * start and end (or across which the total did not change); `spread`: an end lies inside a longer
 * sampling interval, whose gain is shared out by time (also when only part of it was sampled);
 * `partial`: only part of the bucket was sampled (the first sample came after its start, the last before its end, or an end lies in a gap);
 * `gap`: inside an interval when nothing was sampling; `none`: before the first sample or after
 * the last.
 */
export type BucketQuality = "exact" | "spread" | "partial" | "gap" | "none";

type BoundaryValue =
  | { known: true; count: number; at: number; spread: boolean }
  /** `after`: the checkpoint that ends the unknown stretch; `before`: the one that starts it. */
  | { known: false; why: "none" | "gap"; before: number; after: number };

/** The count at boundary `at` (seconds), measured by a sample within `tolerance` seconds when there is one. */
export function valueAt(channel: Channel, at: number, tolerance: number): BoundaryValue {
  const count = checkpointCount(channel);
  const before = lastAtOrBefore(channel, at);
  if (before === -1) {
    const first = timeAt(channel, 0);
    return first - at <= tolerance
      ? { known: true, count: countAt(channel, 0), at: first, spread: false }
      : { known: false, why: "none", before: -1, after: 0 };
  }
  const beforeAt = timeAt(channel, before);
  if (beforeAt === at) return { known: true, count: countAt(channel, before), at, spread: false };
  if (before === count - 1) {
    return at - beforeAt <= tolerance
      ? { known: true, count: countAt(channel, before), at: beforeAt, spread: false }
      : { known: false, why: "none", before, after: count };
  }
  const after = before + 1;
  const afterAt = timeAt(channel, after);
  const [low, high, flags] = [countAt(channel, before), countAt(channel, after), flagsAt(channel, after)];
  if (low === high && flags === 0) return { known: true, count: low, at, spread: false };
  const nearer = at - beforeAt <= afterAt - at ? before : after;
  if (Math.abs(timeAt(channel, nearer) - at) <= tolerance) return { known: true, count: countAt(channel, nearer), at: timeAt(channel, nearer), spread: false };
  if (flags & GAP) return { known: false, why: "gap", before, after };
  const share = Math.round(low + ((high - low) * (at - beforeAt)) / (afterAt - beforeAt));
  return { known: true, count: share, at, spread: true };
}

export interface MeasuredCount {
  /** Null when nothing was sampled in the bucket. */
  count: number | null;
  quality: BucketQuality;
  /** When the count was measured from and to (seconds): a sample's time, or the boundary itself. */
  from: number | null;
  to: number | null;
  /** A total went down within it (a reset link, an id used again): that interval counts nothing. */
  reset: boolean;
  /** The counts at `from` and `to`. */
  low: number;
  high: number;
}

/** The bucket between two boundary values (`start`, `end` in seconds). */
export function bucketBetween(channel: Channel, start: number, end: number, left: BoundaryValue, right: BoundaryValue): MeasuredCount {
  let from: number | undefined;
  let low = 0;
  let partial = false;
  if (left.known) [from, low] = [left.at, left.count];
  else if (left.after < checkpointCount(channel) && timeAt(channel, left.after) < end) {
    [from, low, partial] = [timeAt(channel, left.after), countAt(channel, left.after), true];
  }
  let to: number | undefined;
  let high = 0;
  if (right.known) [to, high] = [right.at, right.count];
  else if (right.before >= 0 && timeAt(channel, right.before) > start) {
    [to, high, partial] = [timeAt(channel, right.before), countAt(channel, right.before), true];
  }
  // A lone sample inside the bucket measures nothing: no span, no count.
  if (from === undefined || to === undefined || to < from || high < low || (partial && to === from)) {
    const why = (!left.known && left.why === "gap") || (!right.known && right.why === "gap") ? "gap" : "none";
    return { count: null, quality: why, from: null, to: null, reset: false, low: 0, high: 0 };
  }
  const spread = (left.known && left.spread) || (right.known && right.spread);
  return { count: high - low, quality: spread ? "spread" : partial ? "partial" : "exact", from, to, reset: hasDrop(channel, from, to), low, high };
}

function hasDrop(channel: Channel, from: number, to: number): boolean {
  const count = checkpointCount(channel);
  for (let index = Math.max(1, lastAtOrBefore(channel, from) + 1); index < count && timeAt(channel, index - 1) < to; index += 1) {
    if (flagsAt(channel, index) & DROP) return true;
  }
  return false;
}

/** Clicks no bucket holds: gained in an interval when nothing was sampling, between two buckets' samples. */
export interface UnplacedClicks {
  from: number;
  to: number;
  count: number;
}

export function measureBuckets(channel: Channel, boundaries: readonly number[], tolerance: number): { buckets: MeasuredCount[]; unplaced: UnplacedClicks[] } {
  const values = boundaries.map((at) => valueAt(channel, at, tolerance));
  const buckets: MeasuredCount[] = [];
  for (let index = 0; index + 1 < boundaries.length; index += 1) {
    buckets.push(bucketBetween(channel, boundaries[index]!, boundaries[index + 1]!, values[index]!, values[index + 1]!));
  }
  // The measured buckets form a chain; where one ends at a sample before a gap and the next begins at the sample after it, the gap's clicks lie between.
  const unplaced: UnplacedClicks[] = [];
  let previous: MeasuredCount | undefined;
  for (const bucket of buckets) {
    if (bucket.count === null) continue;
    if (previous && bucket.from! > previous.to!) unplaced.push({ from: previous.to!, to: bucket.from!, count: bucket.low - previous.high });
    previous = bucket;
  }
  return { buckets, unplaced };
}
