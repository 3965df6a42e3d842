/**
 * A sweep over pages that move under it: links deleted by others while the walk is under way, and
 * a server that lists links of the same second in a different order on each request (MySQL's
 * `ORDER BY date LIMIT/OFFSET`). The index never ends complete without every live link, and never
 * drops a live one.
 */
import { emptyStats, startSandbox, type Sandbox } from "@linkshort/sandbox";
import { LinkIndex, LinkShortClient, RateLimiter, undiciTransport } from "../src";
import { fillLinks } from "./fill-links";
import { linkDefaults } from "../../sandbox/src/model/link-record";

let sandbox: Sandbox;
let client: LinkShortClient;

afterEach(() => sandbox.close());

async function start(options: Parameters<typeof startSandbox>[0] = {}) {
  sandbox = await startSandbox({ seed: "minimal", rateLimit: { limit: 1_000_000, windowMs: 60_000 }, ...options });
  client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter() } });
}

/** Pages of 100: these walks cross many page boundaries (the sandbox would give 1,000 a page by default). */
const WALK_PAGE = 100;

const liveIds = () =>
  sandbox.store.state.links
    .filter((link) => link.userId === 2)
    .map((link) => link.id)
    .sort((a, b) => a - b);
const indexedIds = (index: LinkIndex) =>
  index
    .search("", Number.MAX_SAFE_INTEGER)
    .links.map((link) => link.id)
    .sort((a, b) => a - b);

/** Deletes the `count` newest links of the user (pages already walked) when the walk asks for page `page`, `times` times. */
function deleteWhileWalking(page: number, count: number, times = 1): number[] {
  const deleted: number[] = [];
  let left = times;
  sandbox.onApiRequest = ({ path, query }) => {
    if (left === 0 || path !== "/api/urls" || query.get("page") !== String(page)) return;
    left -= 1;
    const newest = sandbox.store.state.links
      .filter((link) => link.userId === 2)
      .sort((a, b) => b.id - a.id)
      .slice(0, count);
    for (const link of newest) {
      sandbox.store.state.links.splice(sandbox.store.state.links.indexOf(link), 1);
      deleted.push(link.id);
    }
  };
  return deleted;
}

describe("links deleted by others during a sweep", () => {
  it("a first sweep that saw the pages shift does not end complete with live links missing: it reads again", async () => {
    await start();
    fillLinks(sandbox, 1_000);
    const deleted = deleteWhileWalking(5, 10);
    const index = new LinkIndex({ minSyncIntervalMs: 0, pageSize: WALK_PAGE });
    const freshness = await index.sync(client);
    expect(deleted).toHaveLength(10);
    expect(freshness.complete).toBe(true);
    expect(indexedIds(index)).toEqual(liveIds());
  });

  it("never reports complete while every walk sees the pages shift, and drops no live link", async () => {
    await start();
    fillLinks(sandbox, 1_000);
    deleteWhileWalking(5, 3, Number.POSITIVE_INFINITY);
    const index = new LinkIndex({ minSyncIntervalMs: 0, pageSize: WALK_PAGE });
    const freshness = await index.sync(client);
    expect(freshness.complete).toBe(false);
    const indexed = new Set(indexedIds(index));
    expect(liveIds().filter((id) => !indexed.has(id))).toEqual([]);
  });

  it("a later sweep that walks shifting pages drops no live link as a mass deletion", async () => {
    await start();
    fillLinks(sandbox, 1_000);
    const index = new LinkIndex({ minSyncIntervalMs: 0, sweepEveryMs: 0, pageSize: WALK_PAGE });
    await index.sync(client);
    expect(index.freshness().complete).toBe(true);
    const deleted = deleteWhileWalking(5, 30);
    const freshness = await index.sync(client);
    expect(deleted).toHaveLength(30);
    const indexed = new Set(indexedIds(index));
    expect(liveIds().filter((id) => !indexed.has(id))).toEqual([]);
    expect(freshness.complete).toBe(true);
    expect(indexedIds(index)).toEqual(liveIds());
  });
});

/** `count` links in bursts of `burst`, each burst within one second, as a workflow makes them. */
function fillInBursts(count: number, burst: number): void {
  const start = Date.UTC(2026, 0, 1);
  for (let i = 0; i < count; i += 1) {
    sandbox.store.state.links.push({
      id: sandbox.store.nextId("links"),
      userId: 2,
      alias: `burst${i}`,
      domain: null,
      url: `https://example.com/burst/${i}`,
      ...linkDefaults(),
      metatitle: `Burst ${i}`,
      date: new Date(start + Math.floor(i / burst) * 60_000).toISOString().slice(0, 19).replace("T", " "),
      stats: emptyStats(),
    });
  }
}

describe("links made by others while a sweep counts", () => {
  it("a link made between the first page and the count is counted again, not walked twice over", async () => {
    await start();
    fillLinks(sandbox, 3_000);
    let made = 0;
    sandbox.onApiRequest = ({ path, query }) => {
      // The count: the last page, read once the first page is known.
      if (made === 0 && path === "/api/urls" && query.get("page") === "30") {
        made += 1;
        // Made now: the newest date of all.
        fillLinks(sandbox, 1);
        sandbox.store.state.links.at(-1)!.date = "2026-06-01 00:00:00";
      }
    };
    const index = new LinkIndex({ minSyncIntervalMs: 0, pageSize: WALK_PAGE });
    const before = sandbox.requests.length;
    const freshness = await index.sync(client);
    expect(made).toBe(1);
    expect(freshness.complete).toBe(true);
    expect(indexedIds(index)).toEqual(liveIds());
    // One walk of 31 pages, its first page, two counts: not a second walk of the account.
    expect(sandbox.requests.slice(before).filter((request) => request.path === "/api/urls").length).toBeLessThanOrEqual(36);
  });
});

describe("a server that lists links of the same second in any order", () => {
  it("the sandbox reproduces it: two reads of one page may differ, and a walk by pages misses links", async () => {
    await start({ dateTies: "unstable" });
    fillInBursts(1_000, 30);
    const seen = new Set<number>();
    let pages = 0;
    for (let page = 1; ; page += 1) {
      const answer = await client.links.list({ limit: 100, page });
      for (const link of answer.items) seen.add(link.id);
      pages += 1;
      if (page >= answer.maxpage) break;
    }
    expect(pages).toBe(10);
    expect(seen.size).toBeLessThan(1_000);
  });

  it("1,000 links in bursts of 30: the first sweep indexes every one, and the next drops none", async () => {
    await start({ dateTies: "unstable" });
    fillInBursts(1_000, 30);
    const index = new LinkIndex({ minSyncIntervalMs: 0, sweepEveryMs: 0, pageSize: WALK_PAGE });
    const first = await index.sync(client);
    expect(first.complete).toBe(true);
    expect(indexedIds(index)).toEqual(liveIds());
    await index.sync(client);
    expect(indexedIds(index)).toEqual(liveIds());
    expect(index.freshness().complete).toBe(true);
  });
});

describe("large pages over runs of equal dates", () => {
  it("3,000 links in bursts of 30, pages of 1,000: every link indexed, and the reads that cover a run do not shrink the account's page size", async () => {
    await start({ dateTies: "unstable" });
    fillInBursts(3_000, 30);
    const index = new LinkIndex({ minSyncIntervalMs: 0, sweepEveryMs: 0 });
    expect((await index.sync(client)).complete).toBe(true);
    expect(indexedIds(index)).toEqual(liveIds());
    // The covering reads asked for small limits; the next large list still asks for 1,000.
    let asked: string | null = null;
    sandbox.onApiRequest = ({ query }) => {
      asked = query.get("limit");
    };
    await client.links.list({ limit: "large" });
    expect(asked).toBe("1000");
  });
});

describe("a server whose pages are smaller than the limit asked", () => {
  it("walks by the page size it answers with: every link indexed, none dropped", async () => {
    await start({ dateTies: "unstable" });
    fillInBursts(1_000, 30);
    // A server (or proxy) that caps the page size at 40 whatever the `limit` asked: perpage says 40.
    const http = undiciTransport();
    const capped = new LinkShortClient({
      baseUrl: sandbox.baseUrl,
      apiKey: sandbox.userKey,
      rateLimit: { limiter: new RateLimiter() },
      transport: (request) => {
        const url = new URL(request.url);
        const limit = Number(url.searchParams.get("limit"));
        if (url.pathname === "/api/urls" && limit > 40) url.searchParams.set("limit", "40");
        return http({ ...request, url: url.toString() });
      },
    });
    const index = new LinkIndex({ minSyncIntervalMs: 0, sweepEveryMs: 0 });
    const first = await index.sync(capped);
    expect(first.complete).toBe(true);
    expect(first.serverCount).toBe(1_000);
    expect(indexedIds(index)).toEqual(liveIds());
    await index.sync(capped);
    expect(indexedIds(index)).toEqual(liveIds());
  });
});
