/**
 * `linkshort-mcp --http --sign-in`: everyone signs in as themselves. The MCP SDK v2 client's OAuth
 * provider signs in end to end against the built server and the sandbox (the sign-in page
 * submitted by HTTP), and each refusal the sign-in owes is checked on the wire.
 */
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import type { ChildProcess } from "node:child_process";
import { startHttpServerProcess } from "./helpers";
import {
  exchange,
  form,
  listTools,
  MemoryOAuthProvider,
  openSignInPage,
  pkce,
  REDIRECT_URI,
  registerAndAuthorize,
  signIn,
  submitSignIn,
} from "./sign-in-helpers";

let sandbox: Sandbox;
let server: ChildProcess;
let mcpUrl: string;
let issuer: string;
let stderr: () => string;
const seen: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: { limit: 1000, windowMs: 60_000 } });
  ({ child: server, url: mcpUrl, stderr } = await startHttpServerProcess({ baseUrl: sandbox.baseUrl, apiKey: "" }, ["--sign-in", "--admin"]));
  issuer = new URL(mcpUrl).origin;
});

afterAll(async () => {
  server.kill();
  await sandbox.close();
  for (const key of [sandbox.userKey, sandbox.adminKey]) {
    expect(stderr()).not.toContain(key);
    for (const text of seen) expect(text).not.toContain(key);
  }
});

/** Connects as the person whose key is given, through the SDK's OAuth flow and the sign-in page. */
async function connectAs(apiKey: string): Promise<{ client: Client; provider: MemoryOAuthProvider }> {
  const provider = new MemoryOAuthProvider();
  const first = new Client({ name: "sign-in-test", version: "1.0.0" });
  await expect(first.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }))).rejects.toBeInstanceOf(UnauthorizedError);
  const back = await signIn(issuer, provider.authorizationUrl!, apiKey);
  seen.push(provider.authorizationUrl!.href, back.toString());
  expect(back.get("iss")).toBe(issuer);
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
  await transport.finishAuth(back);
  const tokens = provider.tokens()!;
  seen.push(tokens.access_token, tokens.refresh_token ?? "", Buffer.from(tokens.access_token.split(".")[1]!, "base64url").toString());
  const client = new Client({ name: "sign-in-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, provider };
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as Array<{ text?: string }>).map((part) => part.text ?? "").join("\n");
  seen.push(text);
  return { isError: result.isError === true, text, structured: result.structuredContent as Record<string, unknown> | undefined };
}

test("two people sign in with the SDK's OAuth client, each acting as their own account: own tools, own links", async () => {
  const user = await connectAs(sandbox.userKey);
  const admin = await connectAs(sandbox.adminKey);
  try {
    const userTools = (await user.client.listTools()).tools.map((tool) => tool.name);
    const adminTools = (await admin.client.listTools()).tools.map((tool) => tool.name);
    expect(userTools).toContain("shorten_link");
    expect(userTools).not.toContain("list_users");
    expect(adminTools).toContain("list_users");
    const created = await call(user.client, "shorten_link", { url: "https://example.com/only-the-user", custom: "only-the-user" });
    expect(created.isError).toBe(false);
    const id = (created.structured as { id: number }).id;
    expect((await call(user.client, "find_links", { text: "only-the-user" })).text).toContain("only-the-user");
    const adminFinds = await call(admin.client, "find_links", { text: "only-the-user" });
    expect(adminFinds.isError).toBe(false);
    expect(adminFinds.text).not.toContain("only-the-user");
    expect((await call(admin.client, "get_link", { id })).isError).toBe(true);
    // The user is refused the admin tools, whose listing they never got.
    await expect(user.client.callTool({ name: "list_users", arguments: {} })).rejects.toMatchObject({ code: -32602 });
  } finally {
    await user.client.close();
    await admin.client.close();
  }
});

test("the metadata documents and the 401 that names them", async () => {
  const refused = await listTools(mcpUrl, {});
  expect(refused.status).toBe(401);
  expect(refused.challenge).toContain(`resource_metadata="${issuer}/.well-known/oauth-protected-resource/mcp"`);
  const resource = (await (await fetch(`${issuer}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>;
  expect(resource).toMatchObject({ resource: mcpUrl, authorization_servers: [issuer] });
  const server = (await (await fetch(`${issuer}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
  expect(server).toMatchObject({
    issuer,
    code_challenge_methods_supported: ["S256"],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
    revocation_endpoint: `${issuer}/revoke`,
  });
});

test("the key as a header acts as its person; a key the service refuses is refused", async () => {
  const ok = await listTools(mcpUrl, { "X-LinkShort-Api-Key": sandbox.userKey });
  expect(ok.status).toBe(200);
  expect(ok.text).toContain("shorten_link");
  expect(ok.text).not.toContain("list_users");
  const refused = await listTools(mcpUrl, { "X-LinkShort-Api-Key": "not-a-key-the-service-knows-0000" });
  expect(refused.status).toBe(401);
  expect(refused.text).not.toContain("not-a-key-the-service-knows-0000");
});

test("refused: a tampered token, a revoked one (access and refresh), a reused code (which also ends its tokens)", async () => {
  const grant = await registerAndAuthorize(issuer, mcpUrl, sandbox.userKey);
  const tokens = await exchange(issuer, grant);
  expect(tokens.status).toBe(200);
  const access = tokens.body.access_token as string;
  expect((await listTools(mcpUrl, { Authorization: `Bearer ${access}` })).status).toBe(200);
  const tampered = `${access.slice(0, -4)}${access.slice(-4) === "AAAA" ? "BBBB" : "AAAA"}`;
  expect((await listTools(mcpUrl, { Authorization: `Bearer ${tampered}` })).status).toBe(401);
  // The code again: refused, and the tokens of its first use end.
  expect(await exchange(issuer, grant)).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
  expect((await listTools(mcpUrl, { Authorization: `Bearer ${access}` })).status).toBe(401);

  const second = await exchange(issuer, await registerAndAuthorize(issuer, mcpUrl, sandbox.userKey));
  expect((await form(`${issuer}/revoke`, { token: second.body.access_token as string })).status).toBe(200);
  expect((await listTools(mcpUrl, { Authorization: `Bearer ${second.body.access_token as string}` })).status).toBe(401);
  const clientId = JSON.parse(Buffer.from((second.body.access_token as string).split(".")[1]!, "base64url").toString()).client_id as string;
  expect(await form(`${issuer}/token`, { grant_type: "refresh_token", refresh_token: second.body.refresh_token as string, client_id: clientId })).toMatchObject(
    { status: 400, body: { error: "invalid_grant" } },
  );
});

test("refresh tokens rotate; a replayed one is refused and ends the sign-in", async () => {
  const grant = await registerAndAuthorize(issuer, mcpUrl, sandbox.userKey);
  const first = await exchange(issuer, grant);
  const refreshed = await form(`${issuer}/token`, {
    grant_type: "refresh_token",
    refresh_token: first.body.refresh_token as string,
    client_id: grant.clientId,
  });
  expect(refreshed.status).toBe(200);
  expect(refreshed.body.refresh_token).not.toBe(first.body.refresh_token);
  expect((await listTools(mcpUrl, { Authorization: `Bearer ${refreshed.body.access_token as string}` })).status).toBe(200);
  const replay = await form(`${issuer}/token`, { grant_type: "refresh_token", refresh_token: first.body.refresh_token as string, client_id: grant.clientId });
  expect(replay).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
  expect((await listTools(mcpUrl, { Authorization: `Bearer ${refreshed.body.access_token as string}` })).status).toBe(401);
  expect(
    (await form(`${issuer}/token`, { grant_type: "refresh_token", refresh_token: refreshed.body.refresh_token as string, client_id: grant.clientId })).status,
  ).toBe(400);
});

test("refused: a wrong PKCE verifier, a redirect URI the client did not register", async () => {
  const grant = await registerAndAuthorize(issuer, mcpUrl, sandbox.userKey);
  expect(await exchange(issuer, { ...grant, verifier: pkce().verifier })).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
  const query = new URLSearchParams({
    response_type: "code",
    client_id: grant.clientId,
    redirect_uri: "https://attacker.example/callback",
    code_challenge: pkce().challenge,
    code_challenge_method: "S256",
  });
  const answer = await fetch(`${issuer}/authorize?${query}`, { redirect: "manual" });
  expect(answer.status).toBe(400);
  expect(answer.headers.get("location")).toBeNull();
  expect(await answer.text()).toContain("did not register");
});

test("refused at the sign-in page: another origin, a wrong CSRF value, a key the service refuses (never echoed)", async () => {
  const registered = (await (
    await fetch(`${issuer}/register`, {
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
  });
  const page = await openSignInPage(`${issuer}/authorize?${query}`);
  expect(page.status).toBe(200);
  expect(page.html).not.toContain("<script");
  const otherOrigin = await submitSignIn(issuer, page, sandbox.userKey, { origin: "https://attacker.example" });
  expect([otherOrigin.status, otherOrigin.headers.get("location")]).toEqual([403, null]);
  const wrongCookie = await submitSignIn(issuer, page, sandbox.userKey, { cookie: "linkshort_sign_in=forged" });
  expect([wrongCookie.status, wrongCookie.headers.get("location")]).toEqual([403, null]);
  const wrongField = await submitSignIn(issuer, page, sandbox.userKey, { csrf: "forged" });
  expect([wrongField.status, wrongField.headers.get("location")]).toEqual([403, null]);
  const badKey = "wrong-key-0123456789abcdef0123456789";
  const refused = await submitSignIn(issuer, page, badKey);
  const html = await refused.text();
  expect([refused.status, refused.headers.get("location")]).toEqual([401, null]);
  expect(html).toContain("did not accept this API key");
  expect(html).not.toContain(badKey);
  expect(stderr()).not.toContain(badKey);
  // The same page still signs in with the right key.
  expect((await submitSignIn(issuer, page, sandbox.userKey)).status).toBe(303);
});

test("a code is exchanged only with the authorization request's own redirect URI, not another loopback port", async () => {
  const grant = await registerAndAuthorize(issuer, mcpUrl, sandbox.userKey);
  const elsewhere = await form(`${issuer}/token`, {
    grant_type: "authorization_code",
    code: grant.code,
    code_verifier: grant.verifier,
    client_id: grant.clientId,
    redirect_uri: "http://127.0.0.1:10/callback",
  });
  expect(elsewhere).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
});
