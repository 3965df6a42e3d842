/**
 * get_link's clicks over time through the SDK's client, in memory, against the sandbox on a controlled
 * clock: a week of visits sampled only by the server's background samples (the link index's syncs
 * and sweeps), with a restart that keeps the history file, a night the server was down (a gap) and
 * a reset link. Every count is checked against the visits the test made.
 */
import { FileClickHistoryStore, FileIndexStore, LinkShortClient, RateLimiter } from "@linkshort/client";
import { emptyStats, startSandbox, type Sandbox } from "@linkshort/sandbox";
import { Client } from "@modelcontextprotocol/client";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fillLinks } from "../../client/test/fill-links";
import { VIEW_CHART_META_KEY } from "../src/view/apps";
import type { ClicksOverTime, LinkClicksOverTime } from "../src/tools/outputs";
import { ServerLinkIndex } from "../src/account/server-index";
import { APPS_CAPABILITIES, connectInMemory } from "./in-memory";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const STEP = 15 * MINUTE;
const START = Date.UTC(2026, 10, 16, 0, 0); // a Monday
const LINKS = 6;
const RESET_LINK = 4;
const iso = (at: number) => new Date(at).toISOString();

let time = START;
let sandbox: Sandbox;
let client: LinkShortClient;
let indexPath: string;
const visits = new Map<number, number[]>();

/** A repeatable generator (xorshift). */
let seed = 88172645;
const random = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 2 ** 32;
};

const linkIdOf = (link: number) => sandbox.store.state.links.find((record) => record.alias === `fill${link}`)!.id;
/** Visits of a link in (from, to]: visits never fall on a sample's second. */
const truth = (link: number, from: string | number, to: string | number) => {
  const [low, high] = [typeof from === "string" ? Date.parse(from) : from, typeof to === "string" ? Date.parse(to) : to];
  return visits.get(link)!.filter((at) => at > low && at <= high).length;
};

interface Running {
  index: ServerLinkIndex;
  mcp: Client;
  stop(): Promise<void>;
}

/** A server as the CLI makes it with --index-file, on the test's clock, and an MCP client talking to it in memory. */
async function startServer(apps = false): Promise<Running> {
  const index = new ServerLinkIndex(client, {
    store: new FileIndexStore(indexPath),
    historyStore: FileClickHistoryStore.besideIndex(indexPath),
    now: () => time,
    minSyncIntervalMs: 0,
  });
  const mcp = new Client({ name: "clicks-test", version: "1.0.0" }, { capabilities: apps ? APPS_CAPABILITIES : {} });
  const connection = await connectInMemory(mcp, { client, linkIndex: index });
  return {
    index,
    mcp,
    stop: async () => {
      await mcp.close();
      await connection.close();
      await index.stop();
    },
  };
}

async function clicks(server: Running, args: Record<string, unknown>) {
  const result = await server.mcp.callTool({ name: "get_link", arguments: args });
  return {
    isError: result.isError === true,
    text: (result.content as Array<{ type: string; text?: string }>).map((part) => part.text ?? "").join("\n"),
    content: result.content as Array<{ type: string; mimeType?: string; data?: string }>,
    structured: result.structuredContent as unknown as ClicksOverTime,
    meta: result._meta,
  };
}

/** The honesty rules on one link's answer: sums, measured buckets against the visits, no bucket finer than its samples. */
function check(answer: LinkClicksOverTime, link: number, granularity: string): void {
  const tolerance = granularity === "hour" ? 5 * MINUTE : HOUR;
  let sum = 0;
  for (const bucket of answer.buckets) {
    if (bucket.quality === "gap" || bucket.quality === "none") expect(bucket.clicks).toBeNull();
    if (bucket.clicks === null) continue;
    expect(bucket.clicks).toBeGreaterThanOrEqual(0);
    sum += bucket.clicks;
    if (bucket.quality === "exact") {
      expect(Math.abs(Date.parse(bucket.measuredFrom!) - Date.parse(bucket.start))).toBeLessThanOrEqual(tolerance);
      expect(Math.abs(Date.parse(bucket.measuredTo!) - Date.parse(bucket.end))).toBeLessThanOrEqual(tolerance);
    }
    if ((bucket.quality === "exact" || bucket.quality === "partial") && !bucket.reset)
      expect([bucket.start, bucket.clicks]).toEqual([bucket.start, truth(link, bucket.measuredFrom!, bucket.measuredTo!)]);
  }
  for (const span of answer.unplaced) expect(span.clicks).toBe(truth(link, span.from, span.to));
  if (answer.total === null) return;
  expect(answer.total).toBe(sum + answer.unplaced.reduce((total, span) => total + span.clicks, 0));
  const known = answer.buckets.filter((bucket) => bucket.clicks !== null);
  // Measured at samples at both ends (not shared out of an interval): the visits between the sampled totals.
  if (link !== RESET_LINK && known[0]!.quality !== "spread" && known[known.length - 1]!.quality !== "spread")
    expect(answer.total).toBe(truth(link, answer.measuredFrom!, answer.measuredTo!));
}

beforeAll(async () => {
  sandbox = await startSandbox({ seed: "minimal", now: () => time, rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  fillLinks(sandbox, LINKS);
  for (let link = 0; link < LINKS; link += 1) visits.set(link, []);
  client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter() } });
  indexPath = join(mkdtempSync(join(tmpdir(), "linkshort-mcp-clicks-")), "index.json");
});
afterAll(() => sandbox.close());

const gapFrom = START + 3 * DAY + 22 * HOUR;
const gapTo = gapFrom + 6 * HOUR;
const restartAt = START + 2 * DAY + 9 * HOUR;
const resetAt = START + 5 * DAY + 13 * HOUR + 7 * MINUTE;
let server: Running;

test("a week sampled in the background, a restart with the history file, a night down and a reset link: every bucket honest", async () => {
  server = await startServer();
  for (let at = START; at < START + 7 * DAY; at += STEP) {
    time = at;
    // The server down for the night: stopped (it keeps its history), started again from its files.
    if (at === gapFrom || at === restartAt) await server.stop();
    if (at === gapTo || at === restartAt) server = await startServer();
    if (at < gapFrom || at >= gapTo) await server.index.sampleNow();
    if (at <= resetAt && resetAt < at + STEP) sandbox.store.state.links.find((record) => record.alias === `fill${RESET_LINK}`)!.stats = emptyStats();
    const hour = new Date(at).getUTCHours();
    const planned: Array<[number, number]> = [];
    for (let link = 0; link < LINKS; link += 1) {
      const expected = (link % 3) * (hour >= 9 && hour < 18 ? 1 : 0.3);
      for (let tries = 0; tries < 3; tries += 1) if (random() < expected / 3) planned.push([at + (1 + Math.floor(random() * 898)) * 1000, link]);
    }
    for (const [visitAt, link] of planned.sort((a, b) => a[0] - b[0])) {
      time = visitAt;
      const answer = await fetch(`${sandbox.baseUrl}/fill${link}`, { redirect: "manual", headers: { "user-agent": `visitor-${Math.floor(random() * 20)}` } });
      expect(answer.status).toBe(302);
      visits.get(link)!.push(visitAt);
    }
  }
  time = START + 7 * DAY;
  await server.index.sampleNow();

  // The week by day in Berlin: every day measured, the night down a gap whose clicks are unplaced.
  const week = await clicks(server, { id: linkIdOf(2), start: iso(START), end: iso(START + 7 * DAY), granularity: "day", timeZone: "Europe/Berlin" });
  expect(week.isError).toBe(false);
  const [link2] = week.structured.links;
  check(link2!, 2, "day");
  const before = await clicks(server, { id: linkIdOf(2), start: iso(START - DAY), end: iso(START + DAY), granularity: "day", timeZone: "UTC" });
  // Before the first sample: no data, not zero.
  expect(before.structured.links[0]!.buckets[0]).toMatchObject({ start: iso(START - DAY), quality: "none", clicks: null });
  expect(link2!.firstSampleAt).toBe(iso(START));
  expect(week.structured.history.firstSampleAt).toBe(iso(START));
  expect(link2!.unplaced).toHaveLength(1);
  expect(link2!.unplaced[0]!.clicks).toBeGreaterThan(0);
  expect(link2!.total).toBe(truth(2, link2!.measuredFrom!, link2!.measuredTo!));
  expect(week.structured.history.resolution).toMatch(/every 5 minutes.*15 minutes after its last sweep/);
  expect(link2!.summary).toMatch(/unplaced/);
  // For a client without MCP Apps: the series as a PNG.
  const image = week.content.find((part) => part.type === "image")!;
  expect(image.mimeType).toBe("image/png");
  expect(Buffer.from(image.data!, "base64").subarray(1, 4).toString()).toBe("PNG");
  expect(week.meta?.[VIEW_CHART_META_KEY]).toBeUndefined();

  // By the hour over the night down: hours of the gap are gaps, never a share of its clicks.
  const night = await clicks(server, { id: linkIdOf(2), start: iso(gapFrom - 2 * HOUR), end: iso(gapTo + 2 * HOUR), granularity: "hour", timeZone: "UTC" });
  check(night.structured.links[0]!, 2, "hour");
  expect(night.structured.links[0]!.buckets.slice(2, 7).map((bucket) => bucket.quality)).toEqual(["gap", "gap", "gap", "gap", "gap"]);

  // The last day by the hour, sampled every quarter hour: exact; the first day's hours, now kept only around its days: spread, not finer than that.
  const lastDay = await clicks(server, { id: linkIdOf(1), start: iso(START + 6 * DAY), end: iso(START + 7 * DAY), granularity: "hour", timeZone: "UTC" });
  check(lastDay.structured.links[0]!, 1, "hour");
  expect(lastDay.structured.links[0]!.buckets.every((bucket) => bucket.quality === "exact")).toBe(true);
  const firstDay = await clicks(server, { id: linkIdOf(1), start: iso(START + 10 * HOUR), end: iso(START + 14 * HOUR), granularity: "hour", timeZone: "UTC" });
  check(firstDay.structured.links[0]!, 1, "hour");
  expect(firstDay.structured.links[0]!.buckets.map((bucket) => bucket.quality)).toEqual(["spread", "spread", "spread", "spread"]);

  // The reset link: its drop flagged, nothing subtracted.
  const reset = await clicks(server, { id: linkIdOf(RESET_LINK), start: iso(START), end: iso(START + 7 * DAY), granularity: "day", timeZone: "UTC" });
  check(reset.structured.links[0]!, RESET_LINK, "day");
  expect(reset.structured.links[0]!.buckets.filter((bucket) => bucket.reset).map((bucket) => bucket.start)).toEqual([iso(START + 5 * DAY)]);
  expect(reset.structured.links[0]!.summary).toMatch(/reset/);

  // The account's top links of the last two days: most clicks first, each with its series.
  const top = await clicks(server, { start: iso(START + 5 * DAY), end: iso(START + 7 * DAY), granularity: "day", timeZone: "UTC", limit: 3 });
  expect(top.structured.top).toBe(true);
  const totals = top.structured.links.map((entry) => entry.total!);
  expect(totals).toEqual([...totals].sort((a, b) => b - a));
  expect(top.structured.links.map((entry) => entry.id)).not.toContain(linkIdOf(0));
  for (const entry of top.structured.links) check(entry, Number(sandbox.store.state.links.find((record) => record.id === entry.id)!.alias.slice(4)), "day");
}, 120_000);

test("a restarted server answers the week from its history file, and says how far its history reaches", async () => {
  await server.stop();
  server = await startServer(true);
  const answer = await clicks(server, { id: linkIdOf(1), start: iso(START), end: iso(START + 7 * DAY), granularity: "week", timeZone: "UTC" });
  expect(answer.structured.history).toMatchObject({ firstSampleAt: iso(START), notes: [] });
  check(answer.structured.links[0]!, 1, "week");
  expect(answer.structured.links[0]!.total).toBeGreaterThan(0);
  // For a client that shows the statistics view: no PNG, the client's SVG in _meta for the view.
  expect(answer.content.filter((part) => part.type === "image")).toEqual([]);
  const chart = answer.meta?.[VIEW_CHART_META_KEY] as { svg: string; description: string };
  expect(chart.svg).toMatch(/^<svg[^>]*>/);
  expect(chart.description).toMatch(/clicks/);
});

test("the top links of a period with no clicks: none, and the history's reach is the account's first sample", async () => {
  const quiet = await clicks(server, { start: iso(START + 7 * DAY), end: iso(START + 7 * DAY + HOUR), granularity: "hour" });
  expect(quiet.structured).toMatchObject({ top: true, links: [], history: { firstSampleAt: iso(START), sampledLinks: LINKS } });
  expect(quiet.structured.summary).toMatch(/^No link gained clicks.*starts at 2026-11-16T00:00:00.000Z/);
  expect(quiet.content.filter((part) => part.type === "image")).toEqual([]);
});

test("a link the index does not know yet is answered with its short URL and title, from the details read for the sample", async () => {
  const elsewhere = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter() } });
  const made = await elsewhere.links.create({ url: "https://example.com/made-elsewhere", metatitle: "Made elsewhere" });
  expect(server.index.index.get(made.id)).toBeUndefined();
  const answer = await clicks(server, { id: made.id, start: iso(time - DAY), end: iso(time), granularity: "day" });
  expect(answer.structured.links[0]).toMatchObject({ id: made.id, shorturl: made.shorturl, title: "Made elsewhere", total: null, firstSampleAt: iso(time) });
  expect(answer.structured.links[0]!.summary).toMatch(/not sampled in this period/);
});

test("bad input is an error naming the field, before any request", async () => {
  const before = sandbox.requests.length;
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ id: 1, timeZone: "Europe/Atlantis" }, /must be an IANA time zone this system knows.* at timeZone/],
    [{ id: 1, granularity: "fortnight" }, /must be hour, day, week or month at granularity/],
    [{ id: 1, period: "2w" }, /must be 24h, 7d, 30d, 90d or 1y at period/],
    [{ id: 1, start: "yesterday" }, /must be an ISO 8601 time.* at start/],
    [{ id: 1, start: "2026-11-20T00:00:00Z", end: "2026-11-19T00:00:00Z" }, /must be after start at end/],
    [{ id: 1, start: "2026-01-01T00:00:00Z", end: "2026-11-19T00:00:00Z", granularity: "hour" }, /hour gives about \d+ buckets.* at granularity/],
    [{ limit: 11 }, /must be at most 10 at limit/],
  ];
  for (const [args, message] of cases) {
    const answer = await clicks(server, args);
    expect({ args, isError: answer.isError }).toEqual({ args, isError: true });
    expect(answer.text).toMatch(message);
  }
  expect(sandbox.requests.length).toBe(before);
  await server.stop();
});

test("while it runs the server samples on its own, no tool called: the newest links every tick and a due sweep, until it stops", async () => {
  const index = new ServerLinkIndex(client, { now: () => time, minSyncIntervalMs: 0, sampleEveryMs: 40 });
  await index.startFirstSync();
  expect(index.history.size).toBe(sandbox.store.state.links.filter((record) => record.userId === 2).length);
  const sampled = (link: number) =>
    index.history.series({ linkId: linkIdOf(link), start: START + 7 * DAY, end: START + 8 * DAY, granularity: "day", timeZone: "UTC" }).lastSampleAt;
  const until = async (done: () => boolean) => {
    for (let wait = 0; wait < 100 && !done(); wait += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  // The clock moves on by more than a sweep's interval: the next tick reads every link again, at the new time.
  time += 20 * MINUTE;
  await until(() => sampled(1) === time);
  for (let link = 0; link < LINKS; link += 1) expect(sampled(link)).toBe(time);
  await index.stop();
  const stoppedAt = time;
  time += 20 * MINUTE;
  await new Promise((resolve) => setTimeout(resolve, 200));
  for (let link = 0; link < LINKS; link += 1) expect(sampled(link)).toBe(stoppedAt);
});
