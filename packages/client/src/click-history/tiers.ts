/**
 * How much detail the history keeps at each age: every sample for the last two hours, the samples
 * around each hour for two days, around each day for 93 days, around each month beyond. Hours, days
 * and months are those of the history's own time zone; a question in another zone whose boundaries
 * fall elsewhere gets spread buckets there.
 */
import type { KeptBoundary } from "./checkpoints";
import type { Granularity, ZoneClock } from "./zone";

const HOUR_S = 3600;
export const EVERY_SAMPLE_FOR_S = 2 * HOUR_S;
export const HOURS_FOR_S = 48 * HOUR_S;
export const DAYS_FOR_S = 93 * 24 * HOUR_S;
/** How old history gets month boundaries kept (older checkpoints keep only the first). */
const MONTHS_FOR_S = 20 * 366 * 24 * HOUR_S;

/** How near a sample must be to a boundary for a bucket to count as measured there (seconds). */
export const TOLERANCE_S: Record<Granularity, number> = { hour: 5 * 60, day: HOUR_S, week: HOUR_S, month: HOUR_S };

/** The boundaries kept when thinning at `now` (seconds), oldest first. */
export function keptBoundaries(clock: ZoneClock, now: number): KeptBoundary[] {
  const kept: KeptBoundary[] = [];
  const add = (unit: Granularity, from: number, to: number) => {
    for (const at of clock.boundaries(unit, from * 1000, to * 1000)) {
      const seconds = at / 1000;
      if (seconds >= from && seconds < to) kept.push({ at: seconds, tolerance: TOLERANCE_S[unit] });
    }
  };
  add("month", now - MONTHS_FOR_S, now - DAYS_FOR_S);
  add("day", now - DAYS_FOR_S, now - HOURS_FOR_S);
  // Up to now, not to where every sample is kept: the samples around the next hours must survive until those hours age into this tier.
  add("hour", now - HOURS_FOR_S, now + 1);
  return kept;
}
