/** The click-history kit the front ends share: sampling while a host reads, the account's series, the last days, an hour of a day, the default granularity, ISO or null. */
import {
  accountSeriesOf,
  calendarPeriod,
  ClickHistory,
  defaultGranularity,
  hourOfDay,
  isoOrNull,
  lastDays,
  sampleWhile,
  stateHolderStore,
  ValidationError,
  type ClickHistoryState,
  type ClickSeries,
} from "../src/core";
import { linksPage, scripted } from "./helpers";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe("sampleWhile", () => {
  it("loads the history, records what the client reads while the host reads, stops, then saves: no request of its own", async () => {
    const { client, sent, clock } = scripted([linksPage([{ id: 1, clicks: 4 }]), linksPage([{ id: 1, clicks: 9 }]), linksPage([{ id: 1, clicks: 30 }])]);
    let kept: ClickHistoryState | undefined;
    const store = stateHolderStore({ get: () => kept, set: (state) => void (kept = state) });
    const history = new ClickHistory({ account: client.accountId, store, now: clock.now, saveEveryMs: Number.MAX_SAFE_INTEGER });
    const result = await sampleWhile(history, client, async () => {
      await client.links.list();
      clock.time += HOUR;
      await client.links.list();
      return "read";
    });
    expect(result).toBe("read");
    expect(sent).toHaveLength(2);
    expect(kept?.links["1"]).toBeDefined();
    expect(kept?.lastSampleAt).toBe(clock.time / 1000);
    // Stopped: a later read is not recorded.
    clock.time += HOUR;
    await client.links.list();
    expect(history.state().lastSampleAt).toBe((clock.time - HOUR) / 1000);
    // A history kept in the holder is what the next host's run goes on from.
    const next = new ClickHistory({ account: client.accountId, store, now: clock.now });
    await next.load();
    expect(next.size).toBe(1);
  });

  it("saves nothing when the read fails, and throws its error", async () => {
    const { client, clock } = scripted([linksPage([{ id: 1, clicks: 4 }])]);
    let saved = 0;
    const history = new ClickHistory({
      account: client.accountId,
      store: stateHolderStore({ get: () => undefined, set: () => void (saved += 1) }),
      now: clock.now,
      saveEveryMs: Number.MAX_SAFE_INTEGER,
    });
    const failure = new Error("the host failed");
    await expect(sampleWhile(history, client, () => Promise.reject(failure))).rejects.toBe(failure);
    expect(saved).toBe(0);
    // Stopped all the same.
    await client.links.list();
    expect(history.size).toBe(0);
  });
});

describe("lastDays", () => {
  it("is today and the days before it in the zone, whole days across a change of summer time", () => {
    // Sunday 26 October 2025 has 25 hours in Berlin.
    const at = Date.UTC(2025, 9, 28, 22, 30);
    const range = lastDays({ days: 7, timeZone: "Europe/Berlin", at });
    expect(range).toEqual({ start: Date.UTC(2025, 9, 21, 22), end: Date.UTC(2025, 9, 28, 23) });
    expect(range.end - range.start).toBe(7 * DAY + HOUR);
    expect(range).toEqual({
      start: calendarPeriod({ period: "day", timeZone: "Europe/Berlin", at, offset: -6 }).start,
      end: calendarPeriod({ period: "day", timeZone: "Europe/Berlin", at }).end,
    });
    expect(lastDays({ days: 1, timeZone: "UTC", at: Date.UTC(2026, 0, 1) })).toEqual({ start: Date.UTC(2026, 0, 1), end: Date.UTC(2026, 0, 2) });
  });

  it("refuses what is not a number of days, zone and moment", () => {
    expect(() => lastDays({ days: 0, timeZone: "Mars/Base", at: -1 })).toThrow(ValidationError);
  });
});

describe("hourOfDay", () => {
  it("is when the zone's clock first shows the hour on that day", () => {
    expect(hourOfDay({ at: Date.UTC(2026, 10, 23), hour: 9, timeZone: "UTC" })).toBe(Date.UTC(2026, 10, 23, 9));
    expect(hourOfDay({ at: Date.UTC(2026, 10, 23, 20), hour: 9, timeZone: "UTC" })).toBe(Date.UTC(2026, 10, 23, 9));
    // Berlin, 29 March 2026: 02:00 is skipped (the hour begins at 03:00 CEST), 03:00 is an hour later by the clock.
    const spring = Date.UTC(2026, 2, 28, 23);
    expect(hourOfDay({ at: spring, hour: 1, timeZone: "Europe/Berlin" })).toBe(Date.UTC(2026, 2, 29, 0));
    expect(hourOfDay({ at: spring, hour: 2, timeZone: "Europe/Berlin" })).toBe(Date.UTC(2026, 2, 29, 1));
    expect(hourOfDay({ at: spring, hour: 3, timeZone: "Europe/Berlin" })).toBe(Date.UTC(2026, 2, 29, 1));
    expect(hourOfDay({ at: spring, hour: 4, timeZone: "Europe/Berlin" })).toBe(Date.UTC(2026, 2, 29, 2));
    // Berlin, 25 October 2026: 02:00 comes twice; the first is the hour's start.
    const autumn = Date.UTC(2026, 9, 24, 22);
    expect(hourOfDay({ at: autumn, hour: 2, timeZone: "Europe/Berlin" })).toBe(Date.UTC(2026, 9, 25, 0));
    expect(hourOfDay({ at: autumn, hour: 3, timeZone: "Europe/Berlin" })).toBe(Date.UTC(2026, 9, 25, 2));
    expect(hourOfDay({ at: autumn, hour: 23, timeZone: "Europe/Berlin" })).toBe(Date.UTC(2026, 9, 25, 22));
  });

  it("keeps a half-hour change of summer time: Lord Howe's clock shows 03:00 half an hour after its 02:00 went to 02:30", () => {
    // 4 October 2026 at 02:00 (+10:30) Lord Howe Island goes to 02:30 (+11).
    const day = Date.UTC(2026, 9, 3, 13, 30);
    expect(hourOfDay({ at: day, hour: 2, timeZone: "Australia/Lord_Howe" })).toBe(Date.UTC(2026, 9, 3, 15, 30));
    expect(hourOfDay({ at: day, hour: 3, timeZone: "Australia/Lord_Howe" })).toBe(Date.UTC(2026, 9, 3, 16));
  });

  it("refuses an hour outside 0 to 23", () => {
    expect(() => hourOfDay({ at: 0, hour: 24, timeZone: "UTC" })).toThrow(/hour/);
  });
});

it("defaultGranularity: hours up to 2 days, days up to 120, months beyond", () => {
  expect(defaultGranularity(0, 2 * DAY)).toBe("hour");
  expect(defaultGranularity(0, 2 * DAY + 1)).toBe("day");
  expect(defaultGranularity(0, 120 * DAY)).toBe("day");
  expect(defaultGranularity(0, 120 * DAY + 1)).toBe("month");
});

it("isoOrNull", () => {
  expect(isoOrNull(null)).toBeNull();
  expect(isoOrNull(Date.UTC(2026, 10, 20, 8))).toBe("2026-11-20T08:00:00.000Z");
});

describe("accountSeriesOf", () => {
  const START = Date.UTC(2026, 10, 20);
  const seriesOf = (linkId: number, buckets: Array<[number | null, "exact" | "spread" | "none"]>, unplaced = 0): ClickSeries => ({
    linkId,
    timeZone: "UTC",
    granularity: "hour",
    start: START,
    end: START + buckets.length * HOUR,
    buckets: buckets.map(([clicks, quality], index) => ({
      start: START + index * HOUR,
      end: START + (index + 1) * HOUR,
      clicks,
      quality,
      measuredFrom: null,
      measuredTo: null,
      uniqueClicks: null,
      uniqueQuality: "none",
      reset: false,
    })),
    total: null,
    uniqueTotal: null,
    measuredFrom: null,
    measuredTo: null,
    firstSampleAt: null,
    lastSampleAt: null,
    unplaced: unplaced > 0 ? [{ from: START, to: START + HOUR, clicks: unplaced }] : [],
  });
  const one = seriesOf(
    1,
    [
      [3, "exact"],
      [null, "none"],
      [2, "spread"],
      [null, "none"],
    ],
    4,
  );
  const two = seriesOf(
    2,
    [
      [5, "exact"],
      [1, "exact"],
      [null, "none"],
      [null, "none"],
    ],
    1,
  );

  it("adds the links' buckets up; a link with no data in a bucket makes it spread", () => {
    expect(accountSeriesOf([one, two])).toEqual({
      granularity: "hour",
      timeZone: "UTC",
      buckets: [
        { start: START, count: 8, exact: true },
        { start: START + HOUR, count: 1, exact: false },
        { start: START + 2 * HOUR, count: 2, exact: false },
        { start: START + 3 * HOUR, count: null, exact: false },
      ],
      unplaced: 5,
    });
    expect(accountSeriesOf([])).toBeUndefined();
  });

  it("with where the account was sampled: no link's clicks there is 0, and a link with no data adds nothing", () => {
    const sampled = seriesOf(9, [
      [0, "exact"],
      [0, "exact"],
      [0, "spread"],
      [null, "none"],
    ]);
    expect(accountSeriesOf([one, two], sampled)?.buckets).toEqual([
      { start: START, count: 8, exact: true },
      { start: START + HOUR, count: 1, exact: true },
      { start: START + 2 * HOUR, count: 2, exact: false },
      { start: START + 3 * HOUR, count: null, exact: true },
    ]);
    expect(accountSeriesOf([], sampled)?.buckets.map((bucket) => bucket.count)).toEqual([0, 0, 0, null]);
  });
});
