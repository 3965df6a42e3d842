/**
 * What the MCP Apps statistics view shows of get_link and get_qr_code is the client's reading of the
 * statistics (`readStatistics`: its order of a top list, ties included, its titles and labels), sent
 * in the result's `_meta`; the page itself holds no reader, no section title and no palette of its own.
 */
import { LinkShortClient, RateLimiter } from "@linkshort/client";
import { CHART_PALETTES, readStatistics } from "@linkshort/client/charts";
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { Client } from "@modelcontextprotocol/client";
import { VIEW_CHART_META_KEY } from "../src/view/apps";
import { ServerLinkIndex } from "../src/account/server-index";
import { STATISTICS_VIEW_HTML } from "../src/view/page";
import { VIEW_ROWS } from "../src/tools/chart";
import { APPS_CAPABILITIES, connectInMemory } from "./in-memory";

let sandbox: Sandbox;
let linkIndex: ServerLinkIndex;
let mcp: Client;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter() } });
  linkIndex = new ServerLinkIndex(client, { minSyncIntervalMs: 0 });
  mcp = new Client({ name: "apps-host-test", version: "1.0.0" }, { capabilities: APPS_CAPABILITIES });
  await connectInMemory(mcp, { client, linkIndex });
});
afterAll(async () => {
  await mcp.close();
  await linkIndex.stop();
  await sandbox.close();
});

/** Visits from these countries (ISO codes) and referrers, in this order. */
async function visit(path: string, visits: Array<[string, string]>) {
  for (const [index, [country, referer]] of visits.entries()) {
    await (
      await fetch(`${sandbox.baseUrl}/${path}`, { redirect: "manual", headers: { "cf-ipcountry": country, referer, "user-agent": `view-data-${index}` } })
    ).text();
  }
}

/** The client's reading as the view is sent it: each list's title and rows of label and count. */
const sectionsOf = (stats: unknown) =>
  readStatistics(stats, { top: VIEW_ROWS }).lists.map((list) => ({ title: list.title, rows: list.entries.map(({ label, count }) => ({ label, count })) }));

test("get_link: the view is sent the client's reading: tied countries in the client's order (not the service's), referrers labelled as the chart labels them", async () => {
  const created = await mcp.callTool({ name: "shorten_link", arguments: { url: "https://example.com/view-data", custom: "view-data" } });
  const id = (created.structuredContent as { id: number }).id;
  // The sandbox lists equal counts in its locale's order (Åland before Zambia), as a server may.
  await visit("view-data", [
    ["AX", "https://www.alpha.example/"],
    ["AX", "https://www.alpha.example/"],
    ["ZM", "https://zeta.example/"],
    ["ZM", "https://zeta.example/"],
    ["JP", "https://news.example/"],
  ]);
  const answer = await mcp.callTool({ name: "get_link", arguments: { id } });
  const { details, stats } = answer.structuredContent as { details: { shorturl: string }; stats: { clicks: number; uniqueClicks: number } };
  const view = answer._meta![VIEW_CHART_META_KEY] as { sections: Array<{ title: string; rows: Array<{ label: string; count: number }> }> };
  expect(view.sections[0]!.rows).toEqual([
    { label: "Zambia", count: 2 },
    { label: "Åland Islands", count: 2 },
    { label: "Japan", count: 1 },
  ]);
  expect(view.sections[1]!.rows).toEqual([
    { label: "alpha.example", count: 2 },
    { label: "zeta.example", count: 2 },
    { label: "news.example", count: 1 },
  ]);
  expect(view).toEqual({
    kind: "statistics",
    title: details.shorturl.replace(/^https?:\/\//, ""),
    unit: "clicks",
    clicks: stats.clicks,
    uniqueClicks: stats.uniqueClicks,
    sections: sectionsOf(stats),
    empty: false,
  });
});

test("get_qr_code: the view is sent the client's reading of its scans, titled by the code's name", async () => {
  const created = await mcp.callTool({ name: "create_qr_code", arguments: { type: "link", data: "https://example.com/view-data-qr", name: "Poster" } });
  const answer = await mcp.callTool({ name: "get_qr_code", arguments: { id: (created.structuredContent as { id: number }).id } });
  const { stats } = answer.structuredContent as { stats: unknown };
  expect(answer._meta![VIEW_CHART_META_KEY]).toEqual({
    kind: "statistics",
    title: "Poster",
    unit: "scans",
    clicks: 0,
    uniqueClicks: 0,
    sections: sectionsOf(stats),
    empty: true,
  });
});

test("the view's page holds no reader of its own: no section title, and the colours are the client's chart palette", () => {
  for (const list of readStatistics({}).lists) expect(STATISTICS_VIEW_HTML).not.toContain(list.title);
  for (const palette of Object.values(CHART_PALETTES)) {
    for (const colour of Object.values(palette)) expect(STATISTICS_VIEW_HTML).toContain(colour);
  }
  expect(STATISTICS_VIEW_HTML).not.toMatch(/function (count|clean|top)\(/);
});
