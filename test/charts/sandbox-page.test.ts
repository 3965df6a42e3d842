import type { Browser } from "playwright-core";
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { launchBrowser, look } from "./browser";
import { barsOf } from "./png-reader";

let sandbox: Sandbox;
let browser: Browser;
beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowMs: 60_000 } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
  await sandbox.close();
});

const LIGHT_BARS = ["#0969da", "#54aeff"];

async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${sandbox.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${sandbox.userKey}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await response.json()) as Record<string, unknown>;
}

async function visit(alias: string, referer: string, times: number) {
  for (let index = 0; index < times; index += 1)
    await (await fetch(`${sandbox.baseUrl}/${alias}`, { redirect: "manual", headers: { referer, "user-agent": `agent-${index}` } })).text();
}

interface Row {
  label: string;
  cut: boolean;
  barWidth: number;
  trackWidth: number;
  count: string;
}

const rowsOf = (page: import("playwright-core").Page, cardId: string) =>
  page.evaluate<Row[]>(`[...document.querySelectorAll("#${cardId} table.chart tr")].filter((row) => row.querySelector("th")).map((row) => {
    const th = row.querySelector("th");
    return { label: th.textContent, cut: th.scrollWidth > th.clientWidth, barWidth: row.querySelector(".track span").getBoundingClientRect().width, trackWidth: row.querySelector(".track").getBoundingClientRect().width, count: row.querySelector(".count").textContent };
  })`);

describe("the sandbox's root page in the real browser", () => {
  it("lists the demo account's links and QR codes with their clicks as bars in order, QR images loaded, labels whole, no console error", async () => {
    const created = await api("POST", "/api/url/add", { url: "https://example.com/chart-page", custom: "chart-page" });
    await visit("chart-page", "https://news.ycombinator.com/item?id=1", 6);
    await visit("chart-page", "https://www.google.com/", 3);
    await visit("chart-page", "https://evil.example/", 1);
    // What a hostile visitor could leave in the records: markup as a referrer and as a country.
    const record = sandbox.store.state.links.find((link) => link.id === created.id)!;
    delete record.stats.referrers["evil.example"];
    record.stats.referrers['"><script>alert(1)</script>'] = 1;
    record.stats.countries["<img src=x onerror=alert(2)>"] = 1;
    const qr = await api("POST", "/api/qr/add", { type: "link", data: "https://example.com/poster", name: "Poster" });

    const seen = await look(browser, { url: `${sandbox.baseUrl}/` }, { width: 1280, height: 900 }, "sandbox-root-page");
    const { page } = seen;
    expect(await page.title()).toBe("linkshort sandbox");
    const linkRows = await rowsOf(page, `link-${created.id}`);
    expect(linkRows.map((row) => [row.label, row.count]).slice(0, 2)).toEqual([
      ["All clicks", "10"],
      ["Unique clicks", "6"],
    ]);
    const referrers = linkRows.filter((row) => /ycombinator|google|script/.test(row.label));
    expect(referrers.map((row) => row.count)).toEqual(["6", "3", "1"]);
    // Each bar as long as its count's share of the clicks (visitors differ by user agent: six of them).
    for (const row of linkRows) expect(Math.abs(row.barWidth - (row.trackWidth * Number(row.count)) / 10)).toBeLessThanOrEqual(row.trackWidth * 0.011 + 1);
    // A label as long as "news.ycombinator.com" shows whole; longer ones end in an ellipsis, in their cell.
    for (const row of linkRows.filter((candidate) => candidate.label.length <= 20)) expect(row.cut).toBe(false);
    // The referrer's markup is text on the page, and ran nowhere.
    expect(referrers[2]!.label).toContain("<script>");
    expect(linkRows.map((row) => row.label)).toContain("<img src=x onerror=alert(2)>");
    expect(await page.evaluate<number>(`document.scripts.length + document.querySelectorAll("[onerror]").length`)).toBe(0);

    const images = await page.evaluate<Array<{ src: string; loaded: boolean }>>(
      `[...document.querySelectorAll(".qr img")].map((image) => ({ src: image.getAttribute("src"), loaded: image.complete && image.naturalWidth > 0 }))`,
    );
    expect(images.length).toBeGreaterThan(0);
    expect(images.every((image) => image.loaded)).toBe(true);
    expect(await page.textContent(`#qr-${qr.id}`)).toContain("No scans yet");

    expect(barsOf(seen.screenshot, LIGHT_BARS, 4).length).toBeGreaterThan(10);
    expect(seen.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("fits a phone's width: cards stack, bars and counts stay inside the card", async () => {
    const seen = await look(browser, { url: `${sandbox.baseUrl}/` }, { width: 390, height: 800 }, "sandbox-root-page-narrow");
    const overflow = await seen.page.evaluate<number>(`document.documentElement.scrollWidth - window.innerWidth`);
    expect(overflow).toBeLessThanOrEqual(0);
    const outside = await seen.page.evaluate<number>(
      `[...document.querySelectorAll(".card")].filter((card) => [...card.querySelectorAll(".count, .track")].some((cell) => cell.getBoundingClientRect().right > card.getBoundingClientRect().right)).length`,
    );
    expect(outside).toBe(0);
    expect(seen.errors).toEqual([]);
    await seen.page.close();
  }, 60_000);

  it("answers scripts and health checks with the one line of text it always sent", async () => {
    const response = await fetch(`${sandbox.baseUrl}/`, { headers: { accept: "*/*" } });
    expect(await response.text()).toBe("linkshort sandbox\n");
  });
});

describe("the sandbox's root page draws each link's last 7 days from its visit times", () => {
  const DAY = 86_400_000;
  /** Sunday 8 November 2026, 15:00 UTC. */
  const NOW = Date.UTC(2026, 10, 8, 15);
  let clock = NOW;
  let timed: Sandbox;
  beforeAll(async () => {
    timed = await startSandbox({ rateLimit: { limit: 100_000, windowMs: 60_000 }, now: () => clock });
  });
  afterAll(async () => {
    clock = NOW;
    await timed.close();
  });

  it("a column per UTC day as tall as its visits' share of the busiest day, empty days empty, older visits outside; links with no visit times say so", async () => {
    const response = await fetch(`${timed.baseUrl}/api/url/add`, {
      method: "POST",
      headers: { authorization: `Bearer ${timed.userKey}`, "content-type": "application/json" },
      body: JSON.stringify({ url: "https://example.com/week", custom: "week-page" }),
    });
    const { id } = (await response.json()) as { id: number };
    const perDay = [1, 0, 3, 2, 5, 0, 4];
    const visitAt = async (at: number) => {
      clock = at;
      await (await fetch(`${timed.baseUrl}/week-page`, { redirect: "manual" })).text();
    };
    await visitAt(NOW - 8 * DAY);
    for (const [index, count] of perDay.entries()) {
      for (let visit = 0; visit < count; visit += 1) await visitAt(Date.UTC(2026, 10, 2 + index, 10, visit));
    }
    clock = NOW;

    const seen = await look(browser, { url: `${timed.baseUrl}/` }, { width: 1280, height: 900 }, "sandbox-root-page-week");
    const columns = await seen.page.evaluate<Array<{ day: string; count: number; label: string; height: number; plot: number }>>(
      `[...document.querySelectorAll("#link-${id} .series li")].map((item) => ({ day: item.dataset.day, count: Number(item.dataset.count), label: item.querySelector(".day").textContent, height: item.querySelector(".col").getBoundingClientRect().height, plot: item.querySelector(".plot").getBoundingClientRect().height }))`,
    );
    expect(columns.map((column) => [column.day, column.count])).toEqual(perDay.map((count, index) => [`2026-11-0${2 + index}`, count]));
    expect(columns.map((column) => column.label)).toEqual(["Mon 2", "Tue 3", "Wed 4", "Thu 5", "Fri 6", "Sat 7", "Sun 8"]);
    for (const column of columns) expect(Math.abs(column.height - (column.plot * column.count) / 5)).toBeLessThanOrEqual(1);
    // The week's count set against the all-time total the bars show (one visit is older than the week), and one visit in words as one.
    expect(await seen.page.textContent(`#link-${id} .series figcaption`)).toBe("Last 7 days (UTC): 15 clicks of 16 in all");
    expect(await seen.page.getAttribute(`#link-${id} .series li[data-day="2026-11-02"]`, "title")).toBe("Mon 2: 1 click");
    // The seeded links' clicks predate visit times: no series is made up for them.
    const seeded = timed.store.state.links.find((link) => link.alias === "n8n")!;
    expect(await seen.page.textContent(`#link-${seeded.id} .series-none`)).toBe("No clicks with a time yet: each visit from now on is kept with its time.");
    expect(seen.errors).toEqual([]);
    await seen.page.close();
  }, 60_000);
});
