/**
 * The stretches of time the front ends ask a click history about, in a zone's calendar: a
 * calendar period, the last days up to today, the moment an hour of a day begins, and the bucket
 * size a range is shown in by default. Every one reads the zone through `zoneClock`.
 */
import * as z from "zod/v4";
import { validate } from "../internal/validate";
import { ClickMomentSchema, HourSchema, PeriodQuerySchema, TimeZoneSchema, type PeriodQuery } from "./schemas";
import { zoneClock, type Granularity } from "./zone";

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** The calendar `period` (day, week from Monday, month) in `timeZone` that holds `at` (default now), or `offset` periods from it. */
export function calendarPeriod(query: PeriodQuery, now: () => number = Date.now): { start: number; end: number } {
  const checked = validate(PeriodQuerySchema, query, "calendarPeriod");
  const clock = zoneClock(checked.timeZone);
  let start = clock.floor(checked.period, checked.at ?? now());
  for (let step = 0; step < Math.abs(checked.offset ?? 0); step += 1) {
    start = (checked.offset ?? 0) > 0 ? clock.next(checked.period, start) : clock.floor(checked.period, start - 1);
  }
  return { start, end: clock.next(checked.period, start) };
}

const LastDaysSchema = z.strictObject({
  days: z.number("must be a number").int("must be a whole number").min(1, "must be at least 1").max(3660, "must be at most 3660"),
  timeZone: TimeZoneSchema,
  at: ClickMomentSchema,
});

/** The last `days` whole days in `timeZone` up to the end of the day that holds `at`: today and the `days - 1` before it. */
export function lastDays(query: { days: number; timeZone: string; at: number }): { start: number; end: number } {
  const { days, timeZone, at } = validate(LastDaysSchema, query, "lastDays");
  const today = calendarPeriod({ period: "day", timeZone, at });
  return { start: calendarPeriod({ period: "day", timeZone, at, offset: -(days - 1) }).start, end: today.end };
}

const HourOfDaySchema = z.strictObject({ at: ClickMomentSchema, hour: HourSchema, timeZone: TimeZoneSchema });

/**
 * When `hour` o'clock begins in `timeZone` on the day that holds `at`: the first moment its clock
 * shows that hour (the end of the gap when summer time skips it).
 */
export function hourOfDay(query: { at: number; hour: number; timeZone: string }): number {
  const { at, hour, timeZone } = validate(HourOfDaySchema, query, "hourOfDay");
  const clock = zoneClock(timeZone);
  const wall = clock.wallAt(at);
  return clock.instantOf(wall - (((wall % DAY) + DAY) % DAY) + hour * HOUR);
}

/** The bucket size a range from `start` to `end` is shown in when none is asked: hours up to 2 days, days up to 120, months beyond. */
export function defaultGranularity(start: number, end: number): Granularity {
  return end - start <= 2 * DAY ? "hour" : end - start <= 120 * DAY ? "day" : "month";
}
