/**
 * The clients people sign in with, each playing its own flow against the built server (default
 * loopback issuer) as its documents and issue trackers describe it: discovery from the 401, a
 * client ID metadata document (served here by a local server) or registration, authorize with PKCE
 * through the sign-in page, the token, then an MCP call with it. Claude's flow runs against a
 * server in this process instead, whose client documents' clock the test moves past the hour.
 */
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { People } from "../src/auth/people";
import { clientFor } from "../src/config/command-line";
import { startHttpServer } from "../src/server/http";
import { createLinkShortMcpServer } from "../src/server/server";
import { startHttpServerProcess, type HttpServerProcess } from "./helpers";
import { form, listTools, MemoryOAuthProvider, openSignInPage, pkce, signIn, submitSignIn } from "./sign-in-helpers";

let sandbox: Sandbox;
let server: HttpServerProcess;
let issuer: string;
let documents: Server;
let documentsBase: string;
const documentStatus = new Map<string, number>();
const documentBodies = new Map<string, unknown>();
const documentFetches: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: { limit: 1000, windowMs: 60_000 } });
  server = await startHttpServerProcess({ baseUrl: sandbox.baseUrl, apiKey: "" }, ["--sign-in", "--allow-local-client-metadata"]);
  issuer = new URL(server.url).origin;
  documents = createServer((request, response) => {
    documentFetches.push(request.url!);
    const body = documentBodies.get(request.url!);
    response.writeHead(body === undefined ? 404 : (documentStatus.get(request.url!) ?? 200), { "Content-Type": "application/json" });
    response.end(JSON.stringify(body ?? {}));
  });
  await new Promise<void>((resolve) => documents.listen(0, "127.0.0.1", resolve));
  documentsBase = `http://127.0.0.1:${(documents.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.child.kill();
  documents.close();
  await sandbox.close();
  expect(server.stderr()).not.toContain(sandbox.userKey);
});

/** A client's metadata document, served at this path: its client_id. */
function publishDocument(path: string, fields: Record<string, unknown>): string {
  const clientId = `${documentsBase}${path}`;
  documentBodies.set(path, { client_id: clientId, token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], ...fields });
  return clientId;
}

interface Discovered {
  resource: string;
  authorizationServer: Record<string, unknown>;
}

/** What every client does first: the 401 names the resource metadata, which names the authorization server. */
async function discover(mcpUrl: string): Promise<Discovered> {
  const challenge = (await listTools(mcpUrl, {})).challenge ?? "";
  const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)![1]!;
  const resourceMetadata = (await (await fetch(metadataUrl)).json()) as { resource: string; authorization_servers: string[] };
  const authorizationServer = (await (await fetch(`${resourceMetadata.authorization_servers[0]}/.well-known/oauth-authorization-server`)).json()) as Record<
    string,
    unknown
  >;
  return { resource: resourceMetadata.resource, authorizationServer };
}

async function registerClient(fields: Record<string, unknown>): Promise<string> {
  const answer = await fetch(`${issuer}/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token_endpoint_auth_method: "none", ...fields }),
  });
  expect(answer.status).toBe(201);
  return ((await answer.json()) as { client_id: string }).client_id;
}

interface Flow {
  clientId: string;
  redirectUri: string;
  /** The resource as this client writes it, at authorize and at the token endpoint; none when undefined. */
  resource?: string;
}

/** Authorize with PKCE through the sign-in page, then the token: the authorization response and the token answer. */
async function signInAs(flow: Flow, at = issuer): Promise<{ back: URL; tokens: { status: number; body: Record<string, unknown> } }> {
  const { verifier, challenge } = pkce();
  const resource: Record<string, string> = flow.resource === undefined ? {} : { resource: flow.resource };
  const query = new URLSearchParams({
    response_type: "code",
    client_id: flow.clientId,
    redirect_uri: flow.redirectUri,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "st",
    ...resource,
  });
  const answer = await submitSignIn(at, await openSignInPage(`${at}/authorize?${query}`), sandbox.userKey);
  expect(answer.status).toBe(303);
  const back = new URL(answer.headers.get("location")!);
  const code = back.searchParams.get("code") ?? "";
  const tokens = await form(`${at}/token`, {
    grant_type: "authorization_code",
    code,
    code_verifier: verifier,
    client_id: flow.clientId,
    redirect_uri: flow.redirectUri,
    ...resource,
  });
  return { back, tokens };
}

async function expectMcpCallWorks(tokens: { status: number; body: Record<string, unknown> }, mcpUrl = server.url): Promise<void> {
  expect(tokens.status).toBe(200);
  const tools = await listTools(mcpUrl, { Authorization: `Bearer ${tokens.body.access_token as string}` });
  expect(tools.status).toBe(200);
  expect(tools.text).toContain("shorten_link");
}

test("Claude (claude.ai, Desktop): a metadata document, chosen because the server advertises it and `none`; past the hour, a 403 from its host is served from the last good copy", async () => {
  let clock = Date.now();
  const people = new People({ clientFor: (key) => clientFor(sandbox.baseUrl, key, 5), admin: false, say: () => undefined, letGo: () => undefined });
  const claudeServer = await startHttpServer((person) => createLinkShortMcpServer({ client: person!.client, admin: false }), {
    port: 0,
    host: "127.0.0.1",
    signIn: { people, serviceLabel: "the sandbox", allowInsecureClientMetadata: true, clientDocumentsClock: () => clock },
  });
  try {
    const at = new URL(claudeServer.url).origin;
    const found = await discover(claudeServer.url);
    expect(found.authorizationServer.client_id_metadata_document_supported).toBe(true);
    expect(found.authorizationServer.token_endpoint_auth_methods_supported).toContain("none");
    const path = "/oauth/mcp-oauth-client-metadata";
    const clientId = publishDocument(path, { client_name: "Claude", redirect_uris: ["https://claude.ai/api/mcp/auth_callback"] });
    const flow = { clientId, redirectUri: "https://claude.ai/api/mcp/auth_callback", resource: found.resource };
    const first = await signInAs(flow, at);
    expect(`${first.back.origin}${first.back.pathname}`).toBe("https://claude.ai/api/mcp/auth_callback");
    await expectMcpCallWorks(first.tokens, claudeServer.url);
    documentStatus.set(path, 403);
    clock += 61 * 60_000;
    await expectMcpCallWorks((await signInAs(flow, at)).tokens, claudeServer.url);
    // The copy was past its hour: the document was asked for again, and its host refused it.
    expect(documentFetches.filter((fetched) => fetched === path)).toHaveLength(2);
  } finally {
    await claudeServer.close();
  }
});

test("Claude Code: registers a localhost callback, and sends the resource as the origin with a trailing slash", async () => {
  const found = await discover(server.url);
  const redirectUri = "http://localhost:45454/callback";
  const clientId = await registerClient({
    client_name: "Claude Code (linkshort)",
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
  });
  const { back, tokens } = await signInAs({ clientId, redirectUri, resource: `${new URL(found.resource).origin}/` });
  expect(back.searchParams.get("iss")).toBe(issuer);
  await expectMcpCallWorks(tokens);
});

test("ChatGPT: a metadata document or a registration, PKCE, the resource echoed at authorize and token", async () => {
  const found = await discover(server.url);
  const redirectUri = "https://chatgpt.com/connector/oauth/c0nnect0r1d";
  const documented = publishDocument("/chatgpt/client.json", { client_name: "ChatGPT", redirect_uris: [redirectUri] });
  await expectMcpCallWorks((await signInAs({ clientId: documented, redirectUri, resource: found.resource })).tokens);
  const registered = await registerClient({ client_name: "ChatGPT", redirect_uris: [redirectUri] });
  await expectMcpCallWorks((await signInAs({ clientId: registered, redirectUri, resource: found.resource })).tokens);
});

test("Cursor: registration only, three redirect URIs with a cursor:// one, signed in through the cursor:// one", async () => {
  const found = await discover(server.url);
  const redirectUris = ["cursor://anysphere.cursor-mcp/oauth/callback", "https://www.cursor.com/agents/mcp/oauth/callback", "http://localhost:8787/callback"];
  const clientId = await registerClient({ client_name: "Cursor", redirect_uris: redirectUris });
  const { back, tokens } = await signInAs({ clientId, redirectUri: redirectUris[0]!, resource: found.resource });
  expect(back.protocol).toBe("cursor:");
  await expectMcpCallWorks(tokens);
});

test("VS Code: a metadata document listing its loopback redirect, signed in on another port (its default one busy)", async () => {
  const found = await discover(server.url);
  const clientId = publishDocument("/oauth/client-metadata.json", {
    client_name: "Visual Studio Code",
    redirect_uris: ["http://127.0.0.1:33418/", "https://vscode.dev/redirect"],
  });
  const { back, tokens } = await signInAs({ clientId, redirectUri: "http://127.0.0.1:50123/", resource: found.resource });
  expect(back.port).toBe("50123");
  await expectMcpCallWorks(tokens);
});

test("Codex: refuses an authorization response without iss, so every one carries it, the refusals too", async () => {
  const found = await discover(server.url);
  expect(found.authorizationServer.authorization_response_iss_parameter_supported).toBe(true);
  const redirectUri = "http://127.0.0.1:41234/callback/codex";
  const clientId = await registerClient({ client_name: "Codex", redirect_uris: [redirectUri], application_type: "native" });
  const { back, tokens } = await signInAs({ clientId, redirectUri, resource: found.resource });
  expect(back.searchParams.get("iss")).toBe(found.authorizationServer.issuer);
  await expectMcpCallWorks(tokens);
  const refused = await fetch(
    `${issuer}/authorize?${new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: redirectUri, code_challenge: pkce().challenge, code_challenge_method: "S256", resource: "https://elsewhere.example/mcp" })}`,
    { redirect: "manual" },
  );
  const error = new URL(refused.headers.get("location")!).searchParams;
  expect([error.get("error"), error.get("iss")]).toEqual(["invalid_target", found.authorizationServer.issuer]);
});

test("n8n's MCP Client node: registered one redirect URI, signs in with another: refused, and the page says which URI was registered", async () => {
  const registeredUri = "https://n8n.example.com/rest/oauth2-credential/callback";
  const clientId = await registerClient({ client_name: "n8n", redirect_uris: [registeredUri] });
  const query = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: "http://localhost:5678/rest/oauth2-credential/callback",
    code_challenge: pkce().challenge,
    code_challenge_method: "S256",
  });
  const answer = await fetch(`${issuer}/authorize?${query}`, { redirect: "manual" });
  expect([answer.status, answer.headers.get("location")]).toEqual([400, null]);
  const page = await answer.text();
  expect(page).toContain("http://localhost:5678/rest/oauth2-credential/callback");
  expect(page).toContain(`It registered only ${registeredUri}`);
});

test("the MCP SDK's own OAuth client configured with http://localhost:PORT/mcp against the default 127.0.0.1 issuer", async () => {
  const asLocalhost = `http://localhost:${new URL(server.url).port}/mcp`;
  const provider = new MemoryOAuthProvider();
  await expect(
    new Client({ name: "localhost", version: "1.0.0" }).connect(new StreamableHTTPClientTransport(new URL(asLocalhost), { authProvider: provider })),
  ).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.authorizationUrl!.searchParams.get("resource")).toBe(asLocalhost);
  const transport = new StreamableHTTPClientTransport(new URL(asLocalhost), { authProvider: provider });
  await transport.finishAuth(await signIn(issuer, provider.authorizationUrl!, sandbox.userKey));
  const client = new Client({ name: "localhost", version: "1.0.0" });
  await client.connect(transport);
  try {
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("shorten_link");
  } finally {
    await client.close();
  }
});

test("the resource names this server as its MCP URL, its origin, either with a trailing slash, by either loopback name; anything else is refused", async () => {
  const redirectUri = "http://127.0.0.1:9/callback";
  const clientId = await registerClient({ redirect_uris: [redirectUri] });
  const port = new URL(server.url).port;
  const status = async (resource: string) => {
    const query = new URLSearchParams({
      response_type: "code",
      client_id: clientId,
      redirect_uri: redirectUri,
      code_challenge: pkce().challenge,
      code_challenge_method: "S256",
      resource,
    });
    const answer = await fetch(`${issuer}/authorize?${query}`, { redirect: "manual" });
    return answer.status === 303 ? new URL(answer.headers.get("location")!).searchParams.get("error") : answer.status;
  };
  for (const host of ["127.0.0.1", "localhost"]) {
    for (const path of ["/mcp", "/mcp/", "", "/"]) expect([path, await status(`http://${host}:${port}${path}`)]).toEqual([path, 200]);
  }
  for (const other of [
    `http://127.0.0.1:${port}/mcp?x=1`,
    `http://127.0.0.1:${port}/other`,
    `http://127.0.0.1:1/mcp`,
    `https://127.0.0.1:${port}/mcp`,
    "not a url",
  ]) {
    expect([other, await status(other)]).toEqual([other, "invalid_target"]);
  }
  // The token's audience stays the one canonical URL whatever form was asked for.
  const { tokens } = await signInAs({ clientId, redirectUri, resource: `http://localhost:${port}/` });
  const claims = JSON.parse(Buffer.from((tokens.body.access_token as string).split(".")[1]!, "base64url").toString()) as { aud: string };
  expect(claims.aud).toBe(server.url);
});
