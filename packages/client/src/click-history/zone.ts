/**
 * Calendar periods in an IANA time zone, read from `Intl.DateTimeFormat` (no time zone data of its
 * own): a zone's offset changes are found once per year and cached (a bounded number of years, the
 * first learnt let go), so boundaries are arithmetic. A question's work and memory are those
 * of its own range: nothing is filled in between it and what was asked before.
 * Hours are the stretches of one local hour (a repeated hour at the end of summer time is two
 * buckets; a skipped one is none); days, weeks (from Monday) and months start at the first instant
 * of their local date, which is the end of the gap when midnight does not exist.
 */
import { BoundedMap } from "../internal/bounded-map";

export const GRANULARITIES = ["hour", "day", "week", "month"] as const;
export type Granularity = (typeof GRANULARITIES)[number];

const HOUR = 3_600_000;
const DAY = 86_400_000;
/** Zones kept at once (a long-running server answering many zones lets the oldest go). */
const MAX_ZONES = 64;
/** Years of offset changes kept per zone (each a few numbers), the first learnt let go. */
export const MAX_KEPT_YEARS = 256;
/** Steps from a boundary to the next kept per zone (the history's thinning asks the same 400 each hour); all let go when it is reached. */
export const MAX_KEPT_STEPS = 10_000;

interface YearTable {
  /** The offset (local minus UTC, ms) at the year's first instant. */
  start: number;
  /** Offset changes within the year: the instant and the offset from then on. */
  changes: Array<{ at: number; offset: number }>;
}

export class ZoneClock {
  readonly #format: Intl.DateTimeFormat;
  /** In the order learnt: the first is let go when a year more is needed. */
  readonly #years = new BoundedMap<number, YearTable>(MAX_KEPT_YEARS);
  /** Per unit, in the order found: a boundary and the next. */
  readonly #steps: Record<Granularity, Map<number, number>> = { hour: new Map(), day: new Map(), week: new Map(), month: new Map() };

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

  /** What the clock holds now: years of offset changes, and steps from a boundary to the next. */
  get kept(): { years: number; steps: number } {
    const { hour, day, week, month } = this.#steps;
    return { years: this.#years.size, steps: hour.size + day.size + week.size + month.size };
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

  /** The boundaries of the `unit`s covering [from, to): the first at or before `from`, the last at or after `to`. */
  boundaries(unit: Granularity, from: number, to: number): number[] {
    const found = [this.floor(unit, from)];
    while (found[found.length - 1]! < to) found.push(this.#step(unit, found[found.length - 1]!));
    return found;
  }

  /** `next(unit, boundary)`, kept for the next question; when the bound is reached every kept step is let go at once. */
  #step(unit: Granularity, boundary: number): number {
    const steps = this.#steps[unit];
    let following = steps.get(boundary);
    if (following !== undefined) return following;
    following = this.next(unit, boundary);
    if (this.kept.steps >= MAX_KEPT_STEPS) for (const each of Object.values(this.#steps)) each.clear();
    steps.set(boundary, following);
    return following;
  }

  /** The first and the last of `boundaries(unit, from, to)`, without those between. */
  enclosing(unit: Granularity, from: number, to: number): [start: number, end: number] {
    const last = this.floor(unit, to);
    return [this.floor(unit, from), last < to ? this.next(unit, last) : last];
  }
}

const mod = (value: number, by: number) => ((value % by) + by) % by;

const clocks = new BoundedMap<string, ZoneClock>(MAX_ZONES);

/** The clock of a zone (validated by the caller), shared by every history in the process. */
export function zoneClock(timeZone: string): ZoneClock {
  let clock = clocks.get(timeZone);
  if (!clock) {
    clock = new ZoneClock(timeZone);
    clocks.set(timeZone, clock);
  }
  return clock;
}
