/**
 * The click history on `--store postgres://…` against a real Postgres (one cluster for the run, a
 * database per test): migration 2 over a store at version 1; the store's writes (only the lease's
 * holder, only on top of what it loaded, each account its own); then the server's index as the
 * store makes it (`SharedState.indexFor`), on the sandbox's controlled clock, sampled in the
 * background by two replicas in turn: both answer the same series, a new server after one is
 * dropped answers it too, another account sees none of it, and Postgres stopped and started
 * again gives an error naming the store, then the same series and new samples. A replica dropped
 * in a long first sync has saved as it went. Then the built server: killed and started again in
 * key mode, and two replicas with --sign-in behind a round-robin proxy.
 */
import { LinkShortClient, RateLimiter, type ClickHistoryState } from "@linkshort/client";
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { Client } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { fillLinks } from "../../client/test/fill-links";
import type { ClicksOverTime } from "../src/tools/outputs";
import { PostgresClickHistoryStore } from "../src/store/history-store";
import { PostgresIndexStore } from "../src/store/index-store";
import { PostgresStore, shownStoreUrl } from "../src/store/postgres";
import { MIGRATIONS, SCHEMA_VERSION } from "../src/store/schema";
import { SharedState } from "../src/account/shared/state";
import { freshDatabase, stopTestPostgres, testPostgres } from "./postgres-support";
import { connectInMemory } from "./in-memory";
import { callTool, eventually, roundRobin, signedInClient, startReplica } from "./replica-support";

jest.setTimeout(60_000);

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const STEP = 15 * MINUTE;
const START = Date.UTC(2026, 10, 16, 8, 0);
const LINKS = 4;
const iso = (at: number) => new Date(at).toISOString();
const databaseOf = (url: string) => new URL(url).pathname.slice(1);

let time = START;
let sandbox: Sandbox;
const visits = new Map<number, number[]>();
const closing: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  sandbox = await startSandbox({ seed: "minimal", now: () => time, rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  fillLinks(sandbox, LINKS);
  for (let link = 0; link < LINKS; link += 1) visits.set(link, []);
});

afterAll(async () => {
  for (const close of closing.reverse()) await close();
  await sandbox.close();
  await stopTestPostgres();
});

const linkIdOf = (link: number) => sandbox.store.state.links.find((record) => record.alias === `fill${link}`)!.id;
const truth = (link: number, from: number, to: number) => visits.get(link)!.filter((at) => at > from && at <= to).length;

/** Visits in the quarter hour after `at` (never on a sample's second), on the sandbox's clock. */
async function visitQuarter(at: number, perLink: (link: number) => number): Promise<void> {
  const planned: Array<[number, number]> = [];
  for (let link = 0; link < LINKS; link += 1) for (let n = 0; n < perLink(link); n += 1) planned.push([at + (1 + ((n * 97 + link * 31) % 898)) * 1000, link]);
  for (const [visitAt, link] of planned.sort((a, b) => a[0] - b[0])) {
    time = visitAt;
    expect((await fetch(`${sandbox.baseUrl}/fill${link}`, { redirect: "manual" })).status).toBe(302);
    visits.get(link)!.push(visitAt);
  }
}

interface Replica {
  state: SharedState;
  index: ReturnType<SharedState["indexFor"]>;
  clicks(args: Record<string, unknown>): Promise<{ isError: boolean; text: string; structured: ClicksOverTime }>;
  /** The process gone without a word (its pool's connections dropped, nothing saved on the way out). */
  drop(): Promise<void>;
}

/** A replica as the CLI makes it with --store: its own client of the key, the store's index of the account, a server over it. */
async function replica(url: string, apiKey = sandbox.userKey): Promise<Replica> {
  const state = await SharedState.open(url, { leaseMs: 2_000, index: { now: () => time, minSyncIntervalMs: 0 } });
  const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey, rateLimit: { limiter: new RateLimiter() } });
  const index = state.indexFor(client);
  const mcp = new Client({ name: "history-test", version: "1.0.0" });
  const connection = await connectInMemory(mcp, { client, linkIndex: index });
  let open = true;
  const close = async () => {
    if (!open) return;
    open = false;
    await mcp.close();
    await connection.close();
    await state.close();
  };
  closing.push(close);
  return {
    state,
    index,
    clicks: async (args) => {
      const result = await mcp.callTool({ name: "get_link", arguments: args });
      const text = (result.content as Array<{ text?: string }>).map((part) => part.text ?? "").join("\n");
      return { isError: result.isError === true, text, structured: result.structuredContent as unknown as ClicksOverTime };
    },
    drop: async () => {
      open = false;
      await mcp.close();
      await connection.close();
      await state.store.close();
    },
  };
}

test("a store at version 1 is migrated to the click history's tables, keeping what it held", async () => {
  const url = await freshDatabase();
  const postgres = await testPostgres();
  const database = databaseOf(url);
  postgres.execute(
    `${MIGRATIONS[0]}; CREATE TABLE mcp_schema_version (version integer NOT NULL); INSERT INTO mcp_schema_version VALUES (1);
     INSERT INTO mcp_link_indexes (account, meta) VALUES ('acct', '{"kept": true}')`,
    database,
  );
  const store = await PostgresStore.open(url);
  closing.push(() => store.close());
  // Through migration 2 (the click history) and 3 (registered clients' address and use, issue 51).
  expect(SCHEMA_VERSION).toBe(3);
  expect(postgres.query("select version from mcp_schema_version", database)).toEqual([{ version: 3 }]);
  expect(postgres.query("select meta from mcp_link_indexes", database)).toEqual([{ meta: { kept: true } }]);
  expect(postgres.query("select table_name from information_schema.tables where table_name like 'mcp_click_%' order by 1", database)).toEqual([
    { table_name: "mcp_click_histories" },
    { table_name: "mcp_click_links" },
  ]);
});

test("only the replica holding the account's lease writes its history, only on top of what it loaded; another account's is its own", async () => {
  const url = await freshDatabase();
  const [a, b] = [await PostgresStore.open(url), await PostgresStore.open(url)];
  closing.push(
    () => a.close(),
    () => b.close(),
  );
  const [leaseA, leaseB] = [new PostgresIndexStore(a, "acct", 5_000), new PostgresIndexStore(b, "acct", 5_000)];
  const [one, two] = [new PostgresClickHistoryStore(a, "acct", leaseA.holder), new PostgresClickHistoryStore(b, "acct", leaseB.holder)];
  const state = (links: Record<string, string>, lastSampleAt: number, account = "acct"): ClickHistoryState => ({
    version: 1,
    account,
    runningSince: 100,
    lastSampleAt,
    links,
  });

  expect(await one.load()).toBeUndefined();
  await expect(one.save(state({ 1: "x" }, 100))).rejects.toThrow("another replica holds this account's sweep: its samples are the click history's");
  expect(await leaseA.takeLease()).toBe(true);
  await one.save(state({ 1: "a1", 2: "a2" }, 100));
  expect(await two.changedSinceLoad()).toBe(true);
  expect(await two.load()).toEqual(state({ 1: "a1", 2: "a2" }, 100));
  expect(await two.changedSinceLoad()).toBe(false);
  await one.save(state({ 1: "a1-later", 2: "a2" }, 200));
  await leaseA.releaseLease();
  expect(await leaseB.takeLease()).toBe(true);
  // Two stands on the copy before one's second save: written, it would drop that sample.
  await expect(two.save(state({ 1: "a1", 2: "b2" }, 150))).rejects.toThrow("another replica saved the click history since this one loaded it");
  expect(await two.load()).toEqual(state({ 1: "a1-later", 2: "a2" }, 200));
  await two.save(state({ 2: "b2" }, 300));
  const postgres = await testPostgres();
  expect(postgres.query("select account, id::int, checkpoints from mcp_click_links order by id", databaseOf(url))).toEqual([
    { account: "acct", id: 2, checkpoints: "b2" },
  ]);
  // What was written is what one loads next; the lease's old holder writes nothing more.
  expect(await one.load()).toEqual(state({ 2: "b2" }, 300));
  await expect(one.save(state({ 2: "b2", 3: "a3" }, 400))).rejects.toThrow("another replica holds this account's sweep");

  const other = new PostgresClickHistoryStore(a, "other-account", leaseA.holder);
  expect(await other.load()).toBeUndefined();
  await expect(other.save(state({ 2: "b2" }, 300))).rejects.toThrow("this click history is of another account than its store's");
});

describe("the server's history on a store", () => {
  let url: string;
  let one: Replica;
  let two: Replica;
  const hours = 4;
  const end = START + hours * HOUR;
  const query = (link: number) => ({ id: linkIdOf(link), start: iso(START), end: iso(end), granularity: "hour", timeZone: "UTC" });

  beforeAll(async () => {
    url = await freshDatabase();
    [one, two] = [await replica(url), await replica(url)];
  });

  test("two replicas sample in turn (and at once): either answers the same series, measured from both replicas' samples", async () => {
    for (let at = START; at < end; at += STEP) {
      time = at;
      const turn = (at - START) / STEP;
      // In turn, and every third quarter both at once: one gets the lease, the other leaves the read to it.
      if (turn % 3 === 2) await Promise.all([one.index.sampleNow(), two.index.sampleNow()]);
      else await (turn % 2 === 0 ? one : two).index.sampleNow();
      await visitQuarter(at, (link) => link + (turn % 2));
    }
    time = end;
    await two.index.sampleNow();
    expect(one.index.freshness().summary).not.toContain("failed");
    expect(two.index.freshness().summary).not.toContain("failed");

    for (const link of [1, 3]) {
      const [fromOne, fromTwo] = [await one.clicks(query(link)), await two.clicks(query(link))];
      expect(fromOne.isError).toBe(false);
      expect(fromTwo.structured.links).toEqual(fromOne.structured.links);
      const [answer] = fromOne.structured.links;
      expect(answer!.firstSampleAt).toBe(iso(START));
      expect(answer!.lastSampleAt).toBe(iso(end));
      expect(answer!.total).toBe(truth(link, START, end));
      // Sampled every quarter hour, by one replica or the other: every hour measured exactly.
      expect(answer!.buckets.map((bucket) => [bucket.quality, bucket.clicks])).toEqual(
        Array.from({ length: hours }, (_, hour) => ["exact", truth(link, START + hour * HOUR, START + (hour + 1) * HOUR)]),
      );
    }
  });

  test("a replica dropped without a word: a new server on the store answers the same series, without sampling again", async () => {
    const before = await one.clicks(query(2));
    await one.drop();
    await two.drop();
    const again = await replica(url);
    const after = await again.clicks(query(2));
    expect(after.isError).toBe(false);
    expect(after.structured.links).toEqual(before.structured.links);
    expect(after.structured.history.sampledLinks).toBe(LINKS);
    expect(after.structured.history.notes).toEqual([]);
    one = again;
  });

  test("another account on the same store sees none of the first account's history", async () => {
    const other = await replica(url, sandbox.adminKey);
    time = end + MINUTE;
    await other.index.sampleNow();
    const top = await other.clicks({ start: iso(START), end: iso(end + HOUR), granularity: "hour" });
    expect(top.isError).toBe(false);
    const userLinks = Array.from({ length: LINKS }, (_, link) => linkIdOf(link));
    expect(top.structured.links.map((entry) => entry.id).filter((id) => userLinks.includes(id))).toEqual([]);
    expect(top.structured.history.sampledLinks).toBe(sandbox.store.state.links.filter((record) => record.userId !== 2).length);
    // The service refuses the other account's link; its history, loaded from the store, has none of it either.
    expect((await other.clicks(query(1))).text).toContain("Not found");
    const history = await other.index.loadHistory();
    for (const id of userLinks) expect(history.series({ linkId: id, start: START, end, granularity: "hour", timeZone: "UTC" }).firstSampleAt).toBeNull();
    const accounts = (await testPostgres()).query<{ account: string }>("select account from mcp_click_histories", databaseOf(url));
    expect(accounts).toHaveLength(2);
  });

  test("Postgres stopped: the question fails naming the store (no password, no key); once it is back, the same series and new samples", async () => {
    const before = await one.clicks(query(0));
    const postgres = await testPostgres();
    await postgres.stop();
    try {
      const failed = await one.clicks(query(0));
      expect(failed.isError).toBe(true);
      expect(failed.text).toContain(`This server's own store cannot be reached: the store ${shownStoreUrl(url)} cannot be used (`);
      expect(failed.text).toMatch(/\)\. Retry shortly: the server reconnects by itself\.$/);
      expect(failed.text).not.toContain(postgres.database.password);
      expect(failed.text).not.toContain(sandbox.userKey);
      time = end + 2 * MINUTE;
      await one.index.sampleNow();
      expect(one.index.freshness().summary).toContain(`the store ${shownStoreUrl(url)} cannot be used`);
    } finally {
      await postgres.start();
    }
    const back = await one.clicks(query(0));
    expect(back.isError).toBe(false);
    expect(back.structured.links).toEqual(before.structured.links);
    // Sampling goes on by itself: a new sample is saved and answered.
    await visitQuarter(end + 3 * MINUTE, () => 2);
    time = end + 20 * MINUTE;
    await one.index.sampleNow();
    expect(one.index.freshness().summary).not.toContain("failed");
    const later = await one.clicks({ ...query(0), end: iso(end + HOUR) });
    expect(later.structured.links[0]!.lastSampleAt).toBe(iso(end + 20 * MINUTE));
    expect(later.structured.links[0]!.total).toBe(truth(0, START, end + HOUR));
  });
});

test("the built server with --store: its first sync's samples are in the store, and a server started after it was killed answers the same series", async () => {
  const live = await startSandbox({ port: 0, rateLimit: { limit: 1000, windowMs: 60_000 } });
  closing.push(() => live.close());
  const url = await freshDatabase();
  const env = { baseUrl: live.baseUrl, apiKey: live.userKey };
  const linkId = live.store.linksOf(live.store.userByKey(live.userKey)!.id)[0]!.id;
  const hour = Math.floor(Date.now() / HOUR) * HOUR;
  const args = { id: linkId, start: iso(hour - HOUR), end: iso(hour + 2 * HOUR), granularity: "hour" };
  const ask = async (mcpUrl: string) => {
    const client = new Client({ name: "history-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
    try {
      return await callTool(client, "get_link", args);
    } finally {
      await client.close();
    }
  };
  const postgres = await testPostgres();
  const first = await startReplica(env, url, []);
  closing.push(() => Promise.resolve(first.child.kill("SIGKILL")));
  await eventually(
    () => postgres.query<{ links: number }>("select count(*)::int as links from mcp_click_links", databaseOf(url))[0]!.links > 0,
    20_000,
    "the first sync's samples saved",
  );
  const before = await ask(first.url);
  expect(before.isError).toBe(false);
  expect((before.structured.links as Array<{ firstSampleAt: string | null }>)[0]!.firstSampleAt).not.toBeNull();
  first.child.kill("SIGKILL");

  const second = await startReplica(env, url, []);
  closing.push(() => Promise.resolve(second.child.kill("SIGKILL")));
  const after = await ask(second.url);
  expect(after.isError).toBe(false);
  expect(after.structured.links).toEqual(before.structured.links);
  expect(first.stderr()).toContain(`(both kept in ${shownStoreUrl(url)})`);
  for (const replica of [first, second]) expect(replica.stderr()).not.toContain(live.userKey);
});

test("a replica dropped in the middle of a long first sync had saved its samples as it went, at the history's pace", async () => {
  let clock = START;
  const large = await startSandbox({ seed: { links: 1_500 }, maxPageSize: 100, now: () => clock, rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  closing.push(() => large.close());
  let pages = 0;
  let resume = () => undefined as void;
  const stalled = new Promise<void>((resolve) => (resume = resolve));
  // Each page read half a minute after the last (the history saves at most once a minute); the eighth never answers: the replica dies there.
  large.onApiRequest = async ({ path }) => {
    if (!path.startsWith("/api/urls")) return;
    clock += 30_000;
    pages += 1;
    if (pages === 8) await stalled;
  };
  const url = await freshDatabase();
  const state = await SharedState.open(url, { leaseMs: 2_000, index: { now: () => clock } });
  const client = new LinkShortClient({ baseUrl: large.baseUrl, apiKey: large.userKey, rateLimit: { limiter: new RateLimiter() } });
  const index = state.indexFor(client);
  void index.startFirstSync();
  try {
    await eventually(() => pages >= 8, 30_000, "the eighth page asked");
    const postgres = await testPostgres();
    const saved = () => postgres.query<{ links: number }>("select count(*)::int as links from mcp_click_links", databaseOf(url))[0]!.links;
    // Seven pages of 100 read, saved every other page (each save finishing in the background): at least six of them, never the eighth.
    await eventually(() => saved() >= 600, 10_000, "six pages' samples saved while the eighth is read");
    expect(saved()).toBeLessThanOrEqual(700);
  } finally {
    resume();
    await state.close();
  }
});

test("with --sign-in, two built replicas behind a round-robin proxy answer a signed-in person the same series, whichever sampled it", async () => {
  const live = await startSandbox({ port: 0, rateLimit: { limit: 1000, windowMs: 60_000 } });
  closing.push(() => live.close());
  const url = await freshDatabase();
  const proxy = await roundRobin();
  closing.push(() => proxy.close());
  const replicas = await Promise.all([0, 1].map(() => startReplica({ baseUrl: live.baseUrl, apiKey: "" }, url, ["--sign-in", "--public-url", proxy.url])));
  for (const started of replicas) closing.push(() => Promise.resolve(started.child.kill("SIGKILL")));
  proxy.targets = replicas.map((started) => started.origin);
  const person = await signedInClient(`${proxy.url}/mcp`, live.userKey);
  closing.push(() => person.client.close());
  const linkId = live.store.linksOf(live.store.userByKey(live.userKey)!.id)[0]!.id;
  const postgres = await testPostgres();
  // The person's first lookup starts the first sync on one replica; its samples reach the store.
  await callTool(person.client, "find_links", { text: "example" });
  await eventually(
    () => postgres.query<{ links: number }>("select count(*)::int as links from mcp_click_links", databaseOf(url))[0]!.links > 0,
    20_000,
    "the first sync's samples saved",
  );
  const hour = Math.floor(Date.now() / HOUR) * HOUR;
  const args = { id: linkId, start: iso(hour - HOUR), end: iso(hour + 2 * HOUR), granularity: "hour" };
  const answers = [];
  for (let call = 0; call < 4; call += 1) answers.push(await callTool(person.client, "get_link", args));
  expect(answers.filter((answer) => answer.isError)).toEqual([]);
  expect((answers[0]!.structured.links as Array<{ firstSampleAt: string | null }>)[0]!.firstSampleAt).not.toBeNull();
  for (const answer of answers.slice(1)) expect(answer.structured.links).toEqual(answers[0]!.structured.links);
  for (const started of replicas) expect(proxy.served.get(started.origin)).toBeGreaterThanOrEqual(3);
  for (const started of replicas) expect(started.stderr()).not.toContain(live.userKey);
});
