import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { FileIndexStore, LinkIndex, LinkShortClient, RateLimiter, ValidationError, createLink, type CreateLinkOptions, type LinkCreateInput } from "../src";
import { aliasFromShortUrl } from "../src/values";
import { shortUrlKey } from "../src/addresses";
import { fillLinks } from "./fill-links";

/** `createLink` with reuse on, as every call here asks. */
const createReusing = (client: LinkShortClient, index: LinkIndex, input: LinkCreateInput, options: CreateLinkOptions = {}) =>
  createLink(client, index, input, { ...options, reuse: true });

const apiRequests = (sandbox: Sandbox, from: number) => sandbox.requests.slice(from).filter((request) => request.path.startsWith("/api/"));

describe("link index over a 10,000-link account", () => {
  let sandbox: Sandbox;
  let client: LinkShortClient;
  let index: LinkIndex;
  const count = 10_000;

  beforeAll(async () => {
    sandbox = await startSandbox({ seed: "minimal", rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
    fillLinks(sandbox, count);
    client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter() } });
    index = new LinkIndex({ minSyncIntervalMs: 0 });
    index.watch(client);
    const progress: number[] = [];
    const freshness = await index.sync(client, { onProgress: (step) => progress.push(step.known) });
    expect(freshness.complete).toBe(true);
    expect(freshness.serverCountExact).toBe(true);
    // A step a sweep page: pages of 1,000 (the sandbox, like deployed servers, sets no maximum).
    expect(progress.length).toBeGreaterThanOrEqual(10);
  });
  afterAll(() => sandbox.close());

  it("holds every link after the first sync, counted as the server counts", () => {
    const freshness = index.freshness();
    expect(freshness.known).toBe(freshness.serverCount);
    expect(freshness.known).toBeGreaterThanOrEqual(count);
    expect(freshness.lastFullSweepAt).not.toBeNull();
  });

  it("finds the oldest link by alias, by its short URL with a query, and by a word of its title", () => {
    const oldest = index.search("fill0", 5).links[0]!;
    expect(oldest.alias).toBe("fill0");
    expect(oldest.longurl).toBe("https://example.com/fill/0");
    const shortUrl = `${oldest.shorturl.toUpperCase().replace("HTTP://", "http://")}/?utm_source=x#top`;
    expect(index.search(shortUrl, 5).links[0]!.id).toBe(oldest.id);
    expect(index.findByShortUrl(shortUrl)?.id).toBe(oldest.id);
    expect(index.findByAlias("/FILL0")?.id).toBe(oldest.id);
    const byTitle = index.search("aardvark", 5);
    expect(byTitle.links.map((link) => link.id)).toEqual([oldest.id]);
    expect(byTitle.matches).toBe(1);
  });

  it("does not match words against the short URLs' host, which most links share (nor its port)", () => {
    const host = new URL(sandbox.baseUrl).host;
    expect(index.search(host).matches).toBe(0);
    expect(index.search(host.split(":")[1]!).matches).toBeLessThan(count / 10);
  });

  it("ranks an exact alias above links that only contain it", () => {
    const result = index.search("fill12", 20);
    expect(result.links[0]!.alias).toBe("fill12");
    expect(result.links.slice(1).every((link) => link.alias.startsWith("fill12"))).toBe(true);
    // fill12, fill120 to fill129 and fill1200 to fill1299.
    expect(result.matches).toBe(1 + 10 + 100);
  });

  it("costs one request for a sync with nothing new", async () => {
    const before = sandbox.requests.length;
    await index.sync(client);
    expect(apiRequests(sandbox, before)).toHaveLength(1);
  });

  it("finds links made by this client at once, with no request", async () => {
    const created = await client.links.create({ url: "https://example.com/zebra-launch", metatitle: "Zebra launch" });
    const before = sandbox.requests.length;
    expect(index.search("zebra", 5).links.map((link) => link.id)).toEqual([created.id]);
    expect(index.findByLongUrl("https://example.com/zebra-launch")?.id).toBe(created.id);
    await client.links.update(created.id, { url: "https://example.com/okapi" });
    expect(index.get(created.id)?.longurl).toBe("https://example.com/okapi");
    await client.links.delete(created.id);
    expect(index.get(created.id)).toBeUndefined();
    expect(apiRequests(sandbox, before).filter((request) => request.method === "GET")).toHaveLength(0);
  });

  it("finds links made elsewhere on the next sync, reading only the newest page", async () => {
    const other = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey });
    const made = await other.links.create({ url: "https://example.com/elsewhere", metatitle: "Made in another process" });
    expect(index.get(made.id)).toBeUndefined();
    const before = sandbox.requests.length;
    await index.sync(client);
    expect(apiRequests(sandbox, before)).toHaveLength(1);
    expect(index.search("another process", 5).links[0]?.id).toBe(made.id);
  });

  it("finds edits and deletions made elsewhere after a sweep", async () => {
    const edited = index.search("fill5000", 1).links[0]!;
    const deleted = index.search("fill4000", 1).links[0]!;
    const link = sandbox.store.state.links.find((record) => record.id === edited.id)!;
    link.metatitle = "Renamed to wombat";
    sandbox.store.state.links.splice(
      sandbox.store.state.links.findIndex((record) => record.id === deleted.id),
      1,
    );
    const sweeping = new LinkIndex({ minSyncIntervalMs: 0, sweepEveryMs: 0, store: undefined });
    await sweeping.sync(client);
    expect(sweeping.search("wombat", 5).links.map((found) => found.id)).toEqual([edited.id]);
    expect(sweeping.get(deleted.id)).toBeUndefined();
    // The index that knew the link before finds both after its next sweep.
    await index.sync(client, { force: true });
    expect(index.get(deleted.id)).toBeDefined();
    const again = new LinkIndex({ minSyncIntervalMs: 0, sweepEveryMs: 0 });
    await again.sync(client);
    await again.sync(client);
    expect(again.get(deleted.id)).toBeUndefined();
    expect(again.search("wombat", 5).links[0]?.id).toBe(edited.id);
  });
});

describe("link index sweep and the user's own calls", () => {
  it("drops a link deleted between sweeps once a walk that saw every other link ends, with no request per link", async () => {
    const sandbox = await startSandbox({ seed: "minimal", rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
    try {
      fillLinks(sandbox, 250);
      const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter() } });
      const index = new LinkIndex({ minSyncIntervalMs: 0, sweepEveryMs: 0 });
      await index.sync(client);
      const gone = index.search("fill10", 1).links[0]!;
      sandbox.store.state.links.splice(
        sandbox.store.state.links.findIndex((record) => record.id === gone.id),
        1,
      );
      // Deleted before the sweep: the walk counts the list first, sees every link it counted, and believes the deletion.
      const shifted = sandbox.store.state.links.filter((record) => record.userId === 2).length;
      expect(shifted).toBeGreaterThan(200);
      const before = sandbox.requests.length;
      await index.sync(client);
      const gets = apiRequests(sandbox, before).filter((request) => /^\/api\/url\/\d+$/.test(request.path));
      expect(gets).toEqual([]);
      expect(index.get(gone.id)).toBeUndefined();
      expect(index.freshness().known).toBe(index.freshness().serverCount);
    } finally {
      await sandbox.close();
    }
  });

  it("leaves room in every window: a user's call never waits behind the sweep for more than one request", async () => {
    const limit = 10;
    const sandbox = await startSandbox({ seed: "minimal", rateLimit: { limit, windowMs: 2_000 } });
    try {
      fillLinks(sandbox, 3_000);
      const limiter = new RateLimiter();
      const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
      const indexClient = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter } });
      // The user's calls share the key's limiter; each wait for the rate limit goes through this sleep.
      const userWaits: number[] = [];
      const userClient = new LinkShortClient({
        baseUrl: sandbox.baseUrl,
        apiKey: sandbox.userKey,
        rateLimit: { limiter },
        sleep: (ms) => {
          userWaits.push(ms);
          return realSleep(ms);
        },
      });
      // Pages of 100: a walk of 30 requests that spans several windows.
      const index = new LinkIndex({ minSyncIntervalMs: 0, sleep: realSleep, pageSize: 100 });
      const syncing = index.sync(indexClient, { wait: true });
      // Two calls a window: what the first sync always leaves (its reserve).
      let calls = 0;
      while (!index.freshness().complete) {
        await new Promise((resolve) => setTimeout(resolve, 1_100));
        await userClient.account.get();
        calls += 1;
      }
      await syncing;
      expect(calls).toBeGreaterThanOrEqual(3);
      expect(userWaits).toEqual([]);
      // 30 pages at 8 a window: the sweep did wait for windows, leaving their last requests to the user.
      expect(sandbox.requests.filter((request) => request.path === "/api/urls").length).toBeGreaterThanOrEqual(30);
    } finally {
      await sandbox.close();
    }
  });

  it("stops a sync at its abort signal", async () => {
    const sandbox = await startSandbox({ seed: "minimal", rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
    try {
      fillLinks(sandbox, 2_000);
      const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter() } });
      const index = new LinkIndex();
      const controller = new AbortController();
      const syncing = index.sync(client, { signal: controller.signal, onProgress: (step) => step.known >= 300 && controller.abort() });
      await expect(syncing).rejects.toMatchObject({ name: "AbortedError" });
      const before = sandbox.requests.length;
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(sandbox.requests.length).toBe(before);
      expect(index.freshness().known).toBeLessThan(2_000);
    } finally {
      await sandbox.close();
    }
  });
});

describe("link index in a file", () => {
  it("survives a restart, and the first sync after it costs one request", async () => {
    const sandbox = await startSandbox({ seed: "minimal", rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
    // A folder that does not exist yet, as in a first run with LINKSHORT_MCP_INDEX_FILE=~/.cache/linkshort/links.json.
    const path = join(mkdtempSync(join(tmpdir(), "linkshort-index-")), "not-yet", "index.json");
    try {
      fillLinks(sandbox, 1_000);
      const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter() } });
      const firstStore = new FileIndexStore(path);
      const first = new LinkIndex({ store: firstStore, minSyncIntervalMs: 0 });
      first.watch(client);
      await first.sync(client);
      const made = await client.links.create({ url: "https://example.com/after-sweep", metatitle: "Pangolin" });
      await first.sync(client);
      // Another process on the same file reads it but does not write it.
      const intruder = new FileIndexStore(path);
      expect(await intruder.owns()).toBe(false);
      await firstStore.release();

      const restarted = new LinkIndex({ store: new FileIndexStore(path), minSyncIntervalMs: 0 });
      await restarted.load();
      expect(restarted.freshness().known).toBe(first.freshness().known);
      expect(restarted.search("pangolin").links[0]?.id).toBe(made.id);
      const before = sandbox.requests.length;
      await restarted.sync(client);
      expect(apiRequests(sandbox, before)).toHaveLength(1);
      expect(restarted.freshness().complete).toBe(true);
    } finally {
      await sandbox.close();
    }
  });
});

describe("create or reuse", () => {
  it("gives the same short link for the same long URL, from the index, and says so", async () => {
    const sandbox = await startSandbox({ seed: "minimal", rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
    try {
      fillLinks(sandbox, 300);
      const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter() } });
      const index = new LinkIndex();
      index.watch(client);
      // A link this index did not see made cannot be compared on its hidden options: the create goes to
      // the server, which hands back its link with the same URL and options, and the answer says so.
      const filled = await createReusing(client, index, { url: "https://example.com/fill/5", metatitle: "Fill 5" });
      expect(filled).toMatchObject({ reused: true, shorturl: expect.stringMatching(/\/fill5$/) });
      const titled = await createReusing(client, index, { url: "https://example.com/fill/0" });
      expect(titled.reused).toBe(false);
      const first = await createReusing(client, index, { url: "https://example.com/form-entry?id=7" });
      const before = sandbox.requests.length;
      const second = await createReusing(client, index, { url: "https://example.com/form-entry?id=7" });
      expect(first.reused).toBe(false);
      expect(second).toEqual({ id: first.id, shorturl: first.shorturl, reused: true });
      // The sync before it read nothing (the last was a moment ago): the GET that confirms the link is all.
      expect(apiRequests(sandbox, before).map((request) => request.path)).toEqual([`/api/url/${first.id}`]);
      // Another alias asked for: a link of its own.
      const aliased = await createReusing(client, index, { url: "https://example.com/form-entry?id=7", custom: "entry-seven" });
      expect(aliased.reused).toBe(false);
      expect(aliased.id).not.toBe(first.id);
      const sent = sandbox.requests.length;
      await expect(createReusing(client, index, { url: "not a url" })).rejects.toBeInstanceOf(ValidationError);
      expect(sandbox.requests.length).toBe(sent);
    } finally {
      await sandbox.close();
    }
  });
});

describe("short URL rules", () => {
  it("compares short URLs without scheme, query, fragment, trailing slashes or case", () => {
    expect(shortUrlKey("https://S.example/Abc/?utm_source=x#y")).toBe("s.example/abc");
    expect(shortUrlKey("s.example/abc")).toBe("s.example/abc");
    expect(shortUrlKey("")).toBeUndefined();
    expect(aliasFromShortUrl("https://s.example/Abc//?q=1")).toBe("Abc");
    expect(aliasFromShortUrl("https://s.example")).toBe("");
  });

  it("takes linear time on crafted input (a megabyte of slashes)", () => {
    const slashes = `https://s.example/${"/".repeat(1_000_000)}x${"/".repeat(1_000_000)}`;
    const started = performance.now();
    shortUrlKey(slashes);
    aliasFromShortUrl(slashes);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
