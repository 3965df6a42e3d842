/**
 * The sign-in under abuse (issue 51), in memory: wrong keys from one address or one sign-in page
 * are bounded (429 with Retry-After past the bound, without asking the service), a refused header
 * key is not sent on again for a while, a good key goes through once the bound has passed, the
 * bounds' tables stay bounded whatever the addresses; and one person's refresh loop never pushes
 * another person's refresh token out of the memory store.
 */
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import {
  ADDRESS_BOUND,
  FailureThrottle,
  FIRST_DELAY_MS,
  FREE_FAILURES,
  MAX_DELAY_MS,
  MAX_REFUSED_KEYS,
  MAX_TRACKED,
  PAGE_BOUND,
  RefusedKeys,
} from "../src/auth/failure-throttle";
import { People } from "../src/auth/people";
import { resourceNames } from "../src/auth/resource";
import { MemoryAuthStore } from "../src/auth/store";
import { tokenEndpoint } from "../src/auth/token-endpoint";
import { GRANT_SECONDS, nowSeconds, sha256, TokenService } from "../src/auth/tokens";
import { clientFor } from "../src/config/command-line";
import { startHttpServer, type HttpServer } from "../src/server/http";
import { createLinkShortMcpServer } from "../src/server/server";
import { listTools, openSignInPage, pkce, REDIRECT_URI, submitSignIn } from "./sign-in-helpers";

let sandbox: Sandbox;
const servers: HttpServer[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: { limit: 100_000, windowMs: 60_000 } });
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await sandbox.close();
});

const wrongKey = (n: number) => `made-up-key-${n}-0123456789abcdef0123456789`;
const keyHeader = (key: string) => ({ "X-LinkShort-Api-Key": key });
const accountReads = () => sandbox.requests.filter((entry) => entry.path === "/api/account").length;

/** A sign-in server in this process whose failure bounds run on `clock.now` (moved by the test). */
async function signInServer(clock: { now: number }): Promise<{ server: HttpServer; issuer: string }> {
  const people = new People({
    clientFor: (key) => clientFor(sandbox.baseUrl, key, 5),
    admin: false,
    say: () => undefined,
    letGo: () => undefined,
    now: () => clock.now,
  });
  const server = await startHttpServer((person) => createLinkShortMcpServer({ client: person!.client, admin: false }), {
    port: 0,
    host: "127.0.0.1",
    signIn: { people, serviceLabel: "the sandbox" },
  });
  servers.push(server);
  return { server, issuer: new URL(server.url).origin };
}

test("wrong keys in the header from one address: the first ADDRESS_BOUND.burst are checked, the rest answered 429 with Retry-After unasked; a refused key is not sent on again; a good key goes through once the bound has passed", async () => {
  const clock = { now: Date.now() };
  const { server } = await signInServer(clock);
  const before = accountReads();
  const answers = await Promise.all(Array.from({ length: 14 }, (_, n) => fetchStatus(server.url, wrongKey(n))));
  expect(answers.filter((answer) => answer.status === 401)).toHaveLength(ADDRESS_BOUND.burst);
  const limited = answers.filter((answer) => answer.status === 429);
  expect(limited).toHaveLength(14 - ADDRESS_BOUND.burst);
  expect(limited.every((answer) => Number(answer.retryAfter) >= 1)).toBe(true);
  expect(accountReads() - before).toBe(ADDRESS_BOUND.burst);
  // A key refused a moment ago is refused again without asking the service (and without counting).
  const refusedAlready = answers.findIndex((answer) => answer.status === 401);
  expect((await fetchStatus(server.url, wrongKey(refusedAlready))).status).toBe(401);
  expect(accountReads() - before).toBe(ADDRESS_BOUND.burst);
  // The bound holds a good key too, until Retry-After has passed; then it goes through.
  const held = await fetchStatus(server.url, sandbox.userKey);
  expect(held.status).toBe(429);
  clock.now += Number(held.retryAfter) * 1000;
  expect((await fetchStatus(server.url, sandbox.userKey)).status).toBe(200);
  // A good key is no failure: it leaves room for the next.
  expect((await fetchStatus(server.url, wrongKey(100))).status).toBe(401);
});

test("a header key accepted before is checked again (after KEY_CHECK_MS) outside the bound, while a flood from the same address (a proxy's) fills it", async () => {
  const clock = { now: Date.now() };
  const { server } = await signInServer(clock);
  expect((await fetchStatus(server.url, sandbox.userKey)).status).toBe(200);
  clock.now += 11 * 60_000;
  const flood = await Promise.all(Array.from({ length: ADDRESS_BOUND.burst + 2 }, (_, n) => fetchStatus(server.url, wrongKey(200 + n))));
  expect(flood.filter((answer) => answer.status === 429)).toHaveLength(2);
  const before = accountReads();
  expect((await fetchStatus(server.url, sandbox.userKey)).status).toBe(200);
  expect(accountReads() - before).toBe(1);
  // A key never accepted is still held back.
  expect((await fetchStatus(server.url, wrongKey(300))).status).toBe(429);
});

async function fetchStatus(mcpUrl: string, key: string): Promise<{ status: number; retryAfter: string | null }> {
  const answer = await fetch(mcpUrl, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "MCP-Protocol-Version": "2025-06-18", ...keyHeader(key) },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });
  await answer.text();
  return { status: answer.status, retryAfter: answer.headers.get("retry-after") };
}

test("one sign-in page and its cookie replayed with wrong keys: PAGE_BOUND.burst refusals, then 429 with Retry-After on the page unasked; a new page of the same address is still checked", async () => {
  const clock = { now: Date.now() };
  const { server, issuer } = await signInServer(clock);
  const registered = (await (
    await fetch(`${issuer}/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ redirect_uris: [REDIRECT_URI], client_name: "flood" }),
    })
  ).json()) as { client_id: string };
  const pageUrl = `${issuer}/authorize?${new URLSearchParams({ response_type: "code", client_id: registered.client_id, redirect_uri: REDIRECT_URI, code_challenge: pkce().challenge, code_challenge_method: "S256", resource: server.resource! })}`;
  const page = await openSignInPage(pageUrl);
  const before = accountReads();
  const statuses: number[] = [];
  let retryAfter: string | null = null;
  for (let n = 0; n < PAGE_BOUND.burst + 2; n += 1) {
    const answer = await submitSignIn(issuer, page, wrongKey(n));
    statuses.push(answer.status);
    if (answer.status === 429) retryAfter = answer.headers.get("retry-after");
    expect(await answer.text()).toContain(answer.status === 429 ? "Too many keys were refused on this sign-in page" : "did not accept this API key");
  }
  expect(statuses).toEqual([...Array.from({ length: PAGE_BOUND.burst }, () => 401), 429, 429]);
  expect(Number(retryAfter)).toBe(60 / PAGE_BOUND.perMinute);
  expect(accountReads() - before).toBe(PAGE_BOUND.burst);
  const fresh = await openSignInPage(pageUrl);
  expect((await submitSignIn(issuer, fresh, wrongKey(99))).status).toBe(401);
  // Once the page's bound has passed, its good key signs in.
  clock.now += Number(retryAfter) * 1000;
  expect((await submitSignIn(issuer, page, sandbox.userKey)).status).toBe(303);
  expect((await listTools(server.url, keyHeader(sandbox.userKey))).status).toBe(200);
});

test("the bounds' tables stay bounded however many addresses and keys; the delay grows past the first failures", () => {
  let now = 0;
  const throttle = new FailureThrottle(ADDRESS_BOUND, () => now);
  for (let address = 0; address < MAX_TRACKED + 500; address += 1) expect(throttle.charge(`10.0.${address}`)).toBeUndefined();
  expect(throttle.tracked).toBe(MAX_TRACKED);
  const delays: number[] = [];
  for (let failure = 0; failure < ADDRESS_BOUND.burst; failure += 1) {
    expect(throttle.charge("one")).toBeUndefined();
    delays.push(throttle.delayMs("one"));
  }
  expect(delays.slice(0, FREE_FAILURES)).toEqual(Array.from({ length: FREE_FAILURES }, () => 0));
  expect(delays[FREE_FAILURES]).toBe(FIRST_DELAY_MS);
  expect(delays.at(-1)).toBe(MAX_DELAY_MS);
  for (let n = 1; n < delays.length; n += 1) expect(delays[n]).toBeGreaterThanOrEqual(delays[n - 1]!);
  expect(throttle.charge("one")).toBe(60 / ADDRESS_BOUND.perMinute);
  now += 60_000;
  expect(throttle.charge("one")).toBeUndefined();
  const refused = new RefusedKeys(() => now);
  for (let key = 0; key < MAX_REFUSED_KEYS + 500; key += 1) refused.add(sha256(`key-${key}`));
  expect(refused.size).toBe(MAX_REFUSED_KEYS);
});

/** The token endpoint called directly: the answer's status and body. */
async function callTokenEndpoint(
  context: Parameters<typeof tokenEndpoint>[0],
  fields: Record<string, string>,
): Promise<{ status: number; body: Record<string, string> }> {
  const answer = await tokenEndpoint(context, new Map(Object.entries(fields)));
  return { status: answer.status, body: JSON.parse(String(answer.body)) as Record<string, string> };
}

test("one person refreshing 100,001 times in the memory store leaves another person's refresh token working", async () => {
  const store = new MemoryAuthStore();
  const tokens = new TokenService({ issuer: "https://mcp.test", resource: "https://mcp.test/mcp", secret: new Uint8Array(32).fill(7) });
  const context = { store, tokens, resourceNames: resourceNames(["https://mcp.test"]) };
  const expiresAt = nowSeconds() + GRANT_SECONDS;
  for (const id of ["quiet", "loop"]) {
    await store.saveGrant({
      id,
      clientId: "c1",
      accountId: `account-${id}`,
      wrappedKey: "jwe",
      scope: "linkshort",
      resource: "https://mcp.test/mcp",
      expiresAt,
    });
    await store.saveRefreshToken(sha256(`${id}-first`), id, expiresAt);
  }
  let token = "loop-first";
  for (let round = 0; round < 100_001; round += 1) {
    const answer = await callTokenEndpoint(context, { grant_type: "refresh_token", refresh_token: token, client_id: "c1" });
    if (answer.status !== 200) throw new Error(`refresh ${round} answered ${answer.status}`);
    token = answer.body.refresh_token!;
  }
  expect((await callTokenEndpoint(context, { grant_type: "refresh_token", refresh_token: "quiet-first", client_id: "c1" })).status).toBe(200);
}, 120_000);
