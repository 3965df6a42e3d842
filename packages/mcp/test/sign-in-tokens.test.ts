/**
 * Tokens of `--sign-in` checked beyond their signature: an expired one and one issued for another
 * server (the same secret, another resource) are refused; clients described by a Client ID
 * Metadata Document sign in, fetched only where the server allows.
 */
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import type { ChildProcess } from "node:child_process";
import { createHmac, hkdfSync, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startHttpServerProcess, type HttpServerProcess } from "./helpers";
import { exchange, listTools, pkce, REDIRECT_URI, registerAndAuthorize, signIn } from "./sign-in-helpers";

const SECRET = randomBytes(32).toString("hex");
let sandbox: Sandbox;
let first: HttpServerProcess;
let second: HttpServerProcess;
let documents: Server;
let documentUrl: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: { limit: 1000, windowMs: 60_000 } });
  const env = { baseUrl: sandbox.baseUrl, apiKey: "", more: { LINKSHORT_MCP_SIGN_IN_SECRET: SECRET } };
  first = await startHttpServerProcess(env, ["--sign-in"]);
  second = await startHttpServerProcess(env, ["--sign-in", "--allow-local-client-metadata"]);
  documents = createServer((request, response) => {
    response.writeHead(200, { "Content-Type": "application/json" });
    response.end(
      JSON.stringify({ client_id: documentUrl, client_name: "Documented client", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none" }),
    );
  });
  await new Promise<void>((resolve) => documents.listen(0, "127.0.0.1", resolve));
  documentUrl = `http://127.0.0.1:${(documents.address() as AddressInfo).port}/client.json`;
});

afterAll(async () => {
  for (const server of [first, second]) {
    (server.child as ChildProcess).kill();
    expect(server.stderr()).not.toContain(sandbox.userKey);
  }
  documents.close();
  await sandbox.close();
});

const issuerOf = (server: HttpServerProcess) => new URL(server.url).origin;

/** The token's claims re-signed with the secret as the server derives its signing key (the test's own HS256, to forge what only the secret can). */
function resigned(token: string, change: (claims: Record<string, unknown>) => void): string {
  const [header, payload] = token.split(".");
  const claims = JSON.parse(Buffer.from(payload!, "base64url").toString()) as Record<string, unknown>;
  change(claims);
  const body = `${header}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
  const key = Buffer.from(hkdfSync("sha256", Buffer.from(SECRET, "hex"), "", "linkshort-mcp signing", 32));
  return `${body}.${createHmac("sha256", key).update(body).digest("base64url")}`;
}

test("an expired token and a token for another server (same secret) are refused", async () => {
  const tokens = await exchange(issuerOf(first), await registerAndAuthorize(issuerOf(first), first.url, sandbox.userKey));
  const access = tokens.body.access_token as string;
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  // The forgery is faithful: unchanged claims re-signed are accepted.
  expect((await listTools(first.url, bearer(resigned(access, () => undefined)))).status).toBe(200);
  expect((await listTools(first.url, bearer(resigned(access, (claims) => (claims.exp = Math.floor(Date.now() / 1000) - 5))))).status).toBe(401);
  expect((await listTools(first.url, bearer(resigned(access, (claims) => (claims.aud = second.url))))).status).toBe(401);
  const elsewhere = await exchange(issuerOf(second), await registerAndAuthorize(issuerOf(second), second.url, sandbox.userKey));
  expect((await listTools(second.url, bearer(elsewhere.body.access_token as string))).status).toBe(200);
  const refused = await listTools(first.url, bearer(elsewhere.body.access_token as string));
  expect(refused.status).toBe(401);
  expect(refused.challenge).toMatch(/invalid_token/);
});

test("a resource other than this server's is refused at the authorization request", async () => {
  const registered = (await (
    await fetch(`${issuerOf(first)}/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ redirect_uris: [REDIRECT_URI] }),
    })
  ).json()) as { client_id: string };
  const query = new URLSearchParams({
    response_type: "code",
    client_id: registered.client_id,
    redirect_uri: REDIRECT_URI,
    code_challenge: pkce().challenge,
    code_challenge_method: "S256",
    resource: second.url,
  });
  const answer = await fetch(`${issuerOf(first)}/authorize?${query}`, { redirect: "manual" });
  expect(answer.status).toBe(303);
  const back = new URL(answer.headers.get("location")!).searchParams;
  expect([back.get("error"), back.get("iss"), back.get("code")]).toEqual(["invalid_target", issuerOf(first), null]);
});

test("a client by metadata document (its client_id the document's address) signs in where allowed; refused where documents on this machine are not", async () => {
  // The SDK's client sends only https document addresses; the server's own fetch is what is tested here, over http on this machine (--allow-local-client-metadata).
  const { verifier, challenge } = pkce();
  const query = new URLSearchParams({
    response_type: "code",
    client_id: documentUrl,
    redirect_uri: REDIRECT_URI,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "cimd",
  });
  const page = await fetch(`${issuerOf(second)}/authorize?${query}`);
  expect(await page.text()).toContain("Documented client");
  const back = await signIn(issuerOf(second), `${issuerOf(second)}/authorize?${query}`, sandbox.userKey);
  expect(back.get("state")).toBe("cimd");
  const tokens = await exchange(issuerOf(second), { clientId: documentUrl, code: back.get("code")!, verifier });
  expect(tokens.status).toBe(200);
  expect((await listTools(second.url, { Authorization: `Bearer ${tokens.body.access_token as string}` })).status).toBe(200);
  // Another redirect URI than the document lists is refused.
  const elsewhere = await fetch(
    `${issuerOf(second)}/authorize?${new URLSearchParams({ ...Object.fromEntries(query), redirect_uri: "http://127.0.0.1:9/other" })}`,
    { redirect: "manual" },
  );
  expect([elsewhere.status, elsewhere.headers.get("location")]).toEqual([400, null]);

  const refused = await fetch(`${issuerOf(first)}/authorize?${query}`);
  expect(refused.status).toBe(400);
  expect(await refused.text()).toMatch(/https address/);
  const loopback = await fetch(
    `${issuerOf(first)}/authorize?${new URLSearchParams({ ...Object.fromEntries(query), client_id: "https://127.0.0.1:1/client.json" })}`,
  );
  expect(await loopback.text()).toMatch(/private or loopback/);
});
