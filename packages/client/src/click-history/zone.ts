/**
 * Calendar periods in an IANA time zone, read from `Intl.DateTimeFormat` (no time zone data of its
 * own): a zone's offset changes are found once per year and cached, so boundaries are arithmetic.
 * Hours are the stretches of one local hour (a repeated hour at the end of summer time is two
 * buckets; a skipped one is none); days, weeks (from Monday) and months start at the first instant
 * of their local date, which is the end of the gap when midnight does not exist.
 */

export const GRANULARITIES = ["hour", "day", "week", "month"] as const;
export type Granularity = (typeof GRANULARITIES)[number];

const HOUR = 3_600_000;
const DAY = 86_400_000;
/** Zones kept at once (a long-running server answering many zones lets the oldest go). */
const MAX_ZONES = 64;
/** Boundaries kept per unit before the run starts over (20 years of hours). */
const MAX_KEPT_BOUNDARIES = 200_000;

interface YearTable {
  /** The offset (local minus UTC, ms) at the year's first instant. */
  start: number;
  /** Offset changes within the year: the instant and the offset from then on. */
  changes: Array<{ at: number; offset: number }>;
}

export class ZoneClock {
  readonly #format: Intl.DateTimeFormat;
  readonly #years = new Map<number, YearTable>();
  /** Boundaries found so far, per unit: one sorted run, extended as questions reach further. */
  readonly #boundaries = new Map<Granularity, number[]>();

  constructor(readonly timeZone: string) {
    this.#format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
  }

  /** Local minus UTC at `ms`, asked of Intl (slow: the year tables call it). */
  #askOffset(ms: number): number {
    const at = Math.floor(ms / 1000) * 1000;
    const parts: Record<string, number> = {};
    for (const part of this.#format.formatToParts(new Date(at))) if (part.type !== "literal") parts[part.type] = Number(part.value);
    const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day, parts.hour, parts.minute, parts.second);
    return wall - at;
  }

  #year(year: number): YearTable {
    let table = this.#years.get(year);
    if (table) return table;
    const from = Date.UTC(year, 0, 1);
    const to = Date.UTC(year + 1, 0, 1);
    table = { start: this.#askOffset(from), changes: [] };
    let before = table.start;
    for (let probe = from + DAY; probe - DAY < to; probe += DAY) {
      const end = Math.min(probe, to - 1000);
      const after = this.#askOffset(end);
      if (after === before) continue;
      // The change lies in (end - DAY, end]: halve to the second.
      let low = end - DAY;
      let high = end;
      while (high - low > 1000) {
        const middle = Math.floor((low + high) / 2000) * 1000;
        if (this.#askOffset(middle) === before) low = middle;
        else high = middle;
      }
      table.changes.push({ at: high, offset: after });
      before = after;
    }
    this.#years.set(year, table);
    return table;
  }

  /** Local minus UTC at `ms`, in ms. */
  offsetAt(ms: number): number {
    const table = this.#year(new Date(ms).getUTCFullYear());
    let offset = table.start;
    for (const change of table.changes) if (change.at <= ms) offset = change.offset;
    return offset;
  }

  /** Offset changes in (from, to]. */
  changesBetween(from: number, to: number): number[] {
    const found: number[] = [];
    for (let year = new Date(from).getUTCFullYear(); year <= new Date(to).getUTCFullYear(); year += 1) {
      for (const change of this.#year(year).changes) if (change.at > from && change.at <= to) found.push(change.at);
    }
    return found;
  }

  /** The local wall time at `ms`, written as if it were UTC. */
  wallAt(ms: number): number {
    return ms + this.offsetAt(ms);
  }

  /** The first instant whose wall time is `wall`; the end of the gap when the clocks skip it. */
  instantOf(wall: number): number {
    const offsets = new Set([this.offsetAt(wall - DAY), this.offsetAt(wall), this.offsetAt(wall + DAY)]);
    const valid = [...offsets].map((offset) => wall - offset).filter((candidate) => this.wallAt(candidate) === wall);
    if (valid.length > 0) return Math.min(...valid);
    const spans = [...offsets].map((offset) => wall - offset);
    const changes = this.changesBetween(Math.min(...spans) - 1, Math.max(...spans));
    return changes.length > 0 ? changes[0]! : wall - this.offsetAt(wall);
  }

  /** The start of the `unit` that holds `ms`. */
  floor(unit: Granularity, ms: number): number {
    if (unit === "hour") {
      const offset = this.offsetAt(ms);
      const start = ms - mod(ms + offset, HOUR);
      // A change of offset since then: the local hour began at the change.
      const changes = this.changesBetween(start, ms);
      return changes.length > 0 ? Math.max(start, changes[changes.length - 1]!) : start;
    }
    const wall = this.wallAt(ms);
    const date = new Date(wall);
    let startWall = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
    if (unit === "week") startWall -= ((date.getUTCDay() + 6) % 7) * DAY;
    if (unit === "month") startWall = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
    const start = this.instantOf(startWall);
    // A wall time reached twice (clocks set back over midnight): the later start holds `ms`.
    return start <= ms ? start : this.instantOf(startWall - DAY);
  }

  /** The start of the `unit` after the one that starts at (or holds) `ms`. */
  next(unit: Granularity, ms: number): number {
    if (unit === "hour") {
      const following = this.floor("hour", ms + HOUR);
      return following > ms ? following : ms + HOUR;
    }
    const date = new Date(this.wallAt(this.floor(unit, ms)));
    const [year, month, day] = [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()];
    const nextWall = unit === "day" ? Date.UTC(year, month, day + 1) : unit === "week" ? Date.UTC(year, month, day + 7) : Date.UTC(year, month + 1, 1);
    return this.instantOf(nextWall);
  }

  /** The boundaries of the `unit`s covering [from, to): the first at or before `from`, the last at or after `to`. Kept for the next call. */
  boundaries(unit: Granularity, from: number, to: number): number[] {
    const first = this.floor(unit, from);
    let known = this.#boundaries.get(unit);
    if (!known || first < known[0]! || known.length > MAX_KEPT_BOUNDARIES) {
      const until = known && known.length <= MAX_KEPT_BOUNDARIES ? known[0]! : first;
      const before = [first];
      while (before[before.length - 1]! < until) before.push(this.next(unit, before[before.length - 1]!));
      known = known && known.length <= MAX_KEPT_BOUNDARIES ? [...before.slice(0, -1), ...known] : before;
      this.#boundaries.set(unit, known);
    }
    while (known[known.length - 1]! < to) known.push(this.next(unit, known[known.length - 1]!));
    const start = firstAtLeast(known, first);
    return known.slice(start, firstAtLeast(known, to) + 1);
  }
}

/** The index of the first entry of `sorted` at or after `value` (its length when none). */
function firstAtLeast(sorted: readonly number[], value: number): number {
  let [low, high] = [0, sorted.length];
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

const mod = (value: number, by: number) => ((value % by) + by) % by;

const clocks = new Map<string, ZoneClock>();

/** The clock of a zone (validated by the caller), shared by every history in the process. */
export function zoneClock(timeZone: string): ZoneClock {
  let clock = clocks.get(timeZone);
  if (!clock) {
    if (clocks.size >= MAX_ZONES) clocks.delete(clocks.keys().next().value!);
    clock = new ZoneClock(timeZone);
    clocks.set(timeZone, clock);
  }
  return clock;
}
