/**
 * The MCP App of get_link and get_qr_code in the real browser, hosted as an MCP Apps host hosts it:
 * the page read with resources/read from the built server, in a sandboxed iframe, started with
 * ui/initialize and fed the tool's real answer by postMessage (ui/notifications/tool-input, then
 * tool-result), sized by its size-changed notifications. A screenshot per theme shows the bars. The
 * view shows the client's reading of the statistics (`readStatistics`), which the tool sends it.
 */
import { readStatistics } from "@linkshort/client/charts";
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Frame, Page } from "playwright-core";
import { STATISTICS_VIEW_URI, VIEW_CHART_META_KEY } from "../../packages/mcp/src/view/apps";
import { statisticsView, VIEW_ROWS } from "../../packages/mcp/src/tools/chart";
import { CLI } from "../../packages/mcp/test/helpers";
import { APPS_CAPABILITIES } from "../../packages/mcp/test/in-memory";
import { hostView, receivedBy } from "./apps-host";
import { launchBrowser, SCREENSHOTS } from "./browser";
import { barsOf, decodePng, type DecodedPng } from "./png-reader";

let sandbox: Sandbox;
let browser: Browser;
let client: Client;
let viewHtml: string;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowMs: 60_000 } });
  browser = await launchBrowser();
  client = new Client({ name: "apps-host-test", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: APPS_CAPABILITIES });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI],
      env: { PATH: process.env.PATH ?? "", LINKSHORT_BASE_URL: sandbox.baseUrl, LINKSHORT_API_KEY: sandbox.userKey },
      stderr: "pipe",
    }),
  );
  const tools = await client.listTools();
  const uri = (tools.tools.find((tool) => tool.name === "get_link")!._meta as { ui: { resourceUri: string } }).ui.resourceUri;
  expect(uri).toBe(STATISTICS_VIEW_URI);
  const read = await client.readResource({ uri });
  viewHtml = (read.contents[0] as { text: string }).text;
});
afterAll(async () => {
  await client.close();
  await browser.close();
  await sandbox.close();
});

/** The client's chart palette, which the view takes (its dark background was once a colour of its own, #0d1117). */
const THEMES = {
  light: { background: "#ffffff", bar: "#0969da", unique: "#54aeff" },
  dark: { background: "#161b22", bar: "#4493f8", unique: "#1f6feb" },
} as const;
const VIEW_WIDTH = 420;

interface Shown {
  page: Page;
  view: Frame;
  screenshot: DecodedPng;
  errors: string[];
  requests: string[];
  received: Array<{ method?: string; params?: Record<string, unknown> }>;
}

/** Hosts the view, feeds it one tool call's arguments and answer, and screenshots the iframe once it has sized itself. */
async function host(args: Record<string, unknown>, result: unknown, theme: "light" | "dark", name: string): Promise<Shown> {
  const { page, view, errors, requests } = await hostView(browser, { html: viewHtml, args, result, theme, width: VIEW_WIDTH, height: 1400 });
  // The last size the view reported is the one it keeps: two frames with no new report.
  await page.evaluate("new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))");
  const shot = await page.locator("#view").screenshot({ type: "png" });
  mkdirSync(SCREENSHOTS, { recursive: true });
  writeFileSync(join(SCREENSHOTS, `${name}.png`), shot);
  return { page, view, screenshot: decodePng(shot), errors, requests, received: await receivedBy(page) };
}

interface Row {
  label: string;
  count: string;
  cut: boolean;
  barWidth: number;
  trackWidth: number;
}

const rowsOf = (view: Frame) =>
  view.evaluate<Row[][]>(`[...document.querySelectorAll("ol")].map((list) => [...list.querySelectorAll("li")].map((row) => {
    const label = row.querySelector(".label");
    return { label: label.textContent, count: row.querySelector(".count").textContent,
      cut: label.scrollWidth > label.clientWidth || label.scrollHeight > label.clientHeight || label.getBoundingClientRect().right > document.documentElement.clientWidth,
      barWidth: row.querySelector(".bar").getBoundingClientRect().width, trackWidth: row.querySelector(".track").getBoundingClientRect().width };
  }))`);

async function visit(alias: string, headers: Record<string, string>, times: number) {
  for (let index = 0; index < times; index += 1)
    await (await fetch(`${sandbox.baseUrl}/${alias}`, { redirect: "manual", headers: { ...headers, "user-agent": `agent-${alias}-${index}` } })).text();
}

type Counts = Record<string, number>;
/** The client's reading of the statistics as the view shows it: each list with entries, as [label, count]. */
const listsOf = (stats: unknown) =>
  readStatistics(stats, { top: VIEW_ROWS })
    .lists.map((list) => list.entries.map((entry): [string, number] => [entry.label, entry.count]))
    .filter((rows) => rows.length > 0);

describe("the MCP App of get_link and get_qr_code in the real browser", () => {
  let linkId: number;
  let answer: { content: unknown; structuredContent?: Record<string, unknown> };

  beforeAll(async () => {
    const created = await client.callTool({ name: "shorten_link", arguments: { url: "https://example.com/app-view", custom: "app-view" } });
    linkId = (created.structuredContent as { id: number }).id;
    await visit("app-view", { referer: "https://news.ycombinator.com/item?id=1" }, 6);
    await visit("app-view", { referer: "https://www.google.com/" }, 3);
    await visit("app-view", { referer: "https://a-very-long-referrer-name.example.com/with/a/long/path/that/goes/on/and/on" }, 1);
    answer = (await client.callTool({ name: "get_link", arguments: { id: linkId } })) as typeof answer;
  });

  test.each(["light", "dark"] as const)(
    "%s: the clicks and every top list drawn as bars in order, labels whole, no console error, nothing loaded",
    async (theme) => {
      const stats = answer.structuredContent!.stats as {
        clicks: number;
        uniqueClicks: number;
        topReferrers: Counts;
        topCountries: Counts;
        topBrowsers: Counts;
        topOs: Counts;
      };
      expect(stats.clicks).toBe(10);
      const { page, view, screenshot, errors, requests, received } = await host({ id: linkId }, answer, theme, `mcp-app-get-link-${theme}`);
      try {
        expect(errors).toEqual([]);
        expect(requests).toEqual([]);
        // The view spoke first: ui/initialize with its info, then initialized, then its size.
        const methods = received.map((message) => message.method);
        expect(methods.slice(0, 2)).toEqual(["ui/initialize", "ui/notifications/initialized"]);
        expect(received[0]!.params).toMatchObject({ protocolVersion: "2026-01-26", appInfo: { name: "linkshort-statistics" } });
        expect(methods.slice(2).every((method) => method === "ui/notifications/size-changed")).toBe(true);

        expect(await view.evaluate("document.documentElement.getAttribute('data-theme')")).toBe(theme);
        expect(await view.evaluate("document.querySelector('h1').textContent")).toBe(
          (answer.structuredContent!.details as { shorturl: string }).shorturl.replace(/^https?:\/\//, ""),
        );
        const lists = await rowsOf(view);
        const expected = [
          [
            ["Clicks", stats.clicks],
            ["Unique", stats.uniqueClicks],
          ],
          ...listsOf(stats),
        ];
        expect(lists.map((rows) => rows.map((row) => [row.label, Number(row.count)]))).toEqual(expected);
        for (const rows of lists) {
          for (const row of rows) expect(row.cut).toBe(false);
          const widest = Math.max(...rows.map((row) => Number(row.count)));
          for (const row of rows) expect(Math.abs(row.barWidth - (row.trackWidth * Number(row.count)) / widest)).toBeLessThanOrEqual(1);
        }
        const referrers = lists.find((rows) => rows[0]!.label === "news.ycombinator.com")!;
        expect(referrers.map((row) => Number(row.count))).toEqual([6, 3, 1]);

        // In the pixels: the background of the theme, then one bar per row in the bar colour (the unique bar in its own).
        expect(screenshot.colourAt(2, 2)).toBe(THEMES[theme].background);
        const bars = barsOf(screenshot, [THEMES[theme].bar]);
        expect(bars.length).toBe(lists.flat().length - 1);
        expect(barsOf(screenshot, [THEMES[theme].unique])).toHaveLength(1);
        // Nothing below the last row is cut off: the iframe is as tall as the view says it is.
        const size = received.filter((message) => message.method === "ui/notifications/size-changed").pop()!.params as { height: number };
        expect(screenshot.height).toBe(size.height);
        expect(await view.evaluate("document.documentElement.scrollHeight")).toBeLessThanOrEqual(size.height);
      } finally {
        await page.close();
      }
    },
  );

  test("the Share button shows each row as its share, and a host's theme change repaints the view", async () => {
    const { page, view } = await host({ id: linkId }, answer, "light", "mcp-app-share");
    try {
      await view.click("button:has-text('Share')");
      const lists = await rowsOf(view);
      expect(lists[0]!.map((row) => row.count)).toEqual([
        "100%",
        `${Math.round(((answer.structuredContent!.stats as { uniqueClicks: number }).uniqueClicks / 10) * 1000) / 10}%`,
      ]);
      await page.evaluate(
        `document.getElementById("view").contentWindow.postMessage({ jsonrpc: "2.0", method: "ui/notifications/host-context-changed", params: { theme: "dark" } }, "*")`,
      );
      await view.waitForFunction("document.documentElement.getAttribute('data-theme') === 'dark'");
      expect(await view.evaluate("getComputedStyle(document.body).backgroundColor")).toBe("rgb(22, 27, 34)");
    } finally {
      await page.close();
    }
  });

  test("tied countries are shown in the client's order, the chart's, not in the order the service lists them", async () => {
    const created = await client.callTool({ name: "shorten_link", arguments: { url: "https://example.com/app-view-ties", custom: "app-view-ties" } });
    const id = (created.structuredContent as { id: number }).id;
    // The sandbox lists equal counts in its locale's order (Åland before Zambia), as a server may.
    await visit("app-view-ties", { "cf-ipcountry": "AX" }, 2);
    await visit("app-view-ties", { "cf-ipcountry": "ZM" }, 2);
    const tied = (await client.callTool({ name: "get_link", arguments: { id } })) as typeof answer;
    const { page, view, errors } = await host({ id }, tied, "light", "mcp-app-ties");
    try {
      expect(errors).toEqual([]);
      const lists = await rowsOf(view);
      expect(lists[1]!.map((row) => [row.label, Number(row.count)])).toEqual([
        ["Zambia", 2],
        ["Åland Islands", 2],
      ]);
      expect(lists.slice(1).map((rows) => rows.map((row) => [row.label, Number(row.count)]))).toEqual(listsOf(tied.structuredContent!.stats));
    } finally {
      await page.close();
    }
  });

  test("a link never clicked says so, with no bars", async () => {
    const created = await client.callTool({ name: "shorten_link", arguments: { url: "https://example.com/app-view-empty" } });
    const empty = await client.callTool({ name: "get_link", arguments: { id: (created.structuredContent as { id: number }).id } });
    const { page, view, screenshot, errors } = await host({}, empty, "light", "mcp-app-empty");
    try {
      expect(errors).toEqual([]);
      expect(await view.evaluate("document.querySelector('.empty').textContent")).toBe("No clicks yet.");
      expect(barsOf(screenshot, [THEMES.light.bar, THEMES.light.unique])).toEqual([]);
    } finally {
      await page.close();
    }
  });

  test("a QR code's answer is drawn as scans: none yet, then the scans as bars", async () => {
    const created = await client.callTool({ name: "create_qr_code", arguments: { type: "link", data: "https://example.com/app-view-qr", name: "Poster" } });
    const id = (created.structuredContent as { id: number }).id;
    const unscanned = await host({}, await client.callTool({ name: "get_qr_code", arguments: { id } }), "dark", "mcp-app-qr-unscanned");
    try {
      expect(unscanned.errors).toEqual([]);
      expect(await unscanned.view.evaluate("document.querySelector('h1').textContent")).toBe("Poster");
      expect(await unscanned.view.evaluate("document.querySelector('.empty').textContent")).toBe("No scans yet.");
    } finally {
      await unscanned.page.close();
    }
    const code = sandbox.store.state.qrs.find((qr) => qr.id === id)!.code;
    for (let scan = 0; scan < 3; scan += 1)
      await (await fetch(`${sandbox.baseUrl}/qr/${code}`, { redirect: "manual", headers: { "user-agent": `scanner-${scan}` } })).text();
    const scanned = await client.callTool({ name: "get_qr_code", arguments: { id } });
    expect((scanned.structuredContent as { stats: { clicks: number } }).stats.clicks).toBe(3);
    const { page, view, screenshot, errors } = await host({ id }, scanned, "dark", "mcp-app-qr");
    try {
      expect(errors).toEqual([]);
      const lists = await rowsOf(view);
      expect(lists[0]!.map((row) => row.label)).toEqual(["Scans", "Unique"]);
      expect(lists[0]![0]!.count).toBe("3");
      expect(barsOf(screenshot, [THEMES.dark.bar]).length).toBe(lists.flat().length - 1);
    } finally {
      await page.close();
    }
  });
});

test("hostile statistics (10,000 countries, 1 MB labels, markup, negative and string counts) are drawn bounded, as text, as the tool reads them for the view", async () => {
  const countries: Record<string, number> = {};
  for (let index = 0; index < 10_000; index += 1) countries[`Country ${index}`] = index;
  const stats = {
    clicks: "25",
    uniqueClicks: -4,
    topCountries: countries,
    topReferrers: { '"><script>window.pwned = 1</script>': 7, ["r".repeat(1_000_000)]: 5, "<img src=x onerror=window.pwned=2>": 3, "\u202egnp.exe": 2 },
    topBrowsers: { Chrome: "4", Firefox: "many", Safari: null, Edge: -3 },
    topOs: ["not", "a", "map"],
  };
  const hostile = {
    content: [{ type: "text", text: "{}" }],
    structuredContent: { details: { shorturl: `https://sho.rt/${"x".repeat(1_000_000)}` }, stats },
    _meta: { [VIEW_CHART_META_KEY]: (await statisticsView(stats, `sho.rt/${"x".repeat(1_000_000)}`, "clicks"))() },
  };
  const { page, view, errors, requests } = await host({}, hostile, "light", "mcp-app-hostile");
  try {
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    expect(await view.evaluate("window.pwned")).toBeUndefined();
    expect(await view.evaluate("[document.querySelectorAll('script').length, document.querySelectorAll('img').length]")).toEqual([1, 0]);
    expect(((await view.evaluate<string>("document.querySelector('h1').textContent")) as string).length).toBeLessThanOrEqual(60);
    const lists = await rowsOf(view);
    expect(lists[0]!.map((row) => [row.label, row.count])).toEqual([
      ["Clicks", "25"],
      ["Unique", "0"],
    ]);
    expect(lists[1]!.map((row) => row.label)).toEqual(Array.from({ length: 8 }, (_, index) => `Country ${9_999 - index}`));
    expect(lists[2]!.map((row) => row.label)).toEqual([
      '"><script>window.pwned = 1</script>',
      `${"r".repeat(59)}\u2026`,
      "<img src=x onerror=window.pwned=2>",
      "gnp.exe",
    ]);
    expect(lists[3]!.map((row) => [row.label, row.count])).toEqual([["Chrome", "4"]]);
    expect(lists).toHaveLength(4);
    for (const row of lists.flat()) expect(row.cut).toBe(false);
  } finally {
    await page.close();
  }
});

test("view data a host forwards broken (not lists, not numbers, markup) breaks nothing and stays text", async () => {
  const forged = {
    content: [{ type: "text", text: "{}" }],
    _meta: {
      [VIEW_CHART_META_KEY]: {
        kind: "statistics",
        title: { toString: "<b>x</b>" },
        unit: "scans",
        clicks: "7",
        uniqueClicks: Number.NaN,
        sections: [
          null,
          {
            title: "<img src=x onerror=window.pwned=3>",
            rows: [
              { label: "<img src=x onerror=window.pwned=4>", count: 2 },
              { label: 5, count: "3" },
            ],
          },
          { rows: "none" },
        ],
        empty: false,
      },
    },
  };
  const { page, view, errors, requests } = await host({}, forged, "light", "mcp-app-forged");
  try {
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    expect(await view.evaluate("window.pwned")).toBeUndefined();
    expect(await view.evaluate("document.querySelectorAll('img').length")).toBe(0);
    expect(await view.evaluate("document.querySelector('summary').textContent")).toBe("<img src=x onerror=window.pwned=3>");
    const lists = await rowsOf(view);
    expect(lists.map((rows) => rows.map((row) => [row.label, row.count]))).toEqual([
      [
        ["Scans", "0"],
        ["Unique", "0"],
      ],
      [
        ["<img src=x onerror=window.pwned=4>", "2"],
        ["", "0"],
      ],
    ]);
  } finally {
    await page.close();
  }
});
