/**
 * `--store postgres://…` against a real Postgres (Debian's package; one cluster for the run, a
 * database per test). The store's parts: the schema made once and versioned, the sign-ins as two
 * replicas see them, a code or refresh token taken once, the secrets shared, the sweep lease held
 * by one replica and taken over when its holder stops renewing, a store that cannot be reached
 * named without its password. Then the built server: two replicas behind a round-robin proxy
 * serving one signed-in person, a restart that keeps the sign-ins and the index, a replica killed
 * mid-sweep, and Postgres stopped and started under a running replica.
 */
import type { IndexChanges, IndexMeta, StoredLink } from "@linkshort/client";
import type { PendingCode } from "../src/auth/store";
import { PostgresAuthStore, sharedSecret } from "../src/store/auth-store";
import { PostgresIndexStore } from "../src/store/index-store";
import { PostgresStore, shownStoreUrl, StoreUnavailableError } from "../src/store/postgres";
import { SCHEMA_VERSION } from "../src/store/schema";
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { spawn, type ChildProcess } from "node:child_process";
import { CLI, unusedAddress } from "./helpers";
import { freshDatabase, stopTestPostgres, testPostgres } from "./postgres-support";
import { callTool, eventually, roundRobin, signedInClient, startReplica, type RoundRobin } from "./replica-support";
import { listTools } from "./sign-in-helpers";

jest.setTimeout(60_000);
const open: PostgresStore[] = [];
const processes: ChildProcess[] = [];
const sandboxes: Sandbox[] = [];
let proxy: RoundRobin | undefined;
async function replica(url: string): Promise<PostgresStore> {
  const store = await PostgresStore.open(url);
  open.push(store);
  return store;
}

afterAll(async () => {
  for (const child of processes) child.kill("SIGKILL");
  await proxy?.close();
  await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
  await Promise.all(open.map((store) => store.close()));
  await stopTestPostgres();
});

const meta = (generation: number): IndexMeta => ({
  version: 1,
  account: "acct",
  frontierId: 10,
  sweep: null,
  generation,
  lastFullSweepAt: null,
  lastSyncAt: null,
  serverCount: 2,
  serverCountExact: true,
});
const link = (id: number): StoredLink => ({
  id,
  alias: `a${id}`,
  shorturl: `https://s.test/a${id}`,
  longurl: `https://example.com/${id}`,
  title: "",
  description: "",
  date: "2026-01-01 00:00:00",
  clicks: 0,
  seen: 1,
});
const changes = (generation: number, upserted: StoredLink[], deleted: number[] = []): IndexChanges => ({
  meta: meta(generation),
  upserted,
  deleted,
  all: () => upserted,
});

test("the schema is made once, at the server's version, and a store of a newer version is refused", async () => {
  const url = await freshDatabase();
  await replica(url);
  await replica(url);
  const postgres = await testPostgres();
  const database = new URL(url).pathname.slice(1);
  expect(postgres.query("select version from mcp_schema_version", database)).toEqual([{ version: SCHEMA_VERSION }]);
  postgres.execute(`update mcp_schema_version set version = ${SCHEMA_VERSION + 1}`, database);
  await expect(PostgresStore.open(url)).rejects.toThrow(/schema is version \d+, newer than this server's/);
});

test("two replicas share the sign-ins: a code and a refresh token are taken once across them, a revoked grant is gone for both", async () => {
  const url = await freshDatabase();
  const [one, two] = [new PostgresAuthStore(await replica(url)), new PostgresAuthStore(await replica(url))];
  const now = Math.floor(Date.now() / 1000);
  const grant = { id: "g1", clientId: "c1", accountId: "acct", wrappedKey: "jwe", scope: "linkshort", resource: "https://mcp.test/mcp", expiresAt: now + 3600 };
  const code: PendingCode = { grant, redirectUri: "https://app.test/cb", codeChallenge: "x", expiresAt: now + 60 };
  await one.saveCode("code-hash", code);
  const taken = await Promise.all([one.takeCode("code-hash", now), two.takeCode("code-hash", now)]);
  expect(taken.map((entry) => entry.state).sort()).toEqual(["fresh", "used"]);
  expect(taken.find((entry) => entry.state === "fresh")).toEqual({ state: "fresh", value: code });
  expect(await two.takeCode("code-hash", now)).toEqual({ state: "used", grantId: "g1" });
  expect(await two.takeCode("code-hash", now + 61)).toEqual({ state: "unknown" });

  await one.saveGrant(grant);
  expect(await two.grant("g1", now)).toEqual(grant);
  expect(await two.grant("g1", grant.expiresAt)).toBeUndefined();
  await one.saveRefreshToken("refresh-hash", "g1", now + 3600);
  expect(await two.takeRefreshToken("refresh-hash", now)).toEqual({ state: "fresh", value: "g1" });
  expect(await one.takeRefreshToken("refresh-hash", now)).toEqual({ state: "used", grantId: "g1" });
  await one.saveClient({ clientId: "c1", redirectUris: ["https://app.test/cb"], issuedAt: now });
  expect(await two.client("c1")).toEqual({ clientId: "c1", redirectUris: ["https://app.test/cb"], issuedAt: now });
  await two.revokeGrant("g1");
  expect(await one.grant("g1", now)).toBeUndefined();
});

test("the secrets are made once and the same for every replica", async () => {
  const url = await freshDatabase();
  const [one, two] = [await replica(url), await replica(url)];
  const [first, second] = await Promise.all([sharedSecret(one, "sign-in"), sharedSecret(two, "sign-in")]);
  expect(first).toHaveLength(32);
  expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
  expect(Buffer.from(await sharedSecret(one, "request-state")).equals(Buffer.from(first))).toBe(false);
  // Replicas starting together ask at the same moment: each gets the one secret made.
  const names = Array.from({ length: 20 }, (_, n) => `together-${n}`);
  const together = await Promise.all(names.map((name) => Promise.all([sharedSecret(one, name), sharedSecret(two, name)])));
  for (const [mine, theirs] of together) expect(Buffer.from(mine).equals(Buffer.from(theirs))).toBe(true);
});

test("one replica holds an account's sweep lease; the other takes it once the holder stops renewing, and the old holder can no longer write the sweep", async () => {
  const url = await freshDatabase();
  const [one, two] = [new PostgresIndexStore(await replica(url), "acct", 600), new PostgresIndexStore(await replica(url), "acct", 600)];
  expect(await one.takeLease()).toBe(true);
  expect(await two.takeLease()).toBe(false);
  await one.save(changes(1, [link(1), link(2)]));
  expect(await two.changedSinceLoad()).toBe(true);
  expect(await two.load()).toEqual({ meta: meta(1), links: [link(1), link(2)] });
  expect(await two.changedSinceLoad()).toBe(false);
  // A link the other replica's own tool call changed: its row only, never the sweep's meta.
  await two.save({ ...changes(99, [{ ...link(3), title: "made on two" }]) });
  expect((await one.load())?.meta.generation).toBe(1);
  await new Promise((resolve) => setTimeout(resolve, 700));
  expect(await two.takeLease()).toBe(true);
  await expect(one.save(changes(2, [link(4)], [1]))).rejects.toThrow("another replica took over this account's sweep");
  const stored = await two.load();
  expect(stored?.meta.generation).toBe(1);
  expect(stored?.links.map((entry) => entry.id).sort()).toEqual([1, 2, 3]);
  await two.releaseLease();
  expect(await one.takeLease()).toBe(true);
});

test("a store that cannot be reached is named without its password, at start and later, and the same pool works again once Postgres is back", async () => {
  const unused = new URL(await unusedAddress());
  const wrong = `postgres://linkshort:s3cret-pass@127.0.0.1:${unused.port}/linkshort`;
  const refused = PostgresStore.open(wrong, { connectTimeoutMs: 2000 });
  await expect(refused).rejects.toBeInstanceOf(StoreUnavailableError);
  await expect(refused).rejects.toThrow(`the store postgres://linkshort@127.0.0.1:${unused.port}/linkshort cannot be used (ECONNREFUSED)`);
  await refused.catch((error: Error) => expect(error.message).not.toContain("s3cret-pass"));
  expect(shownStoreUrl("postgres://u:p@h:5/d?password=p")).toBe("postgres://u@h:5/d");

  const url = await freshDatabase();
  const store = await replica(url);
  const postgres = await testPostgres();
  await postgres.stop();
  try {
    const failed = store.query("select 1");
    await expect(failed).rejects.toBeInstanceOf(StoreUnavailableError);
    await failed.catch((error: Error) => {
      expect(error.message).toContain(shownStoreUrl(url));
      expect(error.message).not.toContain(postgres.database.password);
    });
  } finally {
    await postgres.start();
  }
  expect(await store.query("select 1 as one")).toEqual([{ one: 1 }]);
});

const databaseOf = (url: string) => new URL(url).pathname.slice(1);

describe("the built server on a store", () => {
  let sandbox: Sandbox;
  let store: string;
  let person: Awaited<ReturnType<typeof signedInClient>>;
  const stderrs: Array<() => string> = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, rateLimit: { limit: 1000, windowMs: 60_000 } });
    sandboxes.push(sandbox);
    store = await freshDatabase();
    proxy = await roundRobin();
  });

  async function replicas(count: number) {
    const started = await Promise.all(
      Array.from({ length: count }, () => startReplica({ baseUrl: sandbox.baseUrl, apiKey: "" }, store, ["--sign-in", "--public-url", proxy!.url])),
    );
    for (const replica of started) {
      processes.push(replica.child);
      stderrs.push(replica.stderr);
    }
    proxy!.targets = started.map((replica) => replica.origin);
    return started;
  }

  test("two replicas behind a round-robin proxy serve one signed-in person: a token issued by one works on the other, and a link made on one is found on both", async () => {
    const [one, two] = await replicas(2);
    person = await signedInClient(`${proxy!.url}/mcp`, sandbox.userKey);
    const made = await callTool(person.client, "shorten_link", { url: "https://example.com/made-behind-the-proxy", custom: "behind-the-proxy" });
    expect(made.isError).toBe(false);
    for (let call = 0; call < 4; call += 1) {
      const found = await callTool(person.client, "find_links", { text: "behind-the-proxy" });
      expect(found.isError).toBe(false);
      expect(found.text).toContain("behind-the-proxy");
    }
    expect(proxy!.served.get(one!.origin)).toBeGreaterThanOrEqual(3);
    expect(proxy!.served.get(two!.origin)).toBeGreaterThanOrEqual(3);
    for (const stderr of stderrs) expect(stderr()).not.toContain(sandbox.userKey);
  });

  test("a restart keeps the sign-ins and the index: the same token works on a new replica, which finds the link without reading the account again", async () => {
    for (const child of processes.splice(0)) child.kill("SIGKILL");
    sandbox.requests.length = 0;
    await replicas(1);
    const found = await callTool(person.client, "find_links", { text: "behind-the-proxy" });
    expect(found.isError).toBe(false);
    expect(found.text).toContain("behind-the-proxy");
    // No sign-in again (the token endpoint and the page were not asked) and no walk of the account.
    expect(person.provider.authorizationUrl).toBeDefined();
    expect(sandbox.requests.filter((entry) => entry.path.startsWith("/api/urls")).length).toBeLessThanOrEqual(1);
  });

  test("Postgres stopped under a running replica: sign-ins are refused (503, the store named without its password), and served again once it is back, without a restart", async () => {
    const postgres = await testPostgres();
    const bearer = { Authorization: `Bearer ${person.provider.tokens()!.access_token}` };
    expect((await listTools(`${proxy!.url}/mcp`, bearer)).status).toBe(200);
    await postgres.stop();
    try {
      const refused = await listTools(`${proxy!.url}/mcp`, bearer);
      expect(refused.status).toBe(503);
      expect(refused.text).toContain("sign-in store cannot be reached");
      const token = await fetch(`${proxy!.url}/token`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "grant_type=refresh_token&refresh_token=x&client_id=y",
      });
      expect(token.status).toBe(503);
      const logged = stderrs.map((stderr) => stderr()).join("");
      expect(logged).toContain(`the store ${shownStoreUrl(store)} cannot be used`);
      expect(logged).not.toContain(postgres.database.password);
    } finally {
      await postgres.start();
    }
    await eventually(async () => (await listTools(`${proxy!.url}/mcp`, bearer)).status === 200, 10_000, "served again");
    expect((await callTool(person.client, "find_links", { text: "behind-the-proxy" })).text).toContain("behind-the-proxy");
  });
});

test("a wrong store URL at start: the server says which store it could not use, without the password, and exits", async () => {
  const unused = new URL(await unusedAddress());
  const child = spawn(process.execPath, [CLI, "--http", "0"], {
    env: {
      PATH: process.env.PATH ?? "",
      LINKSHORT_BASE_URL: "http://127.0.0.1:9",
      LINKSHORT_API_KEY: "k".repeat(32),
      LINKSHORT_MCP_STORE: `postgres://team:hunter2-secret@127.0.0.1:${unused.port}/linkshort`,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  expect(code).toBe(1);
  expect(stderr).toContain(`could not start: the store postgres://team@127.0.0.1:${unused.port}/linkshort cannot be used (ECONNREFUSED)`);
  expect(stderr).not.toContain("hunter2");
});

test("a replica killed mid-sweep: another takes the sweep over within the lease's time and finishes it where it stopped; no link is lost and no two sweeps read at once", async () => {
  const pageSize = 250;
  const sandbox = await startSandbox({ port: 0, rateLimit: { limit: 1000, windowMs: 60_000 }, seed: { links: 10_000 }, maxPageSize: pageSize });
  sandboxes.push(sandbox);
  let reading = 0;
  let mostAtOnce = 0;
  const reads: number[] = [];
  sandbox.onApiRequest = async ({ path }) => {
    if (!path.startsWith("/api/urls")) return;
    reading += 1;
    mostAtOnce = Math.max(mostAtOnce, reading);
    reads.push(Date.now());
    await new Promise((resolve) => setTimeout(resolve, 60));
    reading -= 1;
  };
  const store = await freshDatabase();
  const postgres = await testPostgres();
  const meta = () =>
    postgres.query<{ page: number | null; full: number | null; count: number }>(
      "select (meta->'sweep'->>'page')::int as page, (meta->>'lastFullSweepAt')::bigint as full, (select count(*)::int from mcp_indexed_links) as count from mcp_link_indexes",
      databaseOf(store),
    )[0];
  const env = { baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey };
  const first = await startReplica(env, store, []);
  processes.push(first.child);
  await eventually(() => (meta()?.page ?? 0) >= 10, 30_000, "the first replica's sweep under way");
  const second = await startReplica(env, store, []);
  processes.push(second.child);
  await new Promise((resolve) => setTimeout(resolve, 500));
  first.child.kill("SIGKILL");
  const killedAt = Date.now();
  const readsBefore = reads.length;
  await eventually(() => reads.length > readsBefore + 1 && reads.at(-1)! > killedAt + 200, 10_000, "the second replica reading");
  // Taken over within the lease (1.5 s) and half of it between tries, plus a margin for the machine.
  expect(reads.find((at) => at > killedAt + 200)! - killedAt).toBeLessThan(5_000);
  const done = await eventually(() => (meta()?.full ? meta() : undefined), 60_000, "the sweep finished");
  const held = sandbox.store.linksOf(sandbox.store.userByKey(sandbox.userKey)!.id).length;
  expect(held).toBeGreaterThanOrEqual(10_000);
  expect(done.count).toBe(held);
  expect(mostAtOnce).toBe(1);
  // Resumed, not started over: about one read per page, not two walks.
  expect(reads.length).toBeLessThan((10_000 / pageSize) * 1.5);
  expect(second.stderr()).not.toContain(sandbox.userKey);
});

test("two replicas of one key share its rate budget: together they keep to the window, and the server answers no limit but at a window's edge", async () => {
  const sandbox = await startSandbox({ port: 0, rateLimit: { limit: 12, windowMs: 4_000 } });
  sandboxes.push(sandbox);
  // Answers that take a while: each replica's own estimate of the window lags the other's requests.
  sandbox.onApiRequest = () => new Promise((resolve) => setTimeout(resolve, 30));
  const upstream = await roundRobin();
  upstream.targets = [sandbox.baseUrl];
  const store = await freshDatabase();
  const env = { baseUrl: upstream.url, apiKey: sandbox.userKey };
  const replicas = await Promise.all([startReplica(env, store, []), startReplica(env, store, [])]);
  processes.push(...replicas.map((replica) => replica.child));
  const clients = await Promise.all(
    replicas.map(async (replica) => {
      const client = new Client({ name: "budget-test", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(replica.url)));
      return client;
    }),
  );
  try {
    const calls = clients.flatMap((client) => Array.from({ length: 14 }, () => callTool(client, "get_account", {})));
    const answers = await Promise.all(calls);
    expect(answers.filter((answer) => answer.isError)).toEqual([]);
    // The replicas together never took more of a window than it allows...
    const most = (await testPostgres()).query<{ most: number }>("select max(used) as most from mcp_rate_windows where resets_at > 0", databaseOf(store))[0]!
      .most;
    expect(most).toBeLessThanOrEqual(12);
    // ...and the server agrees, but for a request that took a slot at the very end of a window and
    // reached the server in the next (the machine is shared). Without the shared budget: 15 and 16.
    expect(upstream.limited).toBeLessThanOrEqual(1);
    expect(upstream.statuses.get(200)).toBeGreaterThanOrEqual(28);
  } finally {
    await Promise.all(clients.map((client) => client.close()));
    await upstream.close();
  }
});
