/**
 * What a signed-in request costs the store (`--store`), and what that saving must never cost: a
 * replica trusts a grant it read for a moment, yet a revocation on another replica is refused there
 * within the notice's delivery (and nothing is trusted while the replica cannot hear notices); a
 * replica takes its key's rate slots a few at a time, yet the replicas together keep to the window
 * and give back what they did not spend.
 */
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import type { ChildProcess } from "node:child_process";
import type { Grant } from "../src/auth/store";
import { GRANT_TRUST_MS, PostgresAuthStore } from "../src/store/auth-store";
import { PostgresStore } from "../src/store/postgres";
import { RETURN_AFTER_MS } from "../src/store/rate-budget";
import { SharedState } from "../src/account/shared/state";
import { freshDatabase, stopTestPostgres, testPostgres } from "./postgres-support";
import { eventually, roundRobin, startReplica, type RoundRobin } from "./replica-support";
import { exchange, form, listTools, registerAndAuthorize } from "./sign-in-helpers";

jest.setTimeout(60_000);
const open: Array<{ close(): Promise<void> }> = [];
const sandboxes: Sandbox[] = [];
const processes: ChildProcess[] = [];
let proxy: RoundRobin | undefined;

afterAll(async () => {
  for (const child of processes) child.kill("SIGKILL");
  await proxy?.close();
  await Promise.all(open.map((opened) => opened.close()));
  await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
  await stopTestPostgres();
});

async function replica(url: string): Promise<PostgresStore> {
  const store = await PostgresStore.open(url);
  open.push(store);
  return store;
}

const databaseOf = (url: string) => new URL(url).pathname.slice(1);
const queriesOf = (store: PostgresStore) => jest.spyOn(store, "query");

const expiresAt = Math.floor(Date.now() / 1000) + 3600;
const grantFor = (id: string): Grant => ({
  id,
  clientId: "c1",
  accountId: "acct",
  wrappedKey: "jwe",
  scope: "linkshort",
  resource: "https://mcp.test/mcp",
  expiresAt,
});

/** Asks for the grant until the replica answers it from what it trusts (its listening connection is up), and answers the queries that took. */
async function trustedOn(auth: PostgresAuthStore, store: PostgresStore, grantId: string): Promise<void> {
  const queries = queriesOf(store);
  await eventually(
    async () => {
      const before = queries.mock.calls.length;
      expect(await auth.grant(grantId, Math.floor(Date.now() / 1000))).toBeDefined();
      return queries.mock.calls.length === before;
    },
    5_000,
    "the grant answered without a query",
  );
  queries.mockRestore();
}

test("a replica answers a grant it read lately without asking the store, and forgets it as soon as another replica revokes it (well within GRANT_TRUST_MS)", async () => {
  const url = await freshDatabase();
  const [oneStore, twoStore] = [await replica(url), await replica(url)];
  const [one, two] = [new PostgresAuthStore(oneStore), new PostgresAuthStore(twoStore)];
  await one.saveGrant(grantFor("g1"));
  await trustedOn(two, twoStore, "g1");
  const queries = queriesOf(twoStore);
  for (let call = 0; call < 50; call += 1) expect(await two.grant("g1", Math.floor(Date.now() / 1000))).toEqual(grantFor("g1"));
  expect(queries).not.toHaveBeenCalled();
  // An expired grant is refused from what is trusted too.
  expect(await two.grant("g1", expiresAt)).toBeUndefined();

  await one.revokeGrant("g1");
  const revokedAt = Date.now();
  await eventually(
    async () => (await two.grant("g1", Math.floor(Date.now() / 1000))) === undefined,
    GRANT_TRUST_MS,
    "the revocation seen on the other replica",
  );
  expect(Date.now() - revokedAt).toBeLessThan(500);
  queries.mockRestore();
});

test("while a replica cannot hear revocations (its listening connection ended), it trusts nothing: a revocation elsewhere is refused at once", async () => {
  const url = await freshDatabase();
  const [oneStore, twoStore] = [await replica(url), await replica(url)];
  const [one, two] = [new PostgresAuthStore(oneStore), new PostgresAuthStore(twoStore)];
  await one.saveGrant(grantFor("g2"));
  await trustedOn(two, twoStore, "g2");
  // The listening connection dies, and a revocation is announced while it is gone: a notice it never gets.
  const postgres = await testPostgres();
  const queries = queriesOf(twoStore);
  postgres.query(
    "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'linkshort-mcp listener' and datname = current_database()",
    databaseOf(url),
  );
  await eventually(
    async () => {
      const before = queries.mock.calls.length;
      expect(await two.grant("g2", Math.floor(Date.now() / 1000))).toBeDefined();
      return queries.mock.calls.length > before;
    },
    2_000,
    "the grant asked of the store again once the listening connection is gone",
  );
  queries.mockRestore();
  await one.revokeGrant("g2");
  expect(await two.grant("g2", Math.floor(Date.now() / 1000))).toBeUndefined();
  // It listens again by itself, and trusts again.
  await one.saveGrant(grantFor("g3"));
  await trustedOn(two, twoStore, "g3");
});

test("two replicas take a key's rate slots a few at a time, together never past the window, asking the store about once a batch, and give back what they did not spend", async () => {
  // The sandbox's windows end at multiples of their length on the clock: five minutes (as long as a reset is
  // believed), begun well before the next end, so that the test's requests fall in one window.
  const windowMs = 300_000;
  const leftOfWindow = windowMs - (Date.now() % windowMs);
  if (leftOfWindow < 30_000) await new Promise((resolve) => setTimeout(resolve, leftOfWindow + 100));
  const sandbox = await startSandbox({ port: 0, rateLimit: { limit: 1_000, windowMs } });
  sandboxes.push(sandbox);
  const url = await freshDatabase();
  const replicas = [await SharedState.open(url), await SharedState.open(url)];
  open.push(...replicas);
  const queries = replicas.map((state) => queriesOf(state.store));
  const clients = replicas.map((state) => state.clientFor(sandbox.baseUrl, sandbox.userKey, 10));
  const before = sandbox.requests.length;
  for (let round = 0; round < 100; round += 1) await Promise.all(clients.map((client) => client.account.get()));
  const sent = sandbox.requests.length - before;
  expect(sent).toBe(200);
  const asked = queries.reduce((total, query) => total + query.mock.calls.length, 0);
  // Before: one or more statements a request (200 and up). Now about one a batch of 20, and a few to learn the window.
  expect(asked).toBeLessThanOrEqual(30);
  const postgres = await testPostgres();
  const counted = () => postgres.query<{ used: number }>("select used from mcp_rate_windows where resets_at > 0", databaseOf(url));
  expect(counted()).toHaveLength(1);
  expect(counted()[0]!.used).toBeGreaterThanOrEqual(sent);
  expect(counted()[0]!.used).toBeLessThanOrEqual(1_000);
  // Idle replicas give their unspent slots back: the window counts the requests sent.
  await eventually(
    () => counted()[0]!.used === sent,
    RETURN_AFTER_MS * 4,
    () => `the unspent slots given back (the window counts ${counted()[0]!.used}, ${sent} sent)`,
  );
});

test("replicas holding slots of a small window still keep to it together: no request is sent again after a limit answer", async () => {
  // 100 a window: slots go two at a time. Over two windows' worth of requests from two replicas at once.
  const sandbox = await startSandbox({ port: 0, rateLimit: { limit: 100, windowMs: 2_000 } });
  sandboxes.push(sandbox);
  const url = await freshDatabase();
  const replicas = [await SharedState.open(url), await SharedState.open(url)];
  open.push(...replicas);
  const clients = replicas.map((state) => state.clientFor(sandbox.baseUrl, sandbox.userKey, 30));
  const before = sandbox.requests.length;
  const answers = await Promise.allSettled(clients.flatMap((client) => Array.from({ length: 120 }, () => client.account.get())));
  expect(answers.filter((answer) => answer.status === "rejected")).toEqual([]);
  const most = (await testPostgres()).query<{ most: number }>("select max(used) as most from mcp_rate_windows where resets_at > 0", databaseOf(url))[0]!.most;
  expect(most).toBeLessThanOrEqual(100);
  // A limit answer makes the client send its request again: none, but for one that took a slot at a
  // window's very end and reached the server in the next (as postgres.test.ts allows).
  expect(sandbox.requests.length - before).toBeLessThanOrEqual(241);
});

test("the built server: a token revoked on one replica is refused by the other, which trusted its grant a moment before, within 500 ms", async () => {
  const sandbox = await startSandbox({ port: 0, rateLimit: { limit: 1000, windowMs: 60_000 } });
  sandboxes.push(sandbox);
  const store = await freshDatabase();
  proxy = await roundRobin();
  const [one, two] = await Promise.all(
    [0, 1].map(() => startReplica({ baseUrl: sandbox.baseUrl, apiKey: "" }, store, ["--sign-in", "--public-url", proxy!.url])),
  );
  processes.push(one!.child, two!.child);
  proxy.targets = [one!.origin];
  const tokens = (await exchange(proxy.url, await registerAndAuthorize(proxy.url, `${proxy.url}/mcp`, sandbox.userKey))).body as { access_token: string };
  const bearer = { Authorization: `Bearer ${tokens.access_token}` };
  for (let call = 0; call < 5; call += 1) expect((await listTools(two!.url, bearer)).status).toBe(200);
  expect((await form(`${proxy.url}/revoke`, { token: tokens.access_token })).status).toBe(200);
  const revokedAt = Date.now();
  let status = 200;
  while (status === 200 && Date.now() - revokedAt < 2_000) {
    status = (await listTools(two!.url, bearer)).status;
    if (status === 200) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(status).toBe(401);
  expect(Date.now() - revokedAt).toBeLessThan(500);
});
