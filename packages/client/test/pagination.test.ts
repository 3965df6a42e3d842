import { PagePromise } from "../src/core";
import { scripted, type Handler } from "./helpers";

function linkServer(total: number, options: { perpage?: number; lyingNextpage?: boolean; maxpage?: (pages: number) => number } = {}): Handler {
  return (request) => {
    const url = new URL(request.url);
    const perpage = Number(url.searchParams.get("limit") ?? options.perpage ?? 15);
    const page = Number(url.searchParams.get("page") ?? 1);
    const pages = Math.max(1, Math.ceil(total / perpage));
    const start = (page - 1) * perpage;
    const urls = Array.from({ length: Math.max(0, Math.min(perpage, total - start)) }, (_, i) => ({
      id: total - start - i,
      alias: `a${start + i}`,
      shorturl: `https://s.io/a${start + i}`,
      longurl: "https://example.com",
      clicks: 0,
      title: "",
      description: "",
      date: "2026-11-01 00:00:00",
    }));
    const nextpage = options.lyingNextpage ? page + 1 : Math.min(page + 1, pages);
    return { json: { error: "0", data: { result: urls.length, perpage, currentpage: page, nextpage, maxpage: options.maxpage?.(pages) ?? pages, urls } } };
  };
}

describe("pagination", () => {
  it("awaiting a list gives one page", async () => {
    const { client, sent } = scripted(linkServer(40));
    const page = await client.links.list({ limit: 15 });
    expect(page).toMatchObject({ result: 15, perpage: 15, currentpage: 1, maxpage: 3 });
    expect(page.items).toHaveLength(15);
    expect(sent).toHaveLength(1);
  });

  it("for await goes over every item of every page, stopping by maxpage", async () => {
    const { client, sent } = scripted(linkServer(45, { lyingNextpage: true }));
    const ids: number[] = [];
    for await (const link of client.links.list({ limit: 15 })) ids.push(link.id);
    expect(ids).toEqual(Array.from({ length: 45 }, (_, i) => 45 - i));
    expect(sent.map((r) => r.query.page)).toEqual(["1", "2", "3"]);
  });

  it("stops at a short page even when maxpage and nextpage say more", async () => {
    const { client, sent } = scripted(linkServer(20, { lyingNextpage: true, maxpage: () => 99 }));
    const items = await client.links.list({ limit: 15 }).toArray();
    expect(items).toHaveLength(20);
    expect(sent).toHaveLength(2);
  });

  it("stops at an empty page", async () => {
    const { client, sent } = scripted(linkServer(30, { lyingNextpage: true, maxpage: () => 99 }));
    const items = await client.links.list({ limit: 15 }).toArray();
    expect(items).toHaveLength(30);
    expect(sent).toHaveLength(3);
  });

  it("starts at the requested page and reads only what toArray(max) needs", async () => {
    const { client, sent } = scripted(linkServer(100));
    const items = await client.links.list({ limit: 10, page: 3 }).toArray(15);
    expect(items.map((l) => l.id)).toEqual(Array.from({ length: 15 }, (_, i) => 80 - i));
    expect(sent.map((r) => r.query.page)).toEqual(["3", "4"]);
  });

  it("iterates pages one at a time (a page in memory at a time)", async () => {
    const { client, sent } = scripted(linkServer(30));
    const iterator = client.links.list({ limit: 10 }).pages();
    await iterator.next();
    expect(sent).toHaveLength(1);
    await iterator.next();
    expect(sent).toHaveLength(2);
  });

  it("requests nothing until awaited or iterated, and rejects bad params lazily", async () => {
    const { client, sent } = scripted(linkServer(10));
    const list = client.links.list();
    expect(sent).toHaveLength(0);
    await list;
    await list;
    expect(sent).toHaveLength(1);
    await expect(client.links.list({ limit: -1 }).toArray()).rejects.toMatchObject({ name: "ValidationError" });
  });

  it("single-page lists (plans, users) iterate too", async () => {
    const plan = { id: 1, name: "Free", free: true, prices: null, limits: { links: 1, clicks: 1, retention: 1 } };
    const { client } = scripted(() => ({ json: { error: 0, data: [plan, { ...plan, id: 2 }] } }));
    const ids: number[] = [];
    for await (const p of client.plans.list()) ids.push(p.id);
    expect(ids).toEqual([1, 2]);
  });
});

describe("PagePromise.pageHolding: the page that holds a run of list positions whole", () => {
  it("finds the smallest page size whose page holds the run", () => {
    expect(PagePromise.pageHolding(0, 0, 1_000)).toEqual({ page: 1, limit: 1 });
    // A run that pages of 100 split (positions 98 to 102) fits page 15 of 7 (positions 98 to 104).
    expect(PagePromise.pageHolding(98, 102, 1_000)).toEqual({ page: 15, limit: 7 });
  });

  it("finds none when no page of at most maxLimit holds the run", () => {
    expect(PagePromise.pageHolding(0, 10, 5)).toBeUndefined();
    expect(PagePromise.pageHolding(98, 100, 3)).toBeUndefined(); // pages of 3 start at 96 and 99
  });

  it("answers a page that holds the run whenever some page size up to the cap does, and the smallest such size", () => {
    for (let first = 0; first < 60; first += 1) {
      for (let last = first; last < first + 25; last += 1) {
        for (const maxLimit of [1, 3, 10, 26, 40]) {
          const holds = (limit: number) => (Math.floor(first / limit) + 1) * limit > last;
          const sizes = Array.from({ length: maxLimit }, (_, i) => i + 1).filter((limit) => limit >= last - first + 1 && holds(limit));
          const found = PagePromise.pageHolding(first, last, maxLimit);
          if (sizes.length === 0) expect(found).toBeUndefined();
          else {
            expect(found?.limit).toBe(sizes[0]);
            expect((found!.page - 1) * found!.limit).toBeLessThanOrEqual(first);
            expect(found!.page * found!.limit).toBeGreaterThan(last);
          }
        }
      }
    }
  });
});
