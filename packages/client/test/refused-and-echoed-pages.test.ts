/**
 * Servers that answer a large `limit` otherwise than with a capped page that says its size
 * (issue 43): one refuses it with the deployed servers' error envelope, another caps the page but
 * writes the asked `limit` into `perpage` (its `maxpage` and `nextpage` honest).
 */
import { startSandbox, type OversizedPages, type Sandbox } from "@linkshort/sandbox";
import {
  ApiError,
  createLink,
  LinkIndex,
  LinkShortClient,
  NotFoundError,
  PagePromise,
  PermissionError,
  RateLimiter,
  RateLimitError,
  type Page,
  type CreateLinkOptions,
  type LinkCreateInput,
} from "../src";
import { isPageSizeRefusal } from "../src/internal/page-size";
import { fillLinks } from "./fill-links";
import { scripted } from "./helpers";

/** `createLink` with reuse on, as every call here asks. */
const createReusing = (client: LinkShortClient, index: LinkIndex, input: LinkCreateInput, options: CreateLinkOptions = {}) =>
  createLink(client, index, input, { ...options, reuse: true });

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.close()));
});

async function account(links: number, maxPageSize: number, oversizedPages: OversizedPages) {
  const sandbox = await startSandbox({ seed: "minimal", rateLimit: { limit: 1_000_000, windowMs: 60_000 }, maxPageSize, oversizedPages });
  sandboxes.push(sandbox);
  fillLinks(sandbox, links);
  const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter() } });
  const limits = () => sandbox.requests.filter((request) => request.path === "/api/urls").map((request) => new URLSearchParams(request.query).get("limit"));
  return { sandbox, client, limits };
}

describe('a server that refuses a large page (HTTP 200, "The limit must be between 1 and 100.")', () => {
  it('limit "large" falls back to pages of 100, reads every link, and asks the account for 100 from then on', async () => {
    const { client, limits } = await account(250, 100, "refuse");
    expect(await client.links.list({ limit: "large" }).toArray()).toHaveLength(250);
    expect(limits()).toEqual(["1000", "100", "100", "100"]);
    expect((await client.links.list({ limit: "large" })).perpage).toBe(100);
    expect(limits().slice(4)).toEqual(["100"]);
  });

  it("a number above the maximum is answered as a capped server would: the page of the size it allows, perpage saying so", async () => {
    const { client, limits } = await account(250, 100, "refuse");
    const page = await client.links.list({ limit: 500, page: 2 });
    expect(page).toMatchObject({ perpage: 100, currentpage: 2, maxpage: 3 });
    expect(page.items).toHaveLength(100);
    expect(limits()).toEqual(["500", "100"]);
  });

  it("falls back to the documented default of 15 when 100 is refused too, and remembers that", async () => {
    const { client, limits } = await account(40, 20, "refuse");
    expect(await client.links.list({ limit: "large" }).toArray()).toHaveLength(40);
    expect(limits()).toEqual(["1000", "100", "15", "15", "15"]);
    await client.links.list({ limit: "large" });
    expect(limits().slice(5)).toEqual(["15"]);
  });

  it("when even 15 is refused, fails with the server's message and the page size asked", async () => {
    const { client, limits } = await account(40, 10, "refuse");
    const error = await client.links
      .list({ limit: "large" })
      .toArray()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe("The limit must be between 1 and 10. (asked for pages of 15 items)");
    expect(limits()).toEqual(["1000", "100", "15"]);
  });

  it("LinkIndex.sync indexes every link (50 of 50)", async () => {
    const { client, sandbox } = await account(50, 100, "refuse");
    const freshness = await new LinkIndex({ minSyncIntervalMs: 0 }).sync(client);
    expect(freshness.complete).toBe(true);
    expect(freshness.known).toBe(sandbox.store.linksOf(2).length);
    expect(freshness.known).toBe(50);
  });

  it("get-or-create creates a link among 50, then hands the same link back", async () => {
    const { client, sandbox } = await account(50, 100, "refuse");
    const index = new LinkIndex({ minSyncIntervalMs: 0 });
    index.watch(client);
    const made = await createReusing(client, index, { url: "https://example.com/not-yet" });
    expect(made.reused).toBe(false);
    expect(sandbox.store.state.links.find((link) => link.id === made.id)?.url).toBe("https://example.com/not-yet");
    expect(await createReusing(client, index, { url: "https://example.com/not-yet" })).toEqual({ ...made, reused: true });
    expect(index.freshness().known).toBe(51);
  });
});

describe("an error that is not about the page size", () => {
  it("is told apart by its class and message: a refused key, a missing record, the rate limit or another failure are not refusals", () => {
    expect(isPageSizeRefusal(new ApiError("The limit must be between 1 and 100.", 200))).toBe(true);
    expect(isPageSizeRefusal(new ApiError("Invalid per page value.", 200))).toBe(true);
    expect(isPageSizeRefusal(new ApiError("The database is unavailable.", 200))).toBe(false);
    expect(isPageSizeRefusal(new ApiError("Unlimited plans only.", 200))).toBe(false);
    expect(isPageSizeRefusal(new RateLimitError("Too Many API Requests. Rate limit exceeded.", 200, 1000, undefined))).toBe(false);
    expect(isPageSizeRefusal(new PermissionError("You have reached the limit of your plan.", 403))).toBe(false);
    expect(isPageSizeRefusal(new NotFoundError("Link does not exist.", 200))).toBe(false);
  });

  it("fails at once with the server's message, and the account is asked for large pages afterwards as before", async () => {
    let answers = 0;
    const { client, sent } = scripted((request) => {
      answers += 1;
      if (answers === 1) return { json: { error: 1, message: "The database is unavailable." } };
      const limit = Number(new URL(request.url).searchParams.get("limit"));
      return { json: { error: "0", data: { result: 0, perpage: limit, currentpage: 1, nextpage: 2, maxpage: 1, urls: [] } } };
    });
    await expect(client.links.list({ limit: "large" }).toArray()).rejects.toThrow(new ApiError("The database is unavailable.", 200));
    expect(sent.map((request) => request.query.limit)).toEqual(["1000"]);
    await client.links.list({ limit: "large" });
    expect(sent.map((request) => request.query.limit)).toEqual(["1000", "1000"]);
  });
});

describe("a server that caps pages at 50 but writes the asked limit into perpage", () => {
  it('limit "large" reads every page maxpage counts: 475 of 475', async () => {
    const { client, limits } = await account(475, 50, "echo");
    const items = await client.links.list({ limit: "large" }).toArray();
    expect(new Set(items.map((link) => link.id)).size).toBe(475);
    expect(limits()).toHaveLength(10);
  });

  it("LinkIndex.sync indexes 475 of 475 and trusts its walk, in as few requests as against a server whose perpage says 50", async () => {
    const { client, sandbox } = await account(475, 50, "echo");
    const before = sandbox.requests.length;
    const freshness = await new LinkIndex({ minSyncIntervalMs: 0 }).sync(client);
    expect(freshness).toMatchObject({ known: 475, complete: true });
    // The first page, the last (the count), then the 10 pages of 50 of the walk.
    expect(sandbox.requests.length - before).toBeLessThanOrEqual(12);
  });

  it("isLastPage reads on past a page shorter than perpage while maxpage says more, and stops at a page shorter than an earlier one of the walk", () => {
    const page = (items: number, currentpage: number, maxpage: number, nextpage: number | null): Page<number> => ({
      items: Array.from({ length: items }, (_, i) => i),
      result: items,
      perpage: 1000,
      currentpage,
      nextpage,
      maxpage,
    });
    expect(PagePromise.isLastPage(page(50, 1, 10, 2), 1)).toBe(false);
    expect(PagePromise.isLastPage(page(50, 2, 10, 3), 2, 50)).toBe(false);
    expect(PagePromise.isLastPage(page(25, 10, 10, 11), 10, 50)).toBe(true);
    expect(PagePromise.isLastPage(page(20, 3, 10, 4), 3, 50)).toBe(true);
    expect(PagePromise.isLastPage(page(0, 2, 10, 3), 2)).toBe(true);
  });

  it("sizeGiven is the item count of a page shorter than its perpage that maxpage says is not the last, else perpage", () => {
    const page = (items: number, perpage: number, currentpage: number, maxpage: number): Page<number> => ({
      items: Array.from({ length: items }, (_, i) => i),
      result: items,
      perpage,
      currentpage,
      nextpage: currentpage + 1,
      maxpage,
    });
    expect(PagePromise.sizeGiven(page(50, 1000, 1, 10))).toBe(50);
    expect(PagePromise.sizeGiven(page(25, 1000, 10, 10))).toBe(1000);
    expect(PagePromise.sizeGiven(page(100, 100, 1, 3))).toBe(100);
    expect(PagePromise.sizeGiven(page(0, 100, 4, 3))).toBe(100);
    expect(PagePromise.sizeGiven(page(7, 0, 1, 1))).toBe(7);
  });
});
