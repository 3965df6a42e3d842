/**
 * The sign-in protocol in process, driven by an OAuth client library (oauth4webapi): discovery,
 * dynamic client registration, authorization code with PKCE, token, refresh and revocation, and
 * the error answers, each request handed to the sign-in's functions as values (no socket), each
 * answer read back as the client reads it.
 */
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import type { IncomingHttpHeaders } from "node:http";
import * as oauth from "oauth4webapi";
import type { Answer } from "../src/auth/answer";
import { People } from "../src/auth/people";
import { SignIn } from "../src/auth/sign-in";
import { clientFor } from "../src/config/command-line";

const ISSUER = "https://mcp.test";
const RESOURCE = `${ISSUER}/mcp`;
const REDIRECT_URI = "http://127.0.0.1:9/callback";
const PEER = "203.0.113.7";

let sandbox: Sandbox;
let signIn: SignIn;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  const people = new People({ clientFor: (key) => clientFor(sandbox.baseUrl, key, 5), admin: false, say: () => undefined, letGo: () => undefined });
  signIn = new SignIn({ people, publicUrl: ISSUER, serviceLabel: "the sandbox" }, ISSUER);
});
afterAll(() => sandbox.close());

const NULL_BODY_STATUSES = new Set([204, 303]);
const responseOf = (answer: Answer) =>
  new Response(NULL_BODY_STATUSES.has(answer.status) ? null : answer.body, { status: answer.status, headers: answer.headers });

/** A web Request handed to the sign-in's functions as values, and its answer as a web Response: a fetch without a socket. */
async function inProcessFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const url = new URL(request.url);
  const headers: IncomingHttpHeaders = { host: url.host };
  request.headers.forEach((value, name) => (headers[name] = value));
  const answer = await signIn.answer({ method: request.method, url, headers, body: await request.text(), address: PEER });
  return answer === undefined ? new Response(null, { status: 404 }) : responseOf(answer);
}

const options = { [oauth.customFetch]: inProcessFetch };
const withResource = { ...options, additionalParameters: { resource: RESOURCE } };

async function discover(): Promise<oauth.AuthorizationServer> {
  return oauth.processDiscoveryResponse(new URL(ISSUER), await oauth.discoveryRequest(new URL(ISSUER), { ...options, algorithm: "oauth2" }));
}

async function register(as: oauth.AuthorizationServer, metadata: Partial<oauth.OmitSymbolProperties<oauth.Client>> = {}): Promise<oauth.Client> {
  const answer = await oauth.dynamicClientRegistrationRequest(
    as,
    { redirect_uris: [REDIRECT_URI], client_name: "oauth4webapi", token_endpoint_auth_method: "none", ...metadata },
    options,
  );
  return oauth.processDynamicClientRegistrationResponse(answer);
}

/** The authorization request as a browser opens it, the sign-in page submitted with the key from the page's own origin: the redirect back. */
async function authorize(as: oauth.AuthorizationServer, client: oauth.Client, params: Record<string, string>, apiKey = sandbox.userKey): Promise<URL> {
  const url = new URL(as.authorization_endpoint!);
  for (const [name, value] of Object.entries({ client_id: client.client_id, redirect_uri: REDIRECT_URI, response_type: "code", resource: RESOURCE, ...params }))
    url.searchParams.set(name, value);
  const page = await inProcessFetch(url);
  const html = await page.text();
  if (page.status !== 200) return new URL(page.headers.get("location") ?? `${ISSUER}/problem?status=${page.status}`);
  const field = (name: string) =>
    (new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? "").replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
  const cookie = (page.headers.get("set-cookie") ?? "").split(";")[0]!;
  const posted = await inProcessFetch(`${ISSUER}/authorize`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ISSUER, Cookie: cookie },
    body: new URLSearchParams({ request: field("request"), csrf_token: field("csrf_token"), api_key: apiKey }).toString(),
  });
  expect(posted.status).toBe(303);
  return new URL(posted.headers.get("location")!);
}

/** A signed-in client: registered, authorized with PKCE, its code exchanged. */
async function signedIn(as: oauth.AuthorizationServer) {
  const client = await register(as);
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const back = await authorize(as, client, { code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256", state });
  const params = oauth.validateAuthResponse(as, client, back, state);
  const tokens = await oauth.processAuthorizationCodeResponse(
    as,
    client,
    await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT_URI, verifier, withResource),
  );
  return { client, params, verifier, tokens };
}

/** The OAuth error a processing step throws (oauth4webapi's ResponseBodyError), as `{ status, error }`. */
async function refusal(step: Promise<unknown>): Promise<{ status: number; error: string }> {
  const thrown = await step.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(thrown instanceof oauth.ResponseBodyError)) throw new Error(`expected an OAuth error answer, got ${String(thrown)}`);
  return { status: thrown.status, error: thrown.error };
}

const personBy = (accessToken: string) => signIn.personOf({ host: "mcp.test", authorization: `Bearer ${accessToken}` }, PEER);

test("discovery: the authorization server's metadata (PKCE S256, public clients, iss in the answer) and the MCP endpoint's, naming it", async () => {
  const as = await discover();
  expect(as).toMatchObject({
    issuer: ISSUER,
    authorization_endpoint: `${ISSUER}/authorize`,
    token_endpoint: `${ISSUER}/token`,
    registration_endpoint: `${ISSUER}/register`,
    revocation_endpoint: `${ISSUER}/revoke`,
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none"],
    authorization_response_iss_parameter_supported: true,
  });
  const resource = await oauth.processResourceDiscoveryResponse(new URL(RESOURCE), await oauth.resourceDiscoveryRequest(new URL(RESOURCE), options));
  expect(resource.authorization_servers).toEqual([ISSUER]);
});

test("registration, authorization code with PKCE and the token: the access token acts as the person whose key signed in", async () => {
  const as = await discover();
  const { client, tokens } = await signedIn(as);
  expect(client.token_endpoint_auth_method).toBe("none");
  expect(tokens).toMatchObject({ token_type: "bearer", scope: "linkshort" });
  expect(tokens.expires_in).toBeGreaterThan(0);
  expect(tokens.refresh_token).toEqual(expect.any(String));
  const person = await personBy(tokens.access_token);
  expect("client" in person).toBe(true);
});

test("refresh: a rotated refresh token works once; used again, it ends the sign-in for both holders", async () => {
  const as = await discover();
  const { client, tokens } = await signedIn(as);
  const refreshed = await oauth.processRefreshTokenResponse(
    as,
    client,
    await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, withResource),
  );
  expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
  expect("client" in (await personBy(refreshed.access_token))).toBe(true);
  const replayed = oauth
    .refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, options)
    .then((answer) => oauth.processRefreshTokenResponse(as, client, answer));
  expect(await refusal(replayed)).toEqual({ status: 400, error: "invalid_grant" });
  const afterReplay = oauth
    .refreshTokenGrantRequest(as, client, oauth.None(), refreshed.refresh_token!, options)
    .then((answer) => oauth.processRefreshTokenResponse(as, client, answer));
  expect(await refusal(afterReplay)).toEqual({ status: 400, error: "invalid_grant" });
  expect(await personBy(refreshed.access_token)).toMatchObject({ status: 401 });
});

test("the token endpoint's errors: a code used twice, a wrong verifier, another resource, an unsupported grant", async () => {
  const as = await discover();
  const { client, params, verifier } = await signedIn(as);
  const again = oauth
    .authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT_URI, verifier, options)
    .then((answer) => oauth.processAuthorizationCodeResponse(as, client, answer));
  expect(await refusal(again)).toEqual({ status: 400, error: "invalid_grant" });

  const other = await register(as);
  const state = oauth.generateRandomState();
  const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());
  const back = oauth.validateAuthResponse(as, other, await authorize(as, other, { code_challenge: challenge, code_challenge_method: "S256", state }), state);
  const wrongVerifier = oauth
    .authorizationCodeGrantRequest(as, other, oauth.None(), back, REDIRECT_URI, oauth.generateRandomCodeVerifier(), options)
    .then((answer) => oauth.processAuthorizationCodeResponse(as, other, answer));
  expect(await refusal(wrongVerifier)).toEqual({ status: 400, error: "invalid_grant" });

  const elsewhere = { ...options, additionalParameters: { resource: "https://elsewhere.test/mcp" } };
  const otherResource = oauth
    .authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT_URI, verifier, elsewhere)
    .then((answer) => oauth.processAuthorizationCodeResponse(as, client, answer));
  expect(await refusal(otherResource)).toEqual({ status: 400, error: "invalid_target" });

  const unsupported = oauth
    .genericTokenEndpointRequest(as, client, oauth.None(), "client_credentials", {}, options)
    .then((answer) => oauth.processGenericTokenEndpointResponse(as, client, answer));
  expect(await refusal(unsupported)).toEqual({ status: 400, error: "unsupported_grant_type" });
});

test("the authorization endpoint's errors go back to the client with iss: no PKCE, another response type, another resource", async () => {
  const as = await discover();
  const client = await register(as);
  const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());
  const cases: Array<[Record<string, string>, string]> = [
    [{ state: "s1" }, "invalid_request"],
    [{ state: "s2", code_challenge: challenge, code_challenge_method: "plain" }, "invalid_request"],
    [{ state: "s3", code_challenge: challenge, code_challenge_method: "S256", response_type: "token" }, "unsupported_response_type"],
    [{ state: "s4", code_challenge: challenge, code_challenge_method: "S256", resource: "https://elsewhere.test/mcp" }, "invalid_target"],
  ];
  for (const [params, error] of cases) {
    const back = await authorize(as, client, params);
    expect(back.origin + back.pathname).toBe(REDIRECT_URI);
    let thrown: unknown;
    try {
      oauth.validateAuthResponse(as, client, back, params.state!);
    } catch (caught) {
      thrown = caught;
    }
    expect(thrown).toBeInstanceOf(oauth.AuthorizationResponseError);
    expect((thrown as oauth.AuthorizationResponseError).error).toBe(error);
  }
});

test("registration's errors: a redirect URI elsewhere over http, a client secret asked for, a body that is not JSON", async () => {
  const as = await discover();
  expect(await refusal(register(as, { redirect_uris: ["http://attacker.example/callback"] }))).toEqual({ status: 400, error: "invalid_redirect_uri" });
  expect(await refusal(register(as, { token_endpoint_auth_method: "client_secret_basic" }))).toEqual({ status: 400, error: "invalid_client_metadata" });
  const notJson = await inProcessFetch(`${ISSUER}/register`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{" });
  expect(notJson.status).toBe(400);
  expect(await notJson.json()).toMatchObject({ error: "invalid_client_metadata" });
});

test("revocation ends the sign-in: its access token is refused with a challenge naming the resource metadata; a GET of the token endpoint is 405", async () => {
  const as = await discover();
  const { client, tokens } = await signedIn(as);
  await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), tokens.refresh_token!, options));
  const refused = await personBy(tokens.access_token);
  expect(refused).toMatchObject({ status: 401 });
  // The MCP endpoint's gate, as a client library meets it: the challenge it parses from the 401.
  const gate = async (input: string | URL | Request, init?: RequestInit) => {
    const headers: IncomingHttpHeaders = { host: "mcp.test" };
    new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
    const answer = await signIn.personOf(headers, PEER);
    return "client" in answer ? new Response("{}", { status: 200 }) : responseOf(answer);
  };
  const thrown = await oauth
    .protectedResourceRequest(tokens.access_token, "POST", new URL(RESOURCE), new Headers(), null, { [oauth.customFetch]: gate })
    .catch((error: unknown) => error);
  expect(thrown).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
  expect((thrown as oauth.WWWAuthenticateChallengeError).cause[0]).toMatchObject({
    scheme: "bearer",
    parameters: { error: "invalid_token", resource_metadata: `${ISSUER}/.well-known/oauth-protected-resource/mcp` },
  });
  expect((await inProcessFetch(RESOURCE)).status).toBe(404); // not the sign-in's: the adapter's 404 for "no answer"
  const get = await inProcessFetch(`${ISSUER}/token`);
  expect(get.status).toBe(405);
  expect(get.headers.get("allow")).toBe("POST");
  expect(await get.json()).toMatchObject({ error: "invalid_request" });
});
