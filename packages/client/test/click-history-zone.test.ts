import fc from "fast-check";
import { calendarPeriod, ValidationError } from "../src/core";
import { ZoneClock } from "../src/click-history/zone";

/** The oracle: what Intl says the local date and hour are at an instant. */
function localLabel(timeZone: string, ms: number): { date: string; hour: string; weekday: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", weekday: "short" })
      .formatToParts(new Date(ms))
      .map((part) => [part.type, part.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, hour: parts.hour!, weekday: parts.weekday! };
}

/** The oracle's UTC offset at an instant ("GMT-03:00"). */
const offsetOf = (timeZone: string, ms: number) =>
  new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" }).formatToParts(new Date(ms)).find((part) => part.type === "timeZoneName")!.value;

const ZONES = [
  "UTC",
  "America/New_York",
  "Europe/Berlin",
  "Asia/Kolkata",
  "Australia/Lord_Howe",
  "America/Santiago",
  "Pacific/Apia",
  "Asia/Kathmandu",
  "America/St_Johns",
];
const FROM = Date.UTC(2010, 0, 1);
const TO = Date.UTC(2030, 0, 1);

describe("calendar periods in a time zone", () => {
  it("an hour bucket is the stretch of one local hour, whatever the zone's offset changes", () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.integer({ min: FROM / 1000, max: TO / 1000 }), (timeZone, second) => {
        const clock = new ZoneClock(timeZone);
        const at = second * 1000;
        const start = clock.floor("hour", at);
        const end = clock.next("hour", start);
        expect(start).toBeLessThanOrEqual(at);
        expect(end).toBeGreaterThan(at);
        const label = localLabel(timeZone, at);
        for (const inside of [start, end - 1000]) expect(localLabel(timeZone, inside)).toMatchObject({ date: label.date, hour: label.hour });
        const before = localLabel(timeZone, start - 1000);
        // The second of a repeated hour (clocks set back) is a bucket of its own: the same label, another offset.
        if (`${before.date} ${before.hour}` === `${label.date} ${label.hour}`) expect(offsetOf(timeZone, start - 1000)).not.toBe(offsetOf(timeZone, start));
      }),
      // Found by a run: Santiago's clocks went back from midnight to 23:00 on 28 April 2012.
      {
        numRuns: 400,
        examples: [
          ["America/Santiago", 1335668400],
          ["America/New_York", Date.UTC(2021, 10, 7, 6, 30) / 1000],
        ],
      },
    );
  });

  it("a day starts at the first instant of its local date, and a week on Monday", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: FROM / 1000, max: TO / 1000 }),
        fc.constantFrom("day" as const, "week" as const, "month" as const),
        (timeZone, second, unit) => {
          const clock = new ZoneClock(timeZone);
          const at = second * 1000;
          const start = clock.floor(unit, at);
          const end = clock.next(unit, start);
          expect(start).toBeLessThanOrEqual(at);
          expect(end).toBeGreaterThan(at);
          expect(localLabel(timeZone, start - 1000).date).not.toBe(localLabel(timeZone, start).date);
          if (unit === "day") expect(localLabel(timeZone, start).date).toBe(localLabel(timeZone, at).date);
          if (unit === "week") expect(localLabel(timeZone, start).weekday).toBe("Mon");
          if (unit === "month") expect(localLabel(timeZone, start).date.slice(8)).toBe("01");
        },
      ),
      { numRuns: 400 },
    );
  });

  it("the day summer time ends in New York has 25 hour buckets, the day it starts 23", () => {
    const clock = new ZoneClock("America/New_York");
    const hoursOf = (day: number) => clock.boundaries("hour", clock.floor("day", day), clock.next("day", clock.floor("day", day))).length - 1;
    expect(hoursOf(Date.UTC(2026, 10, 1, 12))).toBe(25);
    expect(hoursOf(Date.UTC(2026, 2, 8, 12))).toBe(23);
    expect(hoursOf(Date.UTC(2026, 2, 9, 12))).toBe(24);
  });

  it("calendarPeriod gives the period holding a moment, or one before it", () => {
    const at = Date.UTC(2026, 10, 26, 3, 30); // Thursday 04:30 in Berlin
    expect(calendarPeriod({ period: "day", timeZone: "Europe/Berlin", at })).toEqual({ start: Date.UTC(2026, 10, 25, 23), end: Date.UTC(2026, 10, 26, 23) });
    expect(calendarPeriod({ period: "week", timeZone: "Europe/Berlin", at, offset: -1 })).toEqual({
      start: Date.UTC(2026, 10, 15, 23),
      end: Date.UTC(2026, 10, 22, 23),
    });
    expect(calendarPeriod({ period: "month", timeZone: "America/New_York", at })).toEqual({ start: Date.UTC(2026, 10, 1, 4), end: Date.UTC(2026, 11, 1, 5) });
  });

  it("an unknown time zone or a period other than day, week or month is a field-named ValidationError", () => {
    const attempt = (query: object) => {
      try {
        calendarPeriod(query as never);
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
        return (error as ValidationError).fields;
      }
      throw new Error("no error");
    };
    expect(attempt({ period: "day", timeZone: "Mars/Olympus" })).toEqual(["timeZone"]);
    expect(attempt({ period: "year", timeZone: "UTC" })).toEqual(["period"]);
    expect(attempt({ period: "day", timeZone: "UTC", offset: 0.5 })).toEqual(["offset"]);
  });
});
