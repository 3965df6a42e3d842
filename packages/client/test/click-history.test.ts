import fc from "fast-check";
import { decodeLink, encodeLink } from "../src/click-history/encoding";
import { ClickHistory, stateHolderStore, ValidationError, type ClickSeries, type Granularity } from "../src/core";

const HOUR = 3_600_000;
const START = Date.UTC(2026, 9, 28, 0, 0, 0);
const ACCOUNT = "https://short.example 0123456789abcdef0123456789abcdef";

interface Sample {
  at: number;
  clicks: number;
}

/** What the samples say, counted as the history must: a drop adds nothing. */
function oracle(samples: Sample[]) {
  const counted: number[] = [];
  const dropped: boolean[] = [];
  samples.forEach((sample, index) => {
    if (index === 0) counted.push(sample.clicks);
    else counted.push(counted[index - 1]! + Math.max(0, sample.clicks - samples[index - 1]!.clicks));
    dropped.push(index > 0 && sample.clicks < samples[index - 1]!.clicks);
  });
  /** The count at `at` when the samples fix it (a sample then, or equal samples around it); else undefined. */
  const countedAt = (at: number): number | undefined => {
    for (let index = 0; index < samples.length; index += 1) {
      if (samples[index]!.at === at) return counted[index];
      if (samples[index]!.at > at) {
        if (index === 0) return undefined;
        return counted[index] === counted[index - 1] && !dropped[index] ? counted[index] : undefined;
      }
    }
    return undefined;
  };
  return { counted, dropped, countedAt };
}

/** A timeline: samples at uneven times (some long pauses), clicks gained between them, now and then a reset. */
const timeline = fc
  .array(
    fc.record({
      pause: fc.oneof(fc.integer({ min: 60, max: 1800 }), fc.integer({ min: 1800, max: 6 * 3600 }), fc.integer({ min: 6 * 3600, max: 30 * 3600 })),
      gained: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 40 })),
      reset: fc.integer({ min: 0, max: 30 }).map((dice) => dice === 0),
    }),
    { minLength: 1, maxLength: 120 },
  )
  .map((steps) => {
    let at = START + 7 * HOUR;
    let clicks = 5;
    const samples: Sample[] = [{ at, clicks }];
    for (const step of steps) {
      at += step.pause * 1000;
      clicks = step.reset ? step.gained : clicks + step.gained;
      samples.push({ at, clicks });
    }
    return samples;
  });

const TOLERANCE: Record<Granularity, number> = { hour: 5 * 60_000, day: HOUR, week: HOUR, month: HOUR };

function checkSeries(series: ClickSeries, samples: Sample[]): void {
  const { countedAt } = oracle(samples);
  const tolerance = TOLERANCE[series.granularity];
  let sum = 0;
  for (const bucket of series.buckets) {
    if (bucket.clicks === null) {
      expect(["gap", "none"]).toContain(bucket.quality);
      continue;
    }
    expect(bucket.clicks).toBeGreaterThanOrEqual(0);
    sum += bucket.clicks;
    const low = countedAt(bucket.measuredFrom!);
    const high = countedAt(bucket.measuredTo!);
    if (bucket.quality === "exact") {
      // Never finer than sampled: measured at (or within the tolerance of) both boundaries.
      expect(Math.abs(bucket.measuredFrom! - bucket.start)).toBeLessThanOrEqual(tolerance);
      expect(Math.abs(bucket.measuredTo! - bucket.end)).toBeLessThanOrEqual(tolerance);
      expect(low).toBeDefined();
      expect(high).toBeDefined();
    }
    // A spread count shares out an interval (thinning may have widened it): only measured counts are differences of samples.
    if (bucket.quality !== "spread" && low !== undefined && high !== undefined) expect(bucket.clicks).toBe(high - low);
    // Before the first sample there is no data, not zero.
    if (bucket.end < samples[0]!.at - tolerance) throw new Error("a bucket before the first sample has a count");
  }
  for (const bucket of series.buckets) if (bucket.end <= samples[0]!.at - tolerance) expect(bucket).toMatchObject({ clicks: null, quality: "none" });
  const unplaced = series.unplaced.reduce((total, span) => total + span.clicks, 0);
  if (series.total === null) expect(series.buckets.every((bucket) => bucket.clicks === null)).toBe(true);
  else {
    expect(series.total).toBe(sum + unplaced);
    const known = series.buckets.filter((bucket) => bucket.clicks !== null);
    const [low, high] = [countedAt(series.measuredFrom!), countedAt(series.measuredTo!)];
    const measuredEnds = known[0]!.quality !== "spread" && known[known.length - 1]!.quality !== "spread";
    if (measuredEnds && low !== undefined && high !== undefined) expect(series.total).toBe(high - low);
  }
}

function historyOf(samples: Sample[], options: { account?: string; store?: ReturnType<typeof stateHolderStore> } = {}) {
  let now = samples[0]!.at;
  const history = new ClickHistory({ account: options.account ?? ACCOUNT, store: options.store, crossedReadMs: 0, now: () => now });
  for (const sample of samples) {
    now = sample.at;
    history.record({ id: 7, clicks: sample.clicks }, sample.at);
  }
  return history;
}

describe("click history from sampled totals", () => {
  it("sums equal the sampled differences, no bucket is finer than its samples, nothing before the first sample", () => {
    fc.assert(
      fc.property(
        timeline,
        fc.constantFrom<Granularity>("hour", "day", "week"),
        fc.constantFrom("UTC", "America/New_York", "Europe/Berlin", "Asia/Kolkata"),
        fc.integer({ min: 0, max: 10 * 24 }),
        fc.integer({ min: 1, max: 8 * 24 }),
        (samples, granularity, timeZone, fromHours, hours) => {
          const history = historyOf(samples);
          const series = history.series({ linkId: 7, start: START + fromHours * HOUR, end: START + (fromHours + hours) * HOUR, granularity, timeZone });
          checkSeries(series, samples);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a total that goes down is flagged on its bucket and never subtracts", () => {
    const samples = [
      { at: START, clicks: 50 },
      { at: START + HOUR / 4, clicks: 60 },
      { at: START + HOUR / 2, clicks: 3 },
      { at: START + (3 * HOUR) / 4, clicks: 9 },
    ];
    const series = historyOf(samples).series({ linkId: 7, start: START, end: START + HOUR, granularity: "hour", timeZone: "UTC" });
    expect(series.buckets).toHaveLength(1);
    expect(series.buckets[0]).toMatchObject({ clicks: 16, reset: true, quality: "partial" });
    expect(series.total).toBe(16);
  });

  it("clicks gained while nothing was sampling are a gap, stated apart, not spread over the hours", () => {
    const samples = [
      { at: START, clicks: 0 },
      { at: START + HOUR / 2, clicks: 4 },
      { at: START + 6 * HOUR + HOUR / 2, clicks: 104 },
      { at: START + 7 * HOUR, clicks: 110 },
    ];
    const series = historyOf(samples).series({ linkId: 7, start: START, end: START + 8 * HOUR, granularity: "hour", timeZone: "UTC" });
    expect(series.buckets.map((bucket) => bucket.quality)).toEqual(["partial", "gap", "gap", "gap", "gap", "gap", "partial", "none"]);
    expect(series.buckets.map((bucket) => bucket.clicks)).toEqual([4, null, null, null, null, null, 6, null]);
    expect(series.unplaced).toEqual([{ from: START + HOUR / 2, to: START + 6 * HOUR + HOUR / 2, clicks: 100 }]);
    expect(series.total).toBe(110);
  });

  it("a longer sampling interval while running is spread, and flagged so", () => {
    const history = new ClickHistory({ account: ACCOUNT, gapAfterMs: 12 * HOUR, now: () => START + 6 * HOUR });
    history.record({ id: 7, clicks: 0 }, START);
    history.record({ id: 8, clicks: 0 }, START + 2 * HOUR); // the account was sampled meanwhile
    history.record({ id: 7, clicks: 60 }, START + 6 * HOUR);
    const series = history.series({ linkId: 7, start: START, end: START + 6 * HOUR, granularity: "hour", timeZone: "UTC" });
    expect(series.buckets.map((bucket) => [bucket.clicks, bucket.quality])).toEqual([
      [10, "spread"],
      [10, "spread"],
      [10, "spread"],
      [10, "spread"],
      [10, "spread"],
      [10, "spread"],
    ]);
  });

  it("a history saved and loaded again answers the same series (a restart)", async () => {
    await fc.assert(
      fc.asyncProperty(timeline, async (samples) => {
        let kept: unknown;
        const store = stateHolderStore({ get: () => kept, set: (state) => (kept = JSON.parse(JSON.stringify(state))) });
        const history = historyOf(samples, { store });
        await history.save();
        const again = new ClickHistory({ account: ACCOUNT, store, now: () => samples[samples.length - 1]!.at });
        await again.load();
        const query = { linkId: 7, start: START, end: START + 12 * 24 * HOUR, granularity: "day" as const, timeZone: "Europe/Berlin" };
        expect(again.series(query)).toEqual(history.series(query));
      }),
      { numRuns: 60 },
    );
  });

  it("a link that gains no clicks costs two checkpoints however long it is sampled", () => {
    const history = new ClickHistory({ account: ACCOUNT, now: () => START });
    for (let step = 0; step < 90 * 96; step += 1) history.record({ id: 3, clicks: 12 }, START + step * 15 * 60_000);
    const text = history.state().links["3"]!;
    expect(text.length).toBeLessThan(24);
    const series = history.series({ linkId: 3, start: START + 24 * HOUR, end: START + 48 * HOUR, granularity: "hour", timeZone: "UTC" });
    expect(series.buckets.every((bucket) => bucket.clicks === 0 && bucket.quality === "exact")).toBe(true);
  });

  it("a stored history of another account, or a damaged one, starts empty with a note", async () => {
    const other = historyOf([{ at: START, clicks: 1 }], { account: "https://other.example 00" });
    for (const stored of [
      other.state(),
      { version: 1, account: ACCOUNT, runningSince: null, lastSampleAt: null, links: { 7: "!!" } },
      "not a state",
      { version: 2 },
    ]) {
      const history = new ClickHistory({ account: ACCOUNT, store: stateHolderStore({ get: () => stored, set: () => undefined }) });
      await history.load();
      expect(history.size).toBe(0);
      expect(history.notes).toHaveLength(1);
      expect(history.notes[0]).toMatch(/another account|damaged/);
    }
  });

  it("bad questions get a field-named ValidationError", () => {
    const history = historyOf([{ at: START, clicks: 1 }]);
    const fields = (ask: () => unknown) => {
      try {
        ask();
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
        return (error as ValidationError).fields;
      }
      throw new Error("no error");
    };
    expect(fields(() => history.series({ linkId: 7, start: START, end: START + HOUR, granularity: "minute" as never, timeZone: "UTC" }))).toEqual([
      "granularity",
    ]);
    expect(fields(() => history.series({ linkId: 7, start: START, end: START + HOUR, granularity: "hour", timeZone: "Europe/Atlantis" }))).toEqual([
      "timeZone",
    ]);
    expect(fields(() => history.series({ linkId: 7, start: START, end: START, granularity: "hour", timeZone: "UTC" }))).toEqual(["end"]);
    expect(fields(() => history.series({ linkId: 7, start: 0, end: START, granularity: "hour", timeZone: "UTC" }))).toEqual(["end"]);
    expect(fields(() => history.recent({ linkId: 7, minutes: 0 }))).toEqual(["minutes"]);
    expect(fields(() => history.recent({ linkId: 7, minutes: 2.5 }))).toEqual(["minutes"]);
    expect(fields(() => history.top({ start: START, end: START + HOUR, timeZone: "UTC", limit: -1 }))).toEqual(["limit"]);
    expect(fields(() => history.record({ id: 7, clicks: -1 }))).toEqual(["clicks"]);
    expect(
      fields(() =>
        history.record([
          { id: 7, clicks: 1 },
          { id: 0, clicks: 1 },
        ]),
      ),
    ).toEqual(["1.id"]);
    expect(fields(() => history.record({ id: 7, clicks: 1 }, Number.NaN))).toEqual(["at"]);
    expect(fields(() => new ClickHistory({ account: ACCOUNT, timeZone: "Nowhere/City" }))).toEqual(["timeZone"]);
    expect(fields(() => new ClickHistory({ account: ACCOUNT, gapAfterMs: 0 }))).toEqual(["gapAfterMs"]);
  });

  it("the top links over a period, most clicks first, with their series when asked", () => {
    const history = new ClickHistory({ account: ACCOUNT, now: () => START + 24 * HOUR });
    for (let step = 0; step <= 96; step += 1) {
      history.record(
        [1, 2, 3, 4].map((id) => ({ id, clicks: step * id * (id === 4 ? 0 : 1) })),
        START + step * 15 * 60_000,
      );
    }
    const top = history.top({ start: START, end: START + 24 * HOUR, timeZone: "UTC", limit: 2, granularity: "hour" });
    expect(top.links.map((link) => [link.linkId, link.clicks, link.quality])).toEqual([
      [3, 288, "exact"],
      [2, 192, "exact"],
    ]);
    expect(top.links[0]!.series!.buckets).toHaveLength(24);
    expect(top.links[0]!.series!.total).toBe(288);
  });

  it("the clicks of the last minutes, for rates", () => {
    const history = new ClickHistory({ account: ACCOUNT, now: () => START + HOUR });
    for (let minute = 0; minute <= 60; minute += 1) history.record({ id: 5, clicks: minute * 2 }, START + minute * 60_000);
    expect(history.recent({ linkId: 5, minutes: 10 })).toMatchObject({ clicks: 20, quality: "exact" });
    expect(history.recent({ linkId: 6, minutes: 10 })).toMatchObject({ clicks: null, quality: "none" });
  });
});

describe("a link's history as stored text", () => {
  it("reads back exactly what was written, any times, counts and marks", () => {
    const channel = fc
      .array(fc.record({ step: fc.integer({ min: 1, max: 2 ** 31 }), gained: fc.integer({ min: 0, max: 2 ** 40 }), flags: fc.integer({ min: 0, max: 3 }) }), {
        minLength: 1,
        maxLength: 50,
      })
      .chain((steps) =>
        fc.record({ raw: fc.integer({ min: 0, max: 2 ** 45 }), first: fc.integer({ min: 0, max: 2 ** 34 }) }).map(({ raw, first }) => {
          const points: number[] = [];
          let [at, counted] = [first, 0];
          steps.forEach((step, index) => {
            if (index > 0) at += step.step;
            counted += step.gained;
            points.push(at, counted * 4 + (index === 0 ? 0 : step.flags));
          });
          return { points, raw };
        }),
      );
    fc.assert(
      fc.property(channel, fc.option(channel, { nil: undefined }), (clicks, unique) => {
        expect(decodeLink(encodeLink({ clicks, unique }))).toEqual({ clicks, unique });
      }),
    );
    expect(() => decodeLink("A")).toThrow();
    expect(() => decodeLink("AA*A")).toThrow();
  });
});

test("firstSampleAt: how far the history reaches, the earliest sample of any link, kept across a save and load; null before any", async () => {
  let saved: unknown;
  const store = stateHolderStore({ get: () => saved, set: (value) => (saved = value) });
  let now = START;
  const history = new ClickHistory({ account: ACCOUNT, store, now: () => now });
  expect(history.firstSampleAt).toBeNull();
  history.record({ id: 2, clicks: 5 }, START + HOUR);
  history.record(
    [
      { id: 1, clicks: 0 },
      { id: 2, clicks: 7 },
    ],
    START + 2 * HOUR,
  );
  expect(history.firstSampleAt).toBe(START + HOUR);
  // Thinned by a month of samples, the first one stays the start of what is known.
  for (let day = 1; day <= 30; day += 1)
    history.record(
      [
        { id: 1, clicks: day },
        { id: 2, clicks: 7 + day },
      ],
      START + day * 24 * HOUR,
    );
  now = START + 31 * 24 * HOUR;
  await history.save();
  const reloaded = new ClickHistory({ account: ACCOUNT, store, now: () => now });
  await reloaded.load();
  expect(reloaded.firstSampleAt).toBe(START + HOUR);
  expect(reloaded.series({ linkId: 2, start: START, end: START + 24 * HOUR, granularity: "day", timeZone: "UTC" }).firstSampleAt).toBe(START + HOUR);
});
