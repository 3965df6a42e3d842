/**
 * The store under abuse (issue 51): keys the service refuses leave no row behind and expired rate
 * windows go for every account; a code redeemed twice at once leaves no token of it working; a
 * refresh loop keeps a grant's refresh-token rows to the current one and the one it replaced.
 */
import { accountId } from "@linkshort/client";
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import type { ChildProcess } from "node:child_process";
import { People } from "../src/auth/people";
import { clientFor } from "../src/config/command-line";
import { startHttpServer, type HttpServer } from "../src/server/http";
import { createLinkShortMcpServer } from "../src/server/server";
import { SharedState } from "../src/account/shared/state";
import { PostgresAuthStore } from "../src/store/auth-store";
import { freshDatabase, stopTestPostgres, testPostgres } from "./postgres-support";
import { startReplica } from "./replica-support";
import { exchange, form, listTools, openSignInPage, registerAndAuthorize, submitSignIn } from "./sign-in-helpers";

jest.setTimeout(90_000);
const processes: ChildProcess[] = [];
const closing: Array<{ close(): Promise<void> }> = [];
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: { limit: 100_000, windowMs: 60_000 } });
});

afterAll(async () => {
  for (const child of processes) child.kill("SIGKILL");
  await Promise.all(closing.map((opened) => opened.close()));
  await sandbox.close();
  await stopTestPostgres();
});

const databaseOf = (url: string) => new URL(url).pathname.slice(1);
const wrongKey = (n: number) => `made-up-key-${n}-0123456789abcdef0123456789`;
const keyHeader = (key: string) => ({ "X-LinkShort-Api-Key": key });

const accountReads = () => sandbox.requests.filter((entry) => entry.path === "/api/account").length;

/** One get_account tool call over HTTP (stateless, 2025-06-18) with these headers: its status. */
async function getAccountOverHttp(mcpUrl: string, headers: Record<string, string>): Promise<number> {
  const answer = await fetch(mcpUrl, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "MCP-Protocol-Version": "2025-06-18", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_account", arguments: {} } }),
  });
  const text = await answer.text();
  if (!text.includes('"result"')) throw new Error(`get_account answered ${answer.status}: ${text.slice(0, 300)}`);
  return answer.status;
}

async function rowsOf(url: string, sql: string): Promise<number> {
  return Number((await testPostgres()).query<{ count: string }>(sql, databaseOf(url))[0]!.count);
}

test("keys the service refused (header and sign-in form) write nothing to the store", async () => {
  const store = await freshDatabase();
  const replica = await startReplica({ baseUrl: sandbox.baseUrl, apiKey: "" }, store, ["--sign-in"]);
  processes.push(replica.child);
  const issuer = replica.origin;
  expect(await getAccountOverHttp(replica.url, keyHeader(sandbox.userKey))).toBe(200);
  const page = await openSignInPage(
    `${issuer}/authorize?${new URLSearchParams({ response_type: "code", client_id: (await registerAndAuthorize(issuer, replica.url, sandbox.userKey)).clientId, redirect_uri: "http://127.0.0.1:9/callback", code_challenge: "a".repeat(43), code_challenge_method: "S256" })}`,
  );
  const checksBefore = accountReads();
  const refusedStatuses: number[] = [];
  for (let n = 0; n < 8; n += 1) refusedStatuses.push((await listTools(replica.url, keyHeader(wrongKey(n)))).status);
  for (let n = 8; n < 10; n += 1) refusedStatuses.push((await submitSignIn(issuer, page, wrongKey(n))).status);
  expect(refusedStatuses).toEqual(Array.from({ length: 10 }, () => 401));
  // Every key was sent on to the service (none was refused by the bound yet), and none left a row.
  expect(accountReads() - checksBefore).toBe(10);
  // Only the accepted key's account has windows (the refused keys' rows were 10 on main).
  expect(await rowsOf(store, `select count(*) from mcp_rate_windows where account <> '${accountId(sandbox.baseUrl, sandbox.userKey)}'`)).toBe(0);
  expect(replica.stderr()).not.toContain(sandbox.userKey);
});

test("a window opened for one account clears the expired windows of every account, and probes long over", async () => {
  const url = await freshDatabase();
  const shared = await SharedState.open(url);
  closing.push(shared);
  const longAgo = Math.floor(Date.now() / 1000) - 7200;
  (await testPostgres()).execute(
    `insert into mcp_rate_windows (account, resets_at, used, window_limit) values ('gone', ${longAgo}, 5, 10), ('gone-probe', -1, ${longAgo}, 0)`,
    databaseOf(url),
  );
  const client = shared.clientFor(sandbox.baseUrl, sandbox.userKey, 5);
  for (let call = 0; call < 3; call += 1) await client.account.get();
  const accounts = (await testPostgres()).query<{ account: string }>("select distinct account from mcp_rate_windows order by account", databaseOf(url));
  expect(accounts).toEqual([{ account: client.accountId }]);
});

describe("a sign-in server on the store, in this process", () => {
  let server: HttpServer;
  let auth: PostgresAuthStore;
  let url: string;

  beforeAll(async () => {
    url = await freshDatabase();
    const shared = await SharedState.open(url);
    closing.push(shared);
    auth = shared.authStore;
    const people = new People({ clientFor: (key) => clientFor(sandbox.baseUrl, key, 5), admin: false, say: () => undefined, letGo: () => undefined });
    server = await startHttpServer((person) => createLinkShortMcpServer({ client: person!.client, admin: false }), {
      port: 0,
      host: "127.0.0.1",
      signIn: { people, serviceLabel: "the sandbox", store: auth },
    });
    closing.push(server);
  });

  test("a code redeemed twice at once: once one redemption is answered 'already used', no token of that code works", async () => {
    const issuer = new URL(server.url).origin;
    const outcomes: string[] = [];
    for (let round = 0; round < 15; round += 1) {
      const grant = await registerAndAuthorize(issuer, server.resource!, sandbox.userKey);
      const answers = await Promise.all([exchange(issuer, grant), exchange(issuer, grant)]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
      expect(answers.find((answer) => answer.status === 400)!.body.error_description).toBe("this code was already used");
      const issued = answers.find((answer) => answer.status === 200)!.body;
      const bearer = { Authorization: `Bearer ${issued.access_token as string}` };
      const refreshed = await form(`${issuer}/token`, {
        grant_type: "refresh_token",
        refresh_token: issued.refresh_token as string,
        client_id: grant.clientId,
      });
      outcomes.push(`${(await listTools(server.url, bearer)).status} ${refreshed.status}`);
    }
    expect(outcomes).toEqual(Array.from({ length: 15 }, () => "401 400"));
  });

  test("a refresh loop keeps one grant's refresh-token rows to the current token and the one it replaced; that one's replay still ends the sign-in", async () => {
    const issuer = new URL(server.url).origin;
    const grant = await registerAndAuthorize(issuer, server.resource!, sandbox.userKey);
    let tokens = (await exchange(issuer, grant)).body;
    const refresh = (token: unknown) => form(`${issuer}/token`, { grant_type: "refresh_token", refresh_token: token as string, client_id: grant.clientId });
    let previous: unknown;
    for (let round = 0; round < 100; round += 1) {
      previous = tokens.refresh_token;
      const answer = await refresh(previous);
      expect(answer.status).toBe(200);
      tokens = answer.body;
    }
    const grantId = (JSON.parse(Buffer.from((tokens.access_token as string).split(".")[1]!, "base64url").toString()) as { sid: string }).sid;
    expect(await rowsOf(url, `select count(*) from mcp_oauth_refresh_tokens where grant_id = '${grantId}'`)).toBe(2);
    expect((await refresh(previous)).body.error_description).toBe("this refresh token was already used; sign in again");
    expect((await refresh(tokens.refresh_token)).status).toBe(400);
    expect(await rowsOf(url, `select count(*) from mcp_oauth_refresh_tokens where grant_id = '${grantId}'`)).toBe(0);
  });
});
