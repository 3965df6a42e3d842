/**
 * The zone clock is shared by every history in the process: a question's work and memory must be
 * those of its own range, whatever was asked before (issue 51: a day of hours in the year 2426, after
 * an ordinary question, filled every hour in between). Work is counted, never timed: the clock's
 * steps from one boundary to the next (each one a boundary it would hold) and the host's Intl calls.
 */
import { calendarPeriod, ClickHistory, ValidationError } from "../src/core";
import { MAX_KEPT_STEPS, MAX_KEPT_YEARS, ZoneClock } from "../src/click-history/zone";
import { countWork, INTL_CALLS_A_YEAR } from "./clock-work";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const YEAR = 365.25 * DAY;

function fieldsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).fields;
  }
  throw new Error("no error");
}

const now = Math.floor(Date.now() / HOUR) * HOUR;
/** A zone none of the other tests of this file ask, so the process-wide clock starts fresh here. */
const timeZone = "Europe/Vienna";

describe("a far-year question to the shared zone clock", () => {
  const history = new ClickHistory({ account: "far-years", now: () => now });
  history.record({ id: 1, clicks: 5 }, now - HOUR);
  history.record({ id: 1, clicks: 9 }, now);

  it("a day of hours a century ahead, after an ordinary day, does the work of its own 24 hours", async () => {
    const ordinary = history.series({ linkId: 1, start: now - DAY, end: now, granularity: "hour", timeZone });
    expect(ordinary.total).toBe(4);
    const farDay = Math.floor((now + 100 * YEAR) / DAY) * DAY;
    const far = await countWork(() => history.series({ linkId: 1, start: farDay, end: farDay + DAY, granularity: "hour", timeZone }));
    expect(far.result.buckets.length).toBeGreaterThanOrEqual(23);
    expect(far.result.buckets.length).toBeLessThanOrEqual(25);
    expect(far.result.total).toBeNull();
    // Before: every hour of the century between was stepped through and kept (876,000 steps).
    expect(far.steps).toBeLessThanOrEqual(2 * far.result.buckets.length);
    // At most the year asked and the ones beside it.
    expect(far.intlCalls).toBeLessThanOrEqual(2 * INTL_CALLS_A_YEAR);
    // And the ordinary question again costs no more than the first time: nothing was filled in between.
    const again = await countWork(() => history.series({ linkId: 1, start: now - DAY, end: now, granularity: "hour", timeZone }));
    expect(again.steps).toBeLessThanOrEqual(2 * again.result.buckets.length);
    expect(again.result).toEqual(ordinary);
  });

  it("top links without a granularity over a century cost the two ends, not the days between", async () => {
    const top = await countWork(() => history.top({ start: now - 50 * YEAR, end: now + 50 * YEAR, timeZone }));
    expect(top.result.links).toEqual([expect.objectContaining({ linkId: 1, clicks: 4 })]);
    expect(top.result.start).toBeLessThanOrEqual(now - 50 * YEAR);
    expect(top.result.end).toBeGreaterThanOrEqual(now + 50 * YEAR);
    // Before: 36,500 days stepped through (and every year's offsets learnt: 100 years of Intl calls).
    expect(top.steps).toBeLessThanOrEqual(2);
    expect(top.intlCalls).toBeLessThanOrEqual(4 * INTL_CALLS_A_YEAR);
  });

  it("the years of offsets and the steps a clock keeps are bounded", () => {
    const clock = new ZoneClock("America/New_York");
    for (let year = 1970; year < 1970 + MAX_KEPT_YEARS + 10; year += 1) clock.floor("day", Date.UTC(year, 6, 1));
    expect(clock.kept.years).toBe(MAX_KEPT_YEARS);
    expect(clock.floor("day", Date.UTC(2026, 6, 1, 12))).toBe(Date.UTC(2026, 6, 1, 4));
    expect(clock.floor("day", Date.UTC(1970, 0, 5, 12))).toBe(Date.UTC(1970, 0, 5, 5));
    const hours = clock.boundaries("hour", Date.UTC(2000, 0, 1), Date.UTC(2000, 0, 1) + (MAX_KEPT_STEPS + 2_000) * HOUR);
    expect(hours.length).toBeGreaterThan(MAX_KEPT_STEPS);
    expect(clock.kept.steps).toBeLessThanOrEqual(MAX_KEPT_STEPS);
    expect(clock.kept.steps).toBeGreaterThan(0);
    expect(clock.boundaries("hour", hours[5]!, hours[8]!)).toEqual(hours.slice(5, 9));
  });
});

describe("the years a click-history question may name", () => {
  const history = new ClickHistory({ account: "far-years" });
  const lastAccepted = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

  it("the year 9999 is answered; a time after it, or before 1970, is an error naming the field", () => {
    const last = history.series({ linkId: 1, start: lastAccepted - DAY, end: lastAccepted, granularity: "hour", timeZone: "Pacific/Kiritimati" });
    expect(last.buckets).toHaveLength(25);
    expect(fieldsOf(() => history.series({ linkId: 1, start: lastAccepted - DAY, end: lastAccepted + 1, granularity: "hour", timeZone: "UTC" }))).toEqual([
      "end",
    ]);
    expect(fieldsOf(() => history.top({ start: lastAccepted + 1, end: lastAccepted + DAY, timeZone: "UTC" }))).toEqual(["start", "end"]);
    expect(fieldsOf(() => history.recent({ linkId: 1, minutes: 5, at: 8.64e15 }))).toEqual(["at"]);
    expect(fieldsOf(() => calendarPeriod({ period: "month", timeZone: "UTC", at: lastAccepted + 1 }))).toEqual(["at"]);
    expect(fieldsOf(() => history.series({ linkId: 1, start: -DAY, end: DAY, granularity: "hour", timeZone: "UTC" }))).toEqual(["start"]);
  });

  it("a sample's time is bounded alike", () => {
    expect(fieldsOf(() => history.record({ id: 1, clicks: 1 }, lastAccepted + 1))).toEqual(["at"]);
    expect(history.size).toBe(0);
  });

  it("calendarPeriod steps at most as many periods as a series may hold buckets", () => {
    expect(calendarPeriod({ period: "day", timeZone: "UTC", at: Date.UTC(2000, 0, 1), offset: -10_000 }).start).toBe(Date.UTC(2000, 0, 1) - 10_000 * DAY);
    // Before: a step per period, 20,000 of them here (and a billion as readily).
    expect(fieldsOf(() => calendarPeriod({ period: "day", timeZone: "UTC", at: Date.UTC(2000, 0, 1), offset: 20_000 }))).toEqual(["offset"]);
  });
});
