/**
 * One counter of one link (its clicks, or its unique clicks) as checkpoints: sampled times (whole
 * seconds) and the total counted up to each, in one flat array `[time, word, time, word, ...]`
 * where `word = counted * 4 + flags`. `counted` never goes down: a total that fell (a reset link,
 * an id used again) adds nothing and marks its interval `DROP`; an interval in which the account
 * had no sample for a while marks `GAP` (nothing was running: its clicks cannot be placed in
 * time). Samples inside a run of equal totals are not kept: the run's ends say it all, so a link
 * that gains nothing costs two checkpoints however long it is watched.
 */

export const DROP = 1;
export const GAP = 2;

export interface Channel {
  points: number[];
  /** The total as the server last showed it (after a drop it differs from what was counted). */
  raw: number;
}

export const countOf = (word: number) => Math.floor(word / 4);
export const flagsOf = (word: number) => word % 4;
export const checkpointCount = (channel: Channel) => channel.points.length / 2;
export const timeAt = (channel: Channel, index: number) => channel.points[index * 2]!;
export const countAt = (channel: Channel, index: number) => countOf(channel.points[index * 2 + 1]!);
/** The flags of the interval that ends at checkpoint `index`. */
export const flagsAt = (channel: Channel, index: number) => flagsOf(channel.points[index * 2 + 1]!);

export function newChannel(at: number, total: number): Channel {
  return { points: [at, total * 4], raw: total };
}

/**
 * Takes in the total seen at `at` (seconds). `gap`: the account had no sample for a while before
 * `at`, since this link's last one. `racedWithin`: a lower total this soon after the last sample is
 * an answer that was under way before it (two reads crossing), not a drop. False when ignored.
 */
export function addSample(channel: Channel, at: number, total: number, gap: boolean, racedWithin: number): boolean {
  const { points } = channel;
  const length = points.length;
  const lastAt = points[length - 2]!;
  const lastWord = points[length - 1]!;
  if (at <= lastAt) return false;
  const change = total - channel.raw;
  if (change < 0 && at - lastAt < racedWithin) return false;
  channel.raw = total;
  const flags = change < 0 ? DROP : change > 0 && gap ? GAP : 0;
  const counted = countOf(lastWord) + Math.max(0, change);
  if (flags === 0 && change === 0 && length >= 4 && points[length - 3] === lastWord && flagsOf(lastWord) === 0) {
    // The end of a run of equal totals moves forward.
    points[length - 2] = at;
    return true;
  }
  points.push(at, counted * 4 + flags);
  return true;
}

/** The index of the last checkpoint at or before `at`, or -1. */
export function lastAtOrBefore(channel: Channel, at: number): number {
  let low = 0;
  let high = checkpointCount(channel) - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (timeAt(channel, middle) <= at) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/** A boundary to keep well measured: its time and how near a checkpoint must be to measure it alone. */
export interface KeptBoundary {
  at: number;
  tolerance: number;
}

/**
 * Drops the checkpoints that no kept boundary needs: for each boundary, the checkpoint within its
 * tolerance nearest to it, or both checkpoints around it; the first and last checkpoints, those
 * from `keepAllFrom` on, and the ends of marked intervals from `marksKeptFrom` on (older ones merge). A dropped
 * checkpoint's marks pass to the next one kept (the merged interval holds the drop or gap).
 */
export function thin(channel: Channel, boundaries: readonly KeptBoundary[], keepAllFrom: number, marksKeptFrom: number): void {
  const count = checkpointCount(channel);
  if (count <= 2) return;
  const keep = new Uint8Array(count);
  keep[0] = 1;
  keep[count - 1] = 1;
  for (let index = 1; index < count; index += 1) {
    const at = timeAt(channel, index);
    if (at >= keepAllFrom) keep[index] = 1;
    else if (flagsAt(channel, index) !== 0 && at >= marksKeptFrom) keep[index] = keep[index - 1] = 1;
  }
  for (const boundary of boundaries) {
    const before = lastAtOrBefore(channel, boundary.at);
    if (before < 0 || before >= count - 1) continue;
    if (timeAt(channel, before) === boundary.at) {
      keep[before] = 1;
      continue;
    }
    const after = before + 1;
    const toBefore = boundary.at - timeAt(channel, before);
    const toAfter = timeAt(channel, after) - boundary.at;
    if (Math.min(toBefore, toAfter) <= boundary.tolerance) keep[toBefore <= toAfter ? before : after] = 1;
    else keep[before] = keep[after] = 1;
  }
  const points: number[] = [];
  let carried = 0;
  for (let index = 0; index < count; index += 1) {
    const word = channel.points[index * 2 + 1]!;
    if (!keep[index]) {
      carried |= flagsOf(word);
      continue;
    }
    const flags = flagsOf(word) | carried;
    carried = 0;
    points.push(timeAt(channel, index), countOf(word) * 4 + flags);
  }
  channel.points = points;
}
