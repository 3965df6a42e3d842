/**
 * get_link's clicks over time's answer in the statistics view, in the real browser: the server (in memory,
 * for a client that declares MCP Apps) samples three days of visits on the sandbox's clock, and a
 * host page in Chromium feeds its real answer to the view in a sandboxed iframe. The view shows the
 * client's SVG chart (a bar per measured day, in the chart's colour), the total and what the
 * history says, loads nothing and logs no error.
 */
import { LinkShortClient, RateLimiter } from "@linkshort/client";
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { Client } from "@modelcontextprotocol/client";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { hostView } from "../../../test/charts/apps-host";
import { launchBrowser, SCREENSHOTS } from "../../../test/charts/browser";
import { decodePng, type DecodedPng } from "../../../test/charts/png-reader";
import { VIEW_CHART_META_KEY } from "../src/view/apps";
import { ServerLinkIndex } from "../src/account/server-index";
import { STATISTICS_VIEW_HTML } from "../src/view/page";
import { APPS_CAPABILITIES, connectInMemory } from "./in-memory";

const HOUR = 3_600_000;
const START = Date.UTC(2026, 10, 20);
const WIDTH = 700;
/** The series chart's bar colour in the light theme (`packages/client/src/charts/draw.ts`). */
const BAR = "#0969da";

/** Vertical bars of `colour`, left to right: runs of columns holding it at least 3 pixels wide, each with its height in pixels. */
function columnsOf(image: DecodedPng, colour: string): Array<{ left: number; height: number }> {
  const heights: number[] = [];
  for (let x = 0; x < image.width; x += 1) {
    let height = 0;
    for (let y = 0; y < image.height; y += 1) if (image.colourAt(x, y) === colour) height += 1;
    heights.push(height);
  }
  const bars: Array<{ left: number; height: number }> = [];
  for (let x = 0; x < heights.length; ) {
    if (heights[x] === 0) {
      x += 1;
      continue;
    }
    const left = x;
    let tallest = 0;
    while (x < heights.length && heights[x]! > 0) tallest = Math.max(tallest, heights[x++]!);
    if (x - left >= 3) bars.push({ left, height: tallest });
  }
  return bars;
}

let time = START;
let sandbox: Sandbox;
let browser: Browser;
let linkIndex: ServerLinkIndex;
let mcp: Client;

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => time, rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  browser = await launchBrowser();
  const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter() } });
  linkIndex = new ServerLinkIndex(client, { now: () => time, minSyncIntervalMs: 0 });
  mcp = new Client({ name: "apps-host-test", version: "1.0.0" }, { capabilities: APPS_CAPABILITIES });
  await connectInMemory(mcp, { client, linkIndex });
});
afterAll(async () => {
  await mcp.close();
  await linkIndex.stop();
  await browser.close();
  await sandbox.close();
});

test("the view shows the client's series chart: a bar per measured day, the total, the history's sentences; nothing loaded, no error", async () => {
  const created = await mcp.callTool({ name: "shorten_link", arguments: { url: "https://example.com/series-view", custom: "series-view" } });
  const id = (created.structuredContent as { id: number }).id;
  const perDay = [4, 9, 2];
  for (const [day, count] of perDay.entries()) {
    time = START + day * 24 * HOUR;
    await linkIndex.sampleNow();
    for (let visit = 0; visit < count; visit += 1) {
      time += (visit + 1) * 60_000;
      await (await fetch(`${sandbox.baseUrl}/series-view`, { redirect: "manual", headers: { "user-agent": `agent-${day}-${visit}` } })).text();
    }
  }
  time = START + 3 * 24 * HOUR;
  await linkIndex.sampleNow();
  const answer = await mcp.callTool({
    name: "get_link",
    arguments: { id, start: new Date(START).toISOString(), end: new Date(time).toISOString(), granularity: "day" },
  });
  expect(answer.content).toEqual([{ type: "text", text: JSON.stringify(answer.structuredContent) }]);
  const chart = answer._meta![VIEW_CHART_META_KEY] as { svg: string; description: string };
  const links = (answer.structuredContent as { links: Array<{ shorturl: string; total: number; buckets: Array<{ clicks: number; quality: string }> }> }).links;
  expect(links[0]!.buckets.map((bucket) => [bucket.clicks, bucket.quality])).toEqual(perDay.map((count) => [count, "exact"]));

  const { page, view, errors, requests } = await hostView(browser, { html: STATISTICS_VIEW_HTML, result: answer, width: WIDTH, height: 1200 });
  try {
    await view.waitForFunction("document.querySelector('img.chart') && document.querySelector('img.chart').complete");
    await page.evaluate("new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))");
    const image = await view.evaluate<{ width: number; alt: string }>(
      "({ width: document.querySelector('img.chart').naturalWidth, alt: document.querySelector('img.chart').alt })",
    );
    expect(image).toEqual({ width: expect.any(Number), alt: chart.description });
    expect(image.width).toBeGreaterThan(100);
    expect(await view.evaluate("document.querySelector('h1').textContent")).toBe(links[0]!.shorturl.replace(/^https?:\/\//, ""));
    expect(await view.evaluate("document.querySelector('.totals b').textContent")).toBe("15");
    expect(await view.evaluate("[...document.querySelectorAll('.status')].map((note) => note.textContent).join(' ')")).toMatch(
      /3 days measured between samples at its ends.*first sample/,
    );
    const png = await page.locator("#view").screenshot({ type: "png" });
    mkdirSync(SCREENSHOTS, { recursive: true });
    writeFileSync(join(SCREENSHOTS, "mcp-app-series.png"), png);
    const shot = decodePng(png);
    // In the pixels: a bar per measured day, in the chart's colour, tallest for the busiest day.
    const bars = columnsOf(shot, BAR);
    expect(bars).toHaveLength(3);
    expect(bars[1]!.height).toBeGreaterThan(bars[0]!.height);
    expect(bars[0]!.height).toBeGreaterThan(bars[2]!.height);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
  } finally {
    await page.close();
  }
});
