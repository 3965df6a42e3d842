/**
 * Registrations and client metadata documents under abuse (issue 51): anonymous registrations
 * never push out a client someone signed in with, each address holds a bounded share, one
 * registration's size is bounded, never-used ones expire on Postgres; a document's failed fetch
 * is remembered (not fetched again at every request), fetches are bounded per client_id and per
 * host, and a document that cannot be fetched again is served from its last good copy while it lasts.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { MAX_NEVER_USED, MAX_NEVER_USED_PER_ADDRESS } from "../src/auth/client-pool";
import { HOST_FETCHES_PER_MINUTE, NEW_CLIENT_IDS_PER_ADDRESS_PER_MINUTE } from "../src/auth/client-documents";
import { ClientRegistry, OAuthError } from "../src/auth/clients";
import { MemoryAuthStore, type AuthStore } from "../src/auth/store";
import { PostgresAuthStore } from "../src/store/auth-store";
import { NEVER_USED_SECONDS } from "../src/store/client-rows";
import { PostgresStore } from "../src/store/postgres";
import { freshDatabase, stopTestPostgres } from "./postgres-support";

const REDIRECT = { redirect_uris: ["http://127.0.0.1:9/callback"] };
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Registers through the registry as a client would, from this address: its client_id. */
async function register(registry: ClientRegistry, address: string): Promise<string> {
  return (await registry.register(REDIRECT, address)).client_id as string;
}

const known = (store: AuthStore, clientId: string) => store.client(clientId).then((client) => client !== undefined);

describe("registrations in memory", () => {
  test("a client someone signed in with survives 10,000 registrations from one address and from 10,000 addresses; each address keeps its share", async () => {
    const store = new MemoryAuthStore();
    const registry = new ClientRegistry(store);
    const used = await register(registry, "203.0.113.1");
    await store.clientSignedIn(used, nowSeconds());
    const waiting = await register(registry, "203.0.113.2");
    for (let i = 0; i < MAX_NEVER_USED; i += 1) await register(registry, "198.51.100.7");
    expect(await known(store, used)).toBe(true);
    // One address floods only its own share: another's registration, never used yet, is still there.
    expect(await known(store, waiting)).toBe(true);
    for (let i = 0; i < MAX_NEVER_USED; i += 1) await register(registry, `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`);
    expect(await known(store, used)).toBe(true);
    // Many addresses push out never-used registrations only, and the memory stays bounded.
    expect(await known(store, waiting)).toBe(false);
  });

  test("one address holds at most its share of never-used registrations, the oldest going first", async () => {
    const store = new MemoryAuthStore();
    const registry = new ClientRegistry(store);
    const ids: string[] = [];
    for (let i = 0; i <= MAX_NEVER_USED_PER_ADDRESS; i += 1) ids.push(await register(registry, "198.51.100.7"));
    expect(await known(store, ids[0]!)).toBe(false);
    expect(await known(store, ids[1]!)).toBe(true);
    expect(await known(store, ids.at(-1)!)).toBe(true);
  });

  test("one registration's size is bounded: ten redirect URIs of 2,000 characters are refused, naming the field", async () => {
    const registry = new ClientRegistry(new MemoryAuthStore());
    const long = Array.from({ length: 10 }, (_, i) => `https://client.example/${String(i).padEnd(1970, "x")}`);
    await expect(registry.register({ redirect_uris: long }, "203.0.113.1")).rejects.toMatchObject({
      code: "invalid_redirect_uri",
      message: expect.stringMatching(/redirect_uris.*bytes/),
    });
    const stored = await registry.register(
      { redirect_uris: long.slice(0, 1).map((uri) => uri.slice(0, 2000)), client_name: "n".repeat(10_000) },
      "203.0.113.1",
    );
    expect(JSON.stringify(stored).length).toBeLessThan(2_600);
  });
});

describe("registrations on Postgres", () => {
  let postgres: PostgresStore;
  beforeAll(async () => {
    postgres = await PostgresStore.open(await freshDatabase());
  });
  afterAll(async () => {
    await postgres.close();
    await stopTestPostgres();
  });

  test("never-used registrations expire after a day and an address keeps its share; a used client stays", async () => {
    const store = new PostgresAuthStore(postgres);
    const registry = new ClientRegistry(store);
    const used = await register(registry, "203.0.113.1");
    await store.clientSignedIn(used, nowSeconds());
    const stale = await register(registry, "203.0.113.2");
    await postgres.query("UPDATE mcp_oauth_clients SET saved_at = now() - make_interval(secs => $1 + 60)", [NEVER_USED_SECONDS]);
    expect(await known(store, stale)).toBe(false);
    expect(await known(store, used)).toBe(true);
    const ids: string[] = [];
    for (let i = 0; i <= MAX_NEVER_USED_PER_ADDRESS; i += 1) ids.push(await register(registry, "198.51.100.7"));
    const rows = await postgres.query<{ client_id: string }>("SELECT client_id FROM mcp_oauth_clients");
    // The expired one is gone from the table, not only hidden; the flood kept its share; the used one stayed.
    expect(rows.map((row) => row.client_id).sort()).toEqual([used, ...ids.slice(1)].sort());
  });
});

describe("client metadata documents", () => {
  let documents: Server;
  let base: string;
  let answers: (path: string) => { status: number; body?: unknown };
  const fetched: string[] = [];
  beforeAll(async () => {
    documents = createServer((request, response) => {
      fetched.push(request.url!);
      const answer = answers(request.url!);
      response.writeHead(answer.status, { "Content-Type": "application/json" });
      response.end(answer.body === undefined ? "" : JSON.stringify(answer.body));
    });
    await new Promise<void>((resolve) => documents.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(documents.address() as AddressInfo).port}`;
  });
  afterAll(() => documents.close());
  beforeEach(() => (fetched.length = 0));
  const documentOf = (clientId: string) => ({ client_id: clientId, client_name: "Documented", redirect_uris: ["https://claude.ai/api/mcp/auth_callback"] });

  test("a document that cannot be fetched is not fetched again at every request (the failure is remembered for a minute)", async () => {
    let clock = Date.now();
    const registry = new ClientRegistry(new MemoryAuthStore(), { allowInsecureMetadataFetch: true, now: () => clock });
    answers = () => ({ status: 404 });
    const clientId = `${base}/missing.json`;
    for (let i = 0; i < 5; i += 1) await expect(registry.find(clientId)).rejects.toThrow(/answered 404/);
    expect(fetched).toEqual(["/missing.json"]);
    clock += 61_000;
    await expect(registry.find(clientId)).rejects.toThrow(/answered 404/);
    expect(fetched).toHaveLength(2);
  });

  test("concurrent requests for one client_id fetch it once", async () => {
    const registry = new ClientRegistry(new MemoryAuthStore(), { allowInsecureMetadataFetch: true });
    const clientId = `${base}/together.json`;
    answers = () => ({ status: 200, body: documentOf(clientId) });
    const found = await Promise.all(Array.from({ length: 10 }, () => registry.find(clientId)));
    expect(new Set(found.map((client) => client.clientName))).toEqual(new Set(["Documented"]));
    expect(fetched).toEqual(["/together.json"]);
  });

  test("a document its host now refuses (403) is served from the last good copy within its lifetime, then refused", async () => {
    let clock = Date.now();
    const registry = new ClientRegistry(new MemoryAuthStore(), { allowInsecureMetadataFetch: true, now: () => clock });
    const clientId = `${base}/claude.json`;
    answers = () => ({ status: 200, body: documentOf(clientId) });
    expect((await registry.find(clientId)).redirectUris).toEqual(["https://claude.ai/api/mcp/auth_callback"]);
    answers = () => ({ status: 403 });
    clock += 2 * 60 * 60_000;
    expect((await registry.find(clientId)).clientName).toBe("Documented");
    expect((await registry.find(clientId)).clientName).toBe("Documented");
    // Asked again once, then not within the minute after the failure.
    expect(fetched).toEqual(["/claude.json", "/claude.json"]);
    clock += 23 * 60 * 60_000;
    await expect(registry.find(clientId)).rejects.toThrow(/answered 403/);
  });

  test("a document changed into an invalid one is not served from the old copy", async () => {
    let clock = Date.now();
    const registry = new ClientRegistry(new MemoryAuthStore(), { allowInsecureMetadataFetch: true, now: () => clock });
    const clientId = `${base}/changed.json`;
    answers = () => ({ status: 200, body: documentOf(clientId) });
    await registry.find(clientId);
    answers = () => ({ status: 200, body: { ...documentOf(clientId), client_id: `${base}/other.json` } });
    clock += 2 * 60 * 60_000;
    await expect(registry.find(clientId)).rejects.toThrow(/name its own address/);
  });

  test("each client_id is a fetch, but one host gets at most 20 a minute: the 21st new client_id is refused without a fetch", async () => {
    const registry = new ClientRegistry(new MemoryAuthStore(), { allowInsecureMetadataFetch: true });
    answers = (path) => ({ status: 200, body: documentOf(`${base}${path}`) });
    for (let i = 0; i < 20; i += 1) await registry.find(`${base}/many/${i}.json`);
    const refused = await registry.find(`${base}/many/20.json`).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OAuthError);
    expect(refused).toMatchObject({ code: "temporarily_unavailable", status: 503 });
    expect(fetched).toHaveLength(20);
  });

  test("made-up client_ids, a thousand and more, never push out the copy of a client someone signed in with", async () => {
    let clock = Date.now();
    const registry = new ClientRegistry(new MemoryAuthStore(), { allowInsecureMetadataFetch: true, now: () => clock });
    const claude = `${base}/oauth/claude.json`;
    answers = (path) => (path === "/oauth/claude.json" ? { status: 200, body: documentOf(claude) } : { status: 404 });
    await registry.find(claude);
    await registry.signedIn(claude, nowSeconds());
    for (let i = 0; i < 1_050; i += 1) {
      if (i % HOST_FETCHES_PER_MINUTE === 0) clock += 61_000;
      await expect(registry.find(`${base}/made-up/${i}.json`)).rejects.toThrow(/answered 404/);
    }
    // Past the hour, the host's edge refuses it: the last good copy stands.
    answers = () => ({ status: 403 });
    clock += 61 * 60_000;
    expect((await registry.find(claude)).clientName).toBe("Documented");
    expect(fetched.filter((path) => path === "/oauth/claude.json")).toHaveLength(2);
  }, 60_000);

  test("one address's made-up client_ids spend its own first fetches, not the host's: another address's new client still signs in", async () => {
    const registry = new ClientRegistry(new MemoryAuthStore(), { allowInsecureMetadataFetch: true });
    answers = (path) => (path === "/real.json" ? { status: 200, body: documentOf(`${base}/real.json`) } : { status: 404 });
    const refusals: unknown[] = [];
    for (let i = 0; i < HOST_FETCHES_PER_MINUTE + 5; i += 1) {
      // One host, rotating its addresses in its /64.
      refusals.push(await registry.find(`${base}/bogus/${i}.json`, `2001:db8:7:8::${i + 1}`).catch((error: unknown) => error));
    }
    expect(fetched).toHaveLength(NEW_CLIENT_IDS_PER_ADDRESS_PER_MINUTE);
    expect(refusals.slice(NEW_CLIENT_IDS_PER_ADDRESS_PER_MINUTE)).toEqual(
      Array.from({ length: HOST_FETCHES_PER_MINUTE + 5 - NEW_CLIENT_IDS_PER_ADDRESS_PER_MINUTE }, () =>
        expect.objectContaining({ code: "temporarily_unavailable", status: 503 }),
      ),
    );
    expect((await registry.find(`${base}/real.json`, "198.51.100.2")).clientName).toBe("Documented");
    expect(fetched).toHaveLength(NEW_CLIENT_IDS_PER_ADDRESS_PER_MINUTE + 1);
  });
});
