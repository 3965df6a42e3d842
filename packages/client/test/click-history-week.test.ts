/**
 * A week of clicks replayed against the sandbox on a controlled clock, sampled only by the reads the
 * client makes anyway (the link index's syncs, a link's Get), with restarts, missed samples, a gap,
 * a reset link and the end of summer time in New York. Every count is checked against the visits
 * the test made.
 */
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { emptyStats, startSandbox, visitsBetween, type Sandbox } from "@linkshort/sandbox";
import { ClickHistory, FileClickHistoryStore, LinkIndex, LinkShortClient, RateLimiter, type ClickSeries, type Granularity } from "../src";
import { fillLinks } from "./fill-links";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const STEP = 15 * MINUTE;
const START = Date.UTC(2026, 9, 29, 0, 0); // Thursday; New York leaves summer time on Sunday 1 November
const LINKS = 8;
const RESET_LINK = 5;

let time = START;
let sandbox: Sandbox;
let client: LinkShortClient;
let storePath: string;
const visits = new Map<number, number[]>();
let resetAt = 0;

/** A repeatable generator (xorshift). */
let seed = 2463534242;
const random = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 2 ** 32;
};

async function visit(link: number, at: number): Promise<void> {
  time = at;
  const answer = await fetch(`${sandbox.baseUrl}/fill${link}`, {
    redirect: "manual",
    headers: { "user-agent": `visitor-${Math.floor(random() * 50)}`, "x-forwarded-for": `10.0.0.${link}` },
  });
  expect(answer.status).toBe(302);
  visits.get(link)!.push(at);
}

/** Visits of a link made in (from, to]: visits never fall on a sample's second. */
function truth(link: number, from: number, to: number): number {
  return visits.get(link)!.filter((at) => at > from && at <= to).length;
}

function linkIdOf(link: number): number {
  return sandbox.store.state.links.find((record) => record.alias === `fill${link}`)!.id;
}

function check(series: ClickSeries, link: number): void {
  const tolerance = series.granularity === "hour" ? 5 * MINUTE : HOUR;
  let sum = 0;
  for (const bucket of series.buckets) {
    if (bucket.clicks === null) continue;
    sum += bucket.clicks;
    if (bucket.quality === "exact") {
      expect(Math.abs(bucket.measuredFrom! - bucket.start)).toBeLessThanOrEqual(tolerance);
      expect(Math.abs(bucket.measuredTo! - bucket.end)).toBeLessThanOrEqual(tolerance);
    }
    if ((bucket.quality === "exact" || bucket.quality === "partial") && !bucket.reset) {
      expect([bucket.start, bucket.clicks]).toEqual([bucket.start, truth(link, bucket.measuredFrom!, bucket.measuredTo!)]);
    }
  }
  for (const span of series.unplaced) expect(span.clicks).toBe(truth(link, span.from, span.to));
  if (series.total !== null) {
    expect(series.total).toBe(sum + series.unplaced.reduce((total, span) => total + span.clicks, 0));
    // Measured at samples at both ends (not shared out of an interval): the visits between them.
    const known = series.buckets.filter((bucket) => bucket.clicks !== null);
    const measuredEnds = known[0]!.quality !== "spread" && known[known.length - 1]!.quality !== "spread";
    if (link !== RESET_LINK && measuredEnds) expect(series.total).toBe(truth(link, series.measuredFrom!, series.measuredTo!));
  }
}

function newHistory(): ClickHistory {
  return new ClickHistory({
    account: client.accountId,
    store: new FileClickHistoryStore(storePath),
    timeZone: "America/New_York",
    gapAfterMs: 2 * HOUR,
    now: () => time,
  });
}

beforeAll(async () => {
  sandbox = await startSandbox({ seed: "minimal", now: () => time, rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  fillLinks(sandbox, LINKS);
  for (let link = 0; link < LINKS; link += 1) visits.set(link, []);
  client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter() } });
  storePath = FileClickHistoryStore.besideIndex(join(mkdtempSync(join(tmpdir(), "linkshort-clicks-")), "index.json")).path;
});
afterAll(() => sandbox.close());

it("a week of sampled clicks: sums equal the visits between samples, no bucket finer than its samples, gaps and resets told", async () => {
  let history = newHistory();
  await history.load();
  let stop = history.observe(client);
  const index = new LinkIndex({ account: client.accountId, now: () => time, minSyncIntervalMs: 0, sweepEveryMs: 0 });
  const missedFrom = START + 2 * 24 * HOUR + 10 * HOUR;
  const gapFrom = START + 4 * 24 * HOUR + 20 * HOUR;
  const gapTo = gapFrom + 7 * HOUR;
  const quickRestartAt = START + 3 * 24 * HOUR + 12 * HOUR;
  resetAt = START + 5 * 24 * HOUR + 14 * HOUR + 7 * MINUTE;
  const steps = (7 * 24 * HOUR) / STEP;

  for (let step = 0; step < steps; step += 1) {
    const at = START + step * STEP;
    time = at;
    if (at === quickRestartAt || at === gapTo) {
      // A restart: the process stops (saving first, when it is not down), and a new one loads the file.
      if (at === quickRestartAt) await history.save();
      stop();
      history = newHistory();
      await history.load();
      expect(history.notes).toEqual([]);
      stop = history.observe(client);
    }
    const missed = at >= missedFrom && at < missedFrom + 90 * MINUTE;
    const down = at >= gapFrom && at < gapTo;
    if (!missed && !down) {
      await index.sync(client);
      if (step % 4 === 0) await client.links.get(linkIdOf(3));
    }
    if (at === gapFrom) await history.save();
    if (at <= resetAt && resetAt < at + STEP) {
      sandbox.store.state.links.find((record) => record.alias === `fill${RESET_LINK}`)!.stats = emptyStats();
    }
    // Busier in the afternoon (UTC), a few visits a quarter hour, in the order of their times.
    const hour = new Date(at).getUTCHours();
    const planned: Array<[number, number]> = [];
    for (let link = 0; link < LINKS; link += 1) {
      const expected = (link % 4) * (hour >= 12 && hour < 20 ? 0.9 : 0.25);
      for (let tries = 0; tries < 3; tries += 1) if (random() < expected / 3) planned.push([at + (1 + Math.floor(random() * 898)) * 1000, link]);
    }
    for (const [visitAt, link] of planned.sort((a, b) => a[0] - b[0])) await visit(link, visitAt);
    if ((step + 1) % 96 === 0 && !down) {
      // At the end of each UTC day: the last day by the hour in New York, still at the history's finest.
      time = at + STEP;
      await index.sync(client);
      for (let link = 0; link < LINKS; link += 1) {
        const series = history.series({ linkId: linkIdOf(link), start: time - 24 * HOUR, end: time, granularity: "hour", timeZone: "America/New_York" });
        check(series, link);
        const qualities = series.buckets.map((bucket) => bucket.quality);
        // Sampled every quarter hour: hours measured exactly; the missed samples shared out and the night nothing ran a gap, each said so.
        const overlaps = (from: number, to: number) => time - 24 * HOUR < to && from < time;
        if (!overlaps(missedFrom, missedFrom + 2 * HOUR) && !overlaps(gapFrom, gapTo + HOUR))
          expect(qualities.every((quality) => quality === "exact")).toBe(true);
        if (link === 3 && overlaps(missedFrom, missedFrom + 2 * HOUR))
          expect(qualities.filter((quality) => quality === "spread").length).toBeGreaterThanOrEqual(2);
        const gapHours = Math.round((Math.min(gapTo, time) - Math.max(gapFrom, time - 24 * HOUR)) / HOUR);
        if (link === 3 && overlaps(gapFrom, gapTo)) expect(qualities.filter((quality) => quality === "gap").length).toBe(gapHours);
      }
    }
  }
  time = START + 7 * 24 * HOUR;
  await history.save();
  expect(statSync(storePath).mode & 0o777).toBe(0o600);

  // The week read back by another process.
  const reader = newHistory();
  await reader.load();
  expect(reader.size).toBe(LINKS);
  const queries: Array<[Granularity, string, number, number]> = [
    ["day", "America/New_York", START - 24 * HOUR, START + 7 * 24 * HOUR],
    ["day", "Europe/Berlin", START, START + 7 * 24 * HOUR],
    ["week", "UTC", START, START + 7 * 24 * HOUR],
    ["hour", "America/New_York", START + 5 * 24 * HOUR, START + 7 * 24 * HOUR],
    ["hour", "America/New_York", START + 3 * 24 * HOUR, START + 4 * 24 * HOUR],
  ];
  for (const [granularity, timeZone, start, end] of queries) {
    for (let link = 0; link < LINKS; link += 1) check(reader.series({ linkId: linkIdOf(link), start, end, granularity, timeZone }), link);
  }

  // Before the first sample: no data, not zero.
  const first = reader.series({ linkId: linkIdOf(3), start: START - 24 * HOUR, end: START + 24 * HOUR, granularity: "day", timeZone: "America/New_York" });
  expect(first.buckets[0]).toMatchObject({ clicks: null, quality: "none" });
  expect(first.firstSampleAt).toBe(START);

  // The night nothing ran: a gap, its clicks stated apart; the missed samples: spread, not exact.
  const night = reader.series({ linkId: linkIdOf(3), start: gapFrom - 24 * HOUR, end: gapTo + 24 * HOUR, granularity: "day", timeZone: "UTC" });
  expect(night.buckets.some((bucket) => bucket.quality === "partial")).toBe(true);
  expect(night.unplaced).toHaveLength(1);
  expect(night.unplaced[0]!.clicks).toBe(truth(3, night.unplaced[0]!.from, night.unplaced[0]!.to));
  const hours = reader.series({ linkId: linkIdOf(3), start: gapFrom, end: gapTo, granularity: "hour", timeZone: "UTC" });
  expect(hours.buckets.slice(1, -1).every((bucket) => bucket.quality === "gap" && bucket.clicks === null)).toBe(true);

  // The day New York left summer time has 25 hours; the reset link's drop is flagged and subtracts nothing.
  const sunday = reader.series({
    linkId: linkIdOf(2),
    start: Date.UTC(2026, 10, 1, 4),
    end: Date.UTC(2026, 10, 2, 5),
    granularity: "day",
    timeZone: "America/New_York",
  });
  expect(sunday.buckets).toHaveLength(1);
  expect(sunday.buckets[0]!.end - sunday.buckets[0]!.start).toBe(25 * HOUR);
  expect(sunday.buckets[0]!.quality).toBe("exact");
  const reset = reader.series({ linkId: linkIdOf(RESET_LINK), start: START, end: START + 7 * 24 * HOUR, granularity: "day", timeZone: "UTC" });
  expect(reset.buckets.filter((bucket) => bucket.reset)).toHaveLength(1);
  expect(reset.buckets.every((bucket) => bucket.clicks === null || bucket.clicks >= 0)).toBe(true);

  // Unique clicks where the link's details were read; the sandbox kept every visit's time.
  expect(reader.series({ linkId: linkIdOf(3), start: START, end: START + 24 * HOUR, granularity: "day", timeZone: "UTC" }).uniqueTotal).toBeGreaterThan(0);
  const record = sandbox.store.state.links.find((entry) => entry.alias === "fill3")!;
  for (let day = 0; day < 7; day += 1) {
    const [from, to] = [START + day * 24 * HOUR, START + (day + 1) * 24 * HOUR];
    expect(visitsBetween(record.stats.times, from, to)).toBe(visits.get(3)!.filter((at) => at >= from && at < to).length);
  }
}, 120_000);
