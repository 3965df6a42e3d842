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

/** The index of the first boundary after `at`. */
function firstBoundaryAfter(boundaries: readonly KeptBoundary[], at: number): number {
  let [low, high] = [0, boundaries.length];
  while (low < high) {
    const middle = (low + high) >> 1;
    if (boundaries[middle]!.at <= at) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Whether checkpoint `index` is needed by a boundary near it or by a mark (see `thin`). */
function neededAt(channel: Channel, index: number, boundaries: readonly KeptBoundary[], marksKeptFrom: number): boolean {
  const at = timeAt(channel, index);
  if ((flagsAt(channel, index) !== 0 && at >= marksKeptFrom) || (flagsAt(channel, index + 1) !== 0 && timeAt(channel, index + 1) >= marksKeptFrom)) return true;
  const [previous, next] = [timeAt(channel, index - 1), timeAt(channel, index + 1)];
  for (let position = firstBoundaryAfter(boundaries, previous); position < boundaries.length && boundaries[position]!.at < next; position += 1) {
    const boundary = boundaries[position]!;
    // The boundary's neighbours: this checkpoint and the one before it, or this one and the one after.
    const [before, after] = boundary.at < at ? [previous, at] : [at, next];
    const [toBefore, toAfter] = [boundary.at - before, after - boundary.at];
    const nearestIsThis = boundary.at < at ? toAfter < toBefore : toBefore <= toAfter;
    if (boundary.at === at || Math.min(toBefore, toAfter) > boundary.tolerance || (nearestIsThis && Math.min(toBefore, toAfter) <= boundary.tolerance))
      return true;
  }
  return false;
}

/**
 * Drops the checkpoints that no kept boundary (sorted) needs: for each boundary, the checkpoint
 * within its tolerance nearest to it, or both checkpoints around it. Kept besides: the first and
 * last checkpoints, those from `keepAllFrom` on, the ends of marked intervals from `marksKeptFrom`
 * on (older ones merge), and those outside `ranges` (thinned before, which thinning again with the
 * same boundaries would keep). A dropped checkpoint's marks pass to the next one kept (the merged
 * interval holds the drop or gap).
 */
export function thin(
  channel: Channel,
  boundaries: readonly KeptBoundary[],
  keepAllFrom: number,
  marksKeptFrom: number,
  ranges: ReadonlyArray<readonly [number, number]>,
): void {
  const count = checkpointCount(channel);
  if (count <= 2) return;
  const keep = new Uint8Array(count).fill(1);
  let dropped = false;
  for (const [from, to] of ranges) {
    for (let index = Math.max(1, lastAtOrBefore(channel, from)); index < count - 1; index += 1) {
      const at = timeAt(channel, index);
      if (at > to || at >= keepAllFrom) break;
      if (at >= from && keep[index] === 1 && !neededAt(channel, index, boundaries, marksKeptFrom)) [keep[index], dropped] = [0, true];
    }
  }
  if (!dropped) return;
  const points: number[] = [];
  let carried = 0;
  for (let index = 0; index < count; index += 1) {
    const word = channel.points[index * 2 + 1]!;
    if (!keep[index]) {
      carried |= flagsOf(word);
      continue;
    }
    points.push(timeAt(channel, index), countOf(word) * 4 + (flagsOf(word) | carried));
    carried = 0;
  }
  channel.points = points;
}
