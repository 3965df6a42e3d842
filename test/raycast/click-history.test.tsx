/**
 * A week of clicks sampled by Recent Links (the menu bar, every 45 minutes of a controlled clock), as
 * the link's detail in Search Links shows it, and the menu bar's clicks today.
 */
import type { ReactTestInstance } from "react-test-renderer";
import { startSandbox, visitsBetween, type Sandbox } from "@linkshort/sandbox";
import RecentLinks from "../../raycast-extension/src/recent-links";
import SearchLinks from "../../raycast-extension/src/search-links";
import { apiCall, byType, mock, render, selection, setPreferences, waitFor } from "./helpers";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Monday 2 November 2026, midnight in UTC, the zone of the computer in this test. */
const START = Date.UTC(2026, 10, 2);
const LAST_RUN = START + 6 * DAY + 18 * HOUR;
const LIGHT_BARS = { exact: "#0969da", spread: "#54aeff" };

let sandbox: Sandbox;
let clock = START - DAY;
const zoneBefore = process.env.TZ;

beforeAll(async () => {
  process.env.TZ = "UTC";
  sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowMs: 60_000 }, now: () => clock });
  jest.spyOn(Date, "now").mockImplementation(() => clock);
  mock.reset();
  setPreferences(sandbox);
});
afterAll(async () => {
  jest.restoreAllMocks();
  process.env.TZ = zoneBefore;
  await sandbox.close();
});

const userLink = (alias: string) => sandbox.store.state.links.find((link) => link.userId === 2 && link.alias === alias)!;

async function visit(alias: string, at: number) {
  clock = at;
  await fetch(`${sandbox.baseUrl}/${alias}`, { redirect: "manual" });
}

/** One refresh of the menu bar at `at`, left open for the test to read. */
async function menuBarAt(at: number) {
  clock = at;
  const view = await render(<RecentLinks />);
  const bar = () => byType(view.root, "MenuBarExtra")[0]!;
  await waitFor(() => bar().props.isLoading === false, "the menu bar's refresh", 15_000);
  return { view, bar };
}

const detailMarkdown = (root: ReactTestInstance) => String(byType(root, "List.Item.Detail")[0]?.props.markdown ?? "");
const weekChartIn = (markdown: string) => /!\[([^\]]*)\]\(data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)\)/.exec(markdown);

/** Search Links with `alias` selected, once its detail has read the history. */
async function detailOf(alias: string, ready: (markdown: string) => boolean) {
  selection.id = String(userLink(alias).id);
  const view = await render(<SearchLinks />);
  await waitFor(() => ready(detailMarkdown(view.root)), "the week in the link's detail", 15_000);
  const markdown = detailMarkdown(view.root);
  view.unmount();
  return markdown;
}

/** The bars of a week chart (SVG rects in the bar colours, wider than the legend's swatches), left to right. */
function barsOf(svg: string): Array<{ x: number; height: number; exact: boolean }> {
  return [...svg.matchAll(/<rect x="(\d+)" y="\d+" width="(\d+)" height="(\d+)" fill="(#[0-9a-f]{6})"\/>/g)]
    .filter(([, , width, , fill]) => Number(width) > 12 && (fill === LIGHT_BARS.exact || fill === LIGHT_BARS.spread))
    .map(([, x, , height, fill]) => ({ x: Number(x), height: Number(height), exact: fill === LIGHT_BARS.exact }))
    .sort((a, b) => a.x - b.x);
}

it("before Recent Links has sampled, the detail says there is no data, not zero", async () => {
  clock = START - HOUR;
  const markdown = await detailOf("raycast", (text) => text.includes("Last 7 days"));
  expect(weekChartIn(markdown)).toBeNull();
  expect(markdown).toContain("**Last 7 days:** no data yet. Recent Links (in the menu bar) records clicks over time while it runs.");
});

it("a week of samples shows in the detail: a bar per day as the visits of that day, and a link first sampled mid-week has no data before", async () => {
  // Day d gets d + 1 visits in its first hours and two in its evening; "midweek" is made on Thursday at 12:01 and visited every 6 hours.
  const visits: Array<[alias: string, at: number]> = [];
  for (let day = 0; day < 7; day += 1) {
    for (const hour of [0, 1, 2, 3, 4, 5, 6].slice(0, day + 1).concat([19, 20])) visits.push(["raycast", START + day * DAY + hour * HOUR + 30 * 60_000]);
  }
  const created = START + 3 * DAY + 12 * HOUR + 60_000;
  visits.push(["midweek", created + 4 * 60_000]);
  for (let at = START + 3 * DAY + 13 * HOUR + 10 * 60_000; at < LAST_RUN; at += 6 * HOUR) visits.push(["midweek", at]);
  const pending = visits.filter(([, at]) => at < LAST_RUN).sort((a, b) => a[1] - b[1]);

  // Recent Links refreshes every 45 minutes (the extension's interval is 10; less than an hour apart is no gap).
  for (let run = START; run <= LAST_RUN; run += 45 * 60_000) {
    while (pending.length > 0 && pending[0]![1] < run) {
      const [alias, at] = pending.shift()!;
      if (alias === "midweek" && !userLink("midweek")) {
        clock = created;
        await apiCall(sandbox, "POST", "/api/url/add", { url: "https://example.com/midweek", custom: "midweek" });
      }
      await visit(alias, at);
    }
    const { view } = await menuBarAt(run);
    view.unmount();
  }
  clock = LAST_RUN + 5 * 60_000;

  const times = userLink("raycast").stats.times;
  const expected = [0, 1, 2, 3, 4, 5, 6].map((day) => visitsBetween(times, START + day * DAY, Math.min(START + (day + 1) * DAY, LAST_RUN)));
  expect(expected).toEqual([3, 4, 5, 6, 7, 8, 7]);
  const markdown = await detailOf("raycast", (text) => weekChartIn(text) !== null);
  const [, alt, base64] = weekChartIn(markdown)!;
  const total = expected.reduce((sum, count) => sum + count, 0);
  // Today is sampled only so far: its bar is the lighter one.
  expect(alt).toBe(`Last 7 days: ${total} clicks from 2 Nov to 8 Nov, by day, at most 8 in one; 1 day spread over a sampling gap`);
  expect(markdown).toContain(`Counted from Recent Links' samples. ${total} clicks from 2 Nov to 8 Nov`);
  const svg = Buffer.from(base64!, "base64").toString("utf8");
  const peak = Math.max(...expected);
  expect(barsOf(svg)).toEqual(expected.map((count, day) => ({ x: expect.any(Number), height: Math.round((120 * count) / peak), exact: day < 6 })));
  // Labels are real text, which Raycast draws in its own font.
  expect(svg).toContain(">5 Nov</text>");

  const midweek = await detailOf("midweek", (text) => weekChartIn(text) !== null);
  const [, midweekAlt, midweekSvg] = weekChartIn(midweek)!;
  expect(midweekAlt).toMatch(/^Last 7 days: 13 clicks from 2 Nov to 8 Nov, by day, at most 4 in one; 3 days with no data; 2 days spread over a sampling gap$/);
  expect(midweek).toContain("Counted since 5 Nov, 12:45, when Recent Links first sampled this link: no data before.");
  // Days before the first sample are no bars at all (gaps); its first day is only partly sampled (a lighter bar).
  const midweekBars = barsOf(Buffer.from(midweekSvg!, "base64").toString("utf8"));
  expect(midweekBars.map((bar) => bar.exact)).toEqual([false, true, true, false]);
});

it("the menu bar shows today's clicks, in all and per link, as sampled", async () => {
  const { view, bar } = await menuBarAt(LAST_RUN + 10 * 60_000);
  const day = START + 6 * DAY;
  const today = visitsBetween(userLink("raycast").stats.times, day, LAST_RUN) + visitsBetween(userLink("midweek").stats.times, day, LAST_RUN);
  expect(today).toBe(7 + 3);
  const items = byType(view.root, "MenuBarExtra.Item");
  expect(items.find((item) => String(item.props.title).endsWith("today"))!.props.title).toBe(`${today} clicks today`);
  expect(bar().props.title).toBe(String(today));
  const raycast = items.find((item) => item.props.title === userLink("raycast").alias || String(item.props.title).endsWith("/raycast"))!;
  expect(raycast.props.subtitle).toBe(`${userLink("raycast").stats.clicks} clicks · 7 today`);
  view.unmount();
});
