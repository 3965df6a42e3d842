/** Signing in to `linkshort-mcp --http 0 --sign-in` as a person would: the sign-in page submitted by HTTP, and an OAuth client of the SDK's. */
import type { OAuthClientProvider } from "@modelcontextprotocol/client";
import { createHash, randomBytes } from "node:crypto";

export const REDIRECT_URI = "http://127.0.0.1:9/callback";

/** The MCP SDK v2 client's provider, kept in memory; the authorization URL it is sent to is kept for the test to open. */
export class MemoryOAuthProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  #client: Awaited<ReturnType<OAuthClientProvider["clientInformation"]>>;
  #tokens: Awaited<ReturnType<OAuthClientProvider["tokens"]>>;
  #verifier = "";
  #discovery: unknown;
  get redirectUrl() {
    return REDIRECT_URI;
  }
  get clientMetadata() {
    return {
      client_name: "sign-in test",
      redirect_uris: [REDIRECT_URI],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.#client;
  }
  saveClientInformation(client: NonNullable<Awaited<ReturnType<OAuthClientProvider["clientInformation"]>>>) {
    this.#client = client;
  }
  tokens() {
    return this.#tokens;
  }
  saveTokens(tokens: NonNullable<Awaited<ReturnType<OAuthClientProvider["tokens"]>>>) {
    this.#tokens = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.#verifier = verifier;
  }
  codeVerifier() {
    return this.#verifier;
  }
  saveDiscoveryState(state: unknown) {
    this.#discovery = state;
  }
  discoveryState() {
    return this.#discovery as ReturnType<NonNullable<OAuthClientProvider["discoveryState"]>>;
  }
}

const unescapeHtml = (text: string) => text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

export interface SignInPage {
  status: number;
  html: string;
  request: string;
  csrf: string;
  /** The sign-in cookie, as `name=value`. */
  cookie: string;
}

export async function openSignInPage(authorizationUrl: URL | string): Promise<SignInPage> {
  const answer = await fetch(authorizationUrl, { redirect: "manual" });
  const html = await answer.text();
  const field = (name: string) => unescapeHtml(new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? "");
  return { status: answer.status, html, request: field("request"), csrf: field("csrf_token"), cookie: (answer.headers.get("set-cookie") ?? "").split(";")[0]! };
}

/** Posts the sign-in form as the browser would from the page (Origin is the server's own unless said otherwise). */
export async function submitSignIn(
  issuer: string,
  page: SignInPage,
  apiKey: string,
  override: { origin?: string; cookie?: string; csrf?: string } = {},
): Promise<Response> {
  return fetch(`${issuer}/authorize`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: override.origin ?? issuer, Cookie: override.cookie ?? page.cookie },
    body: new URLSearchParams({ request: page.request, csrf_token: override.csrf ?? page.csrf, api_key: apiKey }).toString(),
  });
}

/** Signs in through the page and answers the redirect's query (code, state, iss). */
export async function signIn(issuer: string, authorizationUrl: URL | string, apiKey: string): Promise<URLSearchParams> {
  const answer = await submitSignIn(issuer, await openSignInPage(authorizationUrl), apiKey);
  if (answer.status !== 303) throw new Error(`sign-in answered ${answer.status}: ${await answer.text()}`);
  return new URL(answer.headers.get("location")!).searchParams;
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export async function form(url: string, fields: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const answer = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
  const text = await answer.text();
  return { status: answer.status, body: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

/** A client registered by hand, and a sign-in through the page to a code, without the SDK. */
export async function registerAndAuthorize(issuer: string, resource: string, apiKey: string): Promise<{ clientId: string; code: string; verifier: string }> {
  const registered = (await (
    await fetch(`${issuer}/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ redirect_uris: [REDIRECT_URI], client_name: "raw" }),
    })
  ).json()) as { client_id: string };
  const { verifier, challenge } = pkce();
  const query = new URLSearchParams({
    response_type: "code",
    client_id: registered.client_id,
    redirect_uri: REDIRECT_URI,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "s1",
    resource,
  });
  const back = await signIn(issuer, `${issuer}/authorize?${query}`, apiKey);
  return { clientId: registered.client_id, code: back.get("code")!, verifier };
}

export async function exchange(issuer: string, grant: { clientId: string; code: string; verifier: string }) {
  return form(`${issuer}/token`, {
    grant_type: "authorization_code",
    code: grant.code,
    code_verifier: grant.verifier,
    client_id: grant.clientId,
    redirect_uri: REDIRECT_URI,
  });
}

/** One tools/list over HTTP with these headers: its status and the WWW-Authenticate it got. */
export async function listTools(mcpUrl: string, headers: Record<string, string>): Promise<{ status: number; challenge: string | null; text: string }> {
  const answer = await fetch(mcpUrl, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "MCP-Protocol-Version": "2025-06-18", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });
  return { status: answer.status, challenge: answer.headers.get("www-authenticate"), text: await answer.text() };
}
