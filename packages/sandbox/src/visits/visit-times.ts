/**
 * When visits happened, as a real server keeps a row per click with its date: runs of
 * `[epoch second, visits in it]`, oldest first, flattened into one array so that a link with many
 * visits stays one small array in the data file. Bounded: past MAX_VISIT_SECONDS seconds with
 * visits, the oldest go (the link's `clicks` still counts them).
 */
export const MAX_VISIT_SECONDS = 100_000;

/** Notes one visit at `now` (epoch ms) in `times`; returns the array to keep (the same one, or a new one when absent). */
export function noteVisitTime(times: number[] | undefined, now: number): number[] {
  const kept = times ?? [];
  const second = Math.floor(now / 1000);
  const last = kept.length - 2;
  // The sandbox's clock may be set back by a test: a visit is kept in order all the same.
  if (last >= 0 && kept[last]! === second) kept[last + 1]! += 1;
  else if (last >= 0 && kept[last]! > second) insertInOrder(kept, second);
  else kept.push(second, 1);
  if (kept.length > MAX_VISIT_SECONDS * 2) kept.splice(0, kept.length - MAX_VISIT_SECONDS * 2);
  return kept;
}

function insertInOrder(times: number[], second: number): void {
  let index = times.length - 2;
  while (index >= 0 && times[index]! > second) index -= 2;
  if (index >= 0 && times[index] === second) times[index + 1]! += 1;
  else times.splice(index + 2, 0, second, 1);
}

/** Visits from `from` to `to` (epoch ms, `to` not included) that `times` holds. */
export function visitsBetween(times: readonly number[] | undefined, from: number, to: number): number {
  let total = 0;
  for (let index = 0; times && index < times.length; index += 2) {
    const at = times[index]! * 1000;
    if (at >= from && at < to) total += times[index + 1]!;
  }
  return total;
}

/** Whether `value` is a visit-times array: pairs of whole numbers, seconds rising, counts positive. */
export function isVisitTimes(value: unknown): value is number[] {
  if (!Array.isArray(value) || value.length % 2 !== 0) return false;
  for (let index = 0; index < value.length; index += 2) {
    const [second, count] = [value[index] as unknown, value[index + 1] as unknown];
    if (!Number.isSafeInteger(second) || !Number.isSafeInteger(count) || (count as number) < 1) return false;
    if (index > 0 && (second as number) <= (value[index - 2] as number)) return false;
  }
  return true;
}
