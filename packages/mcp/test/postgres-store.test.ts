/**
 * The shared store's parts against a real Postgres (Debian's package, one cluster for the file):
 * the schema made once and versioned, the sign-ins as two replicas see them, a code or refresh
 * token taken once, the secrets shared, the sweep lease held by one replica and taken over when
 * its holder stops renewing, and a store that cannot be reached named without its password.
 */
import type { IndexChanges, IndexMeta, StoredLink } from "@linkshort/client";
import type { PendingCode } from "../src/auth/store";
import { PostgresAuthStore, sharedSecret } from "../src/store/auth-store";
import { PostgresIndexStore } from "../src/store/index-store";
import { PostgresStore, shownStoreUrl, StoreUnavailableError } from "../src/store/postgres";
import { SCHEMA_VERSION } from "../src/store/schema";
import { freshDatabase, stopTestPostgres, testPostgres } from "./postgres-support";
import { unusedAddress } from "./helpers";

jest.setTimeout(60_000);
const open: PostgresStore[] = [];
async function replica(url: string): Promise<PostgresStore> {
  const store = await PostgresStore.open(url);
  open.push(store);
  return store;
}

afterAll(async () => {
  await Promise.all(open.map((store) => store.close()));
  await stopTestPostgres();
});

const meta = (generation: number): IndexMeta => ({ version: 1, account: "acct", frontierId: 10, sweep: null, generation, lastFullSweepAt: null, lastSyncAt: null, serverCount: 2, serverCountExact: true });
const link = (id: number): StoredLink => ({ id, alias: `a${id}`, shorturl: `https://s.test/a${id}`, longurl: `https://example.com/${id}`, title: "", description: "", date: "2026-01-01 00:00:00", clicks: 0, seen: 1 });
const changes = (generation: number, upserted: StoredLink[], deleted: number[] = []): IndexChanges => ({ meta: meta(generation), upserted, deleted, all: () => upserted });

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
