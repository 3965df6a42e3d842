/** The index file after a crash: a torn journal line or a damaged snapshot is repaired at the next start, never carried on. */
import { spawnSync } from "node:child_process";
import { appendFileSync, lstatSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { FileIndexStore, LinkIndex, LinkShortClient, RateLimiter, type IndexChanges, type IndexMeta, type StoredLink } from "../src";
import { fillLinks } from "./fill-links";

let sandbox: Sandbox;
let client: LinkShortClient;
let path: string;

beforeEach(async () => {
  sandbox = await startSandbox({ seed: "minimal", rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  fillLinks(sandbox, 120);
  client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter() } });
  path = join(mkdtempSync(join(tmpdir(), "linkshort-torn-")), "index.json");
});
afterEach(() => sandbox.close());

/** One process's run on the file: load, watch, sync, do `work`, let go of the file. */
async function run(work: (index: LinkIndex) => Promise<void> = async () => undefined): Promise<LinkIndex> {
  const store = new FileIndexStore(path);
  const index = new LinkIndex({ store, account: client.accountId, minSyncIntervalMs: 0 });
  const stop = index.watch(client);
  await index.sync(client);
  await work(index);
  await index.sync(client, { force: true });
  stop();
  await store.release();
  return index;
}

it("a torn last journal line is cut at the next start: what later processes write is read again", async () => {
  let deleted = 0;
  let made = 0;
  await run(async () => {
    const victim = (await client.links.list({ limit: 1, page: 2 })).items[0]!;
    await client.links.delete(victim.id);
    deleted = victim.id;
  });
  // The process died while appending a line.
  appendFileSync(`${path}.journal`, '{"meta":{"version":1,"frontierId":12');
  await run(async () => {
    made = (await client.links.create({ url: "https://example.com/after-the-crash", metatitle: "Narwhal" })).id;
  });
  const third = new LinkIndex({ store: new FileIndexStore(path), account: client.accountId });
  await third.load();
  expect(third.get(made)?.title).toBe("Narwhal");
  expect(third.get(deleted)).toBeUndefined();
  for (const line of readFileSync(`${path}.journal`, "utf8")
    .split("\n")
    .filter((text) => text !== ""))
    expect(() => JSON.parse(line)).not.toThrow();
});

it("a damaged snapshot is rewritten at the next start, so the start after it reads no whole account again", async () => {
  await run();
  writeFileSync(path, '{"meta": {"version": 1, "links": [');
  await run();
  expect(() => JSON.parse(readFileSync(path, "utf8"))).not.toThrow();
  const before = sandbox.requests.length;
  const index = await run();
  expect(index.freshness().known).toBe(120);
  // The newest page on each of the two syncs: nothing else is read.
  expect(sandbox.requests.slice(before).filter((request) => request.path === "/api/urls").length).toBeLessThanOrEqual(2);
});

describe("a compaction that died between placing the snapshot and emptying the journal", () => {
  const account = "https://links.example.com\nkey-digest";
  const meta: IndexMeta = {
    version: 1,
    account,
    frontierId: 9_000,
    sweep: null,
    generation: 1,
    lastFullSweepAt: null,
    lastSyncAt: 1,
    serverCount: null,
    serverCountExact: false,
  };
  const linkOf = (id: number, longurl: string): StoredLink => ({
    id,
    alias: `l${id}`,
    shorturl: `https://sho.rt/l${id}`,
    longurl,
    title: `Link ${id}`,
    description: "",
    date: "2026-11-26 04:00:00",
    clicks: 0,
    seen: 1,
  });
  const changes = (links: Map<number, StoredLink>, upserted: StoredLink[], deleted: number[], reset = false): IndexChanges => {
    for (const link of upserted) links.set(link.id, link);
    for (const id of deleted) links.delete(id);
    return { meta, upserted, deleted, all: () => [...links.values()], ...(reset ? { reset } : {}) };
  };

  it("the older journal is not replayed over the newer snapshot: a link deleted in that save stays deleted, a re-pointed link keeps its new URL", async () => {
    const gone = linkOf(1, "https://example.com/deleted-in-the-compacting-save");
    const moved = linkOf(2, "https://example.com/old-address");
    const links = new Map<number, StoredLink>();
    const store = new FileIndexStore(path);
    await store.save(changes(links, [gone, moved], [], true));
    // A first sync's page of links: the journal passes 1 MiB, so the next save compacts.
    const page = Array.from({ length: 6_000 }, (_, at) => linkOf(3 + at, `https://example.com/page/${at}`));
    await store.save(changes(links, [...page, gone, moved], []));
    const journalBeforeCompaction = readFileSync(`${path}.journal`, "utf8");
    expect(journalBeforeCompaction.length).toBeGreaterThan(1024 * 1024);

    await store.save(changes(links, [{ ...moved, longurl: "https://example.com/new-address" }], [gone.id]));
    expect(readFileSync(`${path}.journal`, "utf8")).toBe("");
    // The process died after the rename: the journal was never emptied.
    writeFileSync(`${path}.journal`, journalBeforeCompaction);
    await store.release();

    const reopened = new FileIndexStore(path);
    const index = new LinkIndex({ store: reopened, account });
    await index.load();
    expect(index.get(gone.id)).toBeUndefined();
    expect(index.findByLongUrl(gone.longurl)).toBeUndefined();
    expect(index.get(moved.id)?.longurl).toBe("https://example.com/new-address");
    expect(index.findByLongUrl("https://example.com/old-address")).toBeUndefined();
    expect(index.freshness().known).toBe(page.length + 1);

    // The next save rewrites the snapshot and empties the journal: what it saved is read, the stale lines never return.
    const made = linkOf(9_001, "https://example.com/after-the-crash");
    await reopened.save(changes(links, [made], []));
    await reopened.release();
    const third = new LinkIndex({ store: new FileIndexStore(path), account });
    await third.load();
    expect(third.get(made.id)?.longurl).toBe(made.longurl);
    expect(third.get(gone.id)).toBeUndefined();
    expect(third.get(moved.id)?.longurl).toBe("https://example.com/new-address");
  });

  it("a snapshot and journal written before journal lines named their snapshot load as before, and the next save rewrites them in the new form", async () => {
    const kept = linkOf(1, "https://example.com/kept");
    writeFileSync(path, JSON.stringify({ meta, links: [kept, linkOf(2, "https://example.com/deleted-later")] }));
    writeFileSync(`${path}.journal`, `${JSON.stringify({ meta, upserted: [{ ...kept, longurl: "https://example.com/kept-moved" }], deleted: [2] })}\n`);
    const store = new FileIndexStore(path);
    const loaded = await store.load();
    expect(loaded?.links).toEqual([{ ...kept, longurl: "https://example.com/kept-moved" }]);

    const links = new Map(loaded!.links.map((link) => [link.id, link]));
    await store.save(changes(links, [linkOf(3, "https://example.com/new")], []));
    await store.release();
    expect(readFileSync(`${path}.journal`, "utf8")).toBe("");
    expect((await new FileIndexStore(path).load())?.links.map((link) => link.longurl)).toEqual(["https://example.com/kept-moved", "https://example.com/new"]);
  });
});

describe("the file's lease", () => {
  it("a lease left by a process that died on this host is stale at once: the next process writes the file", async () => {
    const dead = spawnSync(process.execPath, ["-e", "process.exit(0)"]).pid!;
    writeFileSync(`${path}.lock`, JSON.stringify({ token: "left-behind", host: hostname(), pid: dead, renewedAt: Date.now() }));
    const store = new FileIndexStore(path);
    expect(await store.owns()).toBe(true);
    await store.release();
  });

  it("a live holder keeps the file; the index says once on stderr that it keeps its changes in memory", async () => {
    writeFileSync(`${path}.lock`, JSON.stringify({ token: "alive", host: hostname(), pid: process.pid, renewedAt: Date.now() }));
    const said: string[] = [];
    const store = new FileIndexStore(path, { warn: (text) => said.push(text) });
    const index = new LinkIndex({ store, account: client.accountId, minSyncIntervalMs: 0 });
    await index.sync(client);
    await client.links.create({ url: "https://example.com/in-memory" });
    await index.sync(client, { force: true });
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is in use by process ${process.pid}.*link index in memory only`));
  });

  it("the default warning goes to stderr", async () => {
    writeFileSync(`${path}.lock`, JSON.stringify({ token: "alive", host: hostname(), pid: process.pid, renewedAt: Date.now() }));
    const written = jest.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      const store = new FileIndexStore(path);
      expect(await store.owns()).toBe(false);
      expect(written.mock.calls.map(([text]) => String(text)).join("")).toMatch(/index\.json is in use by process \d+ on this host; .* in memory only/);
    } finally {
      written.mockRestore();
    }
  });

  it("writes through a symbolic link to the file, keeping the link", async () => {
    const real = join(mkdtempSync(join(tmpdir(), "linkshort-real-")), "real.json");
    writeFileSync(real, "");
    symlinkSync(real, path);
    await run();
    expect(lstatSync(path).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(real, "utf8"))).toMatchObject({ meta: { version: 1 } });
  });

  it("writes through a symbolic link to a file not made yet", async () => {
    const real = join(mkdtempSync(join(tmpdir(), "linkshort-real-")), "later.json");
    symlinkSync(real, path);
    await run();
    expect(lstatSync(path).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(real, "utf8"))).toMatchObject({ meta: { version: 1 } });
  });
});
