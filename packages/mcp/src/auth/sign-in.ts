/**
 * Everyone signs in as themselves: the server is its own OAuth 2.1 authorization server (RFC 8414
 * metadata, dynamic registration, authorization, token and revocation endpoints) and the resource
 * server of its MCP endpoint (RFC 9728 metadata; `401` naming it). A request to /mcp acts as the
 * person its access token was issued to, or whose key it carries in the key header.
 */
import {
  bearerAuthChallengeResponse,
  getOAuthProtectedResourceMetadataUrl,
  OAuthError as SdkOAuthError,
  OAuthErrorCode,
  oauthMetadataResponse,
  verifyBearerToken,
  type AuthInfo,
  type OAuthMetadata,
} from "@modelcontextprotocol/server";
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { completeSignIn, SCOPE, showSignIn, type AuthorizeContext } from "./authorize";
import { ClientRegistry, OAuthError } from "./clients";
import { retryAfterHeader } from "./failure-throttle";
import { readBody, readForm, sendJson, sendOAuthError } from "./http-io";
import type { People, Person } from "./people";
import { resourceNames } from "./resource";
import { MemoryAuthStore, StoreUnavailableError, type AuthStore } from "./store";
import { revocationEndpoint, tokenEndpoint } from "./token-endpoint";
import { nowSeconds, TokenService } from "./tokens";

const say = (text: string) => process.stderr.write(`linkshort-mcp: ${text}\n`);

/** The header that carries a person's own API key (never `Authorization`, which is OAuth's). */
export const API_KEY_HEADER = "x-linkshort-api-key";

export interface SignInSettings {
  people: People;
  /** The server's public address (an origin: scheme, host, port), the issuer; its /mcp is the resource. Default: the address it listens at. */
  publicUrl?: string;
  /** Signs the tokens and wraps the keys: 32 bytes or more. Default: random, so a restart signs everyone out. */
  secret?: Uint8Array;
  store?: AuthStore;
  /** For tests only: client metadata documents over http and from this machine. */
  allowInsecureClientMetadata?: boolean;
  /** The service the keys are for, as the sign-in page names it. */
  serviceLabel: string;
}

const CORS_PREFLIGHT = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type, Authorization, MCP-Protocol-Version",
  "Access-Control-Max-Age": "600",
};

function webRequest(request: IncomingMessage, url: URL): Request {
  const headers = new Headers();
  for (const name of ["authorization", "origin", "accept"]) {
    const value = request.headers[name];
    if (typeof value === "string") headers.set(name, value);
  }
  return new Request(url, { method: request.method === "HEAD" ? "HEAD" : request.method === "OPTIONS" ? "OPTIONS" : "GET", headers });
}

const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];

/** A default issuer on a loopback name, by every loopback name (a browser may open http://localhost:PORT for http://127.0.0.1:PORT); any other, itself. */
function loopbackAliases(issuer: string): string[] {
  const url = new URL(issuer);
  if (!LOOPBACK_NAMES.includes(url.hostname)) return [issuer];
  return LOOPBACK_NAMES.map((name) => `${url.protocol}//${name}${url.port === "" ? "" : `:${url.port}`}`);
}

/** The address registrations are counted by: the peer's, an IPv6 one by its /64 (one machine's usual share). */
function registrationAddress(request: IncomingMessage): string {
  const address = (request.socket.remoteAddress ?? "").split("%")[0]!.toLowerCase();
  if (!address.includes(":") || address.startsWith("::ffff:")) return address.replace(/^::ffff:/, "");
  const [head, tail] = address.split("::").map((part) => (part === "" ? [] : part.split(":")));
  const groups = tail === undefined ? head! : [...head!, ...Array<string>(Math.max(0, 8 - head!.length - tail.length)).fill("0"), ...tail];
  return `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}

export async function writeWebResponse(response: ServerResponse, answer: Response): Promise<void> {
  response.writeHead(answer.status, Object.fromEntries(answer.headers));
  response.end(Buffer.from(await answer.arrayBuffer()));
}

export class SignIn {
  readonly issuer: string;
  readonly resource: string;
  readonly resourceMetadataUrl: string;
  readonly #tokens: TokenService;
  readonly #store: AuthStore;
  readonly #context: AuthorizeContext;
  readonly #metadata: OAuthMetadata;
  /**
   * The SDK's bearer check, its settings made once for each origin the server answers as (the
   * issuer's, and with the default loopback issuer each loopback name's, so that the 401 names the
   * metadata at the address the client uses): the token's resource must be this server's /mcp.
   */
  readonly #bearer: ReadonlyMap<string, Parameters<typeof verifyBearerToken>[1]>;
  readonly #resourceUrl: URL;

  constructor(
    private readonly settings: SignInSettings,
    publicUrl: string,
  ) {
    this.issuer = new URL(publicUrl).origin;
    this.resource = `${this.issuer}/mcp`;
    this.resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(new URL(this.resource));
    this.#resourceUrl = new URL(this.resource);
    const ownOrigins = settings.publicUrl === undefined ? loopbackAliases(this.issuer) : [this.issuer];
    const verifier = { verifyAccessToken: (token: string) => this.#verify(token) };
    this.#bearer = new Map(ownOrigins.map((origin) => [origin, { verifier, expectedResource: this.#resourceUrl, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(new URL(`${origin}/mcp`)) }]));
    this.#tokens = new TokenService({ issuer: this.issuer, resource: this.resource, secret: settings.secret ?? randomBytes(32) });
    this.#store = settings.store ?? new MemoryAuthStore();
    const clients = new ClientRegistry(this.#store, { allowInsecureMetadataFetch: settings.allowInsecureClientMetadata === true });
    this.#context = {
      tokens: this.#tokens,
      store: this.#store,
      clients,
      checkKey: (key, asker) => settings.people.checkKey(key, asker),
      serviceLabel: settings.serviceLabel,
      ownOrigins,
      publicUrlSet: settings.publicUrl !== undefined,
      resourceNames: resourceNames(ownOrigins),
    };
    this.#metadata = {
      issuer: this.issuer,
      authorization_endpoint: `${this.issuer}/authorize`,
      token_endpoint: `${this.issuer}/token`,
      registration_endpoint: `${this.issuer}/register`,
      revocation_endpoint: `${this.issuer}/revoke`,
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none"],
      revocation_endpoint_auth_methods_supported: ["none"],
      scopes_supported: [SCOPE],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
    };
  }

  /** Serves the sign-in's own paths; false for any other path. */
  async route(request: IncomingMessage, response: ServerResponse, url: URL): Promise<boolean> {
    const path = url.pathname;
    if (path.startsWith("/.well-known/")) {
      const insecure = this.issuer.startsWith("http:");
      const answer = oauthMetadataResponse(webRequest(request, url), {
        oauthMetadata: this.#metadata,
        resourceServerUrl: new URL(`${this.#originOf(request)}/mcp`),
        scopesSupported: [SCOPE],
        resourceName: "LinkShort",
        dangerouslyAllowInsecureIssuerUrl: insecure,
      });
      if (answer === undefined) return false;
      await writeWebResponse(response, answer);
      return true;
    }
    const endpoint = ["/authorize", "/token", "/register", "/revoke"].includes(path) ? path : undefined;
    if (endpoint === undefined) return false;
    try {
      if (request.method === "OPTIONS" && endpoint !== "/authorize") {
        response.writeHead(204, CORS_PREFLIGHT);
        response.end();
      } else if (endpoint === "/authorize" && request.method === "GET") await showSignIn(this.#context, url, response);
      else if (request.method !== "POST") {
        response.setHeader("Allow", endpoint === "/authorize" ? "GET, POST" : "POST");
        sendOAuthError(response, new OAuthError("invalid_request", `use ${endpoint === "/authorize" ? "GET or POST" : "POST"}`, 405));
      } else if (endpoint === "/authorize") await completeSignIn(this.#context, request, response);
      else if (endpoint === "/token") await tokenEndpoint(this.#context, await readForm(request), response);
      else if (endpoint === "/revoke") await revocationEndpoint(this.#context, await readForm(request), response);
      else await this.#register(request, response);
    } catch (error) {
      if (error instanceof StoreUnavailableError) {
        // Refused, never served from this process's memory, which other replicas do not share.
        say(error.message);
        sendOAuthError(response, new OAuthError("temporarily_unavailable", "the sign-in store cannot be reached; try again in a moment", 503));
      } else if (error instanceof OAuthError) sendOAuthError(response, error);
      else throw error;
    }
    return true;
  }

  /** The origin the request was addressed to when it is one the server answers as (a loopback alias of the default issuer), else the issuer. */
  #originOf(request: IncomingMessage): string {
    const origin = `${this.issuer.slice(0, this.issuer.indexOf("//"))}//${request.headers.host ?? ""}`;
    return this.#bearer.has(origin) ? origin : this.issuer;
  }

  async #register(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let metadata: unknown;
    try {
      metadata = JSON.parse(await readBody(request));
    } catch (error) {
      if (error instanceof OAuthError) throw error;
      throw new OAuthError("invalid_client_metadata", "the body must be JSON");
    }
    sendJson(response, 201, await this.#context.clients.register(metadata, registrationAddress(request)));
  }

  /**
   * The person a request to /mcp acts as: by the key header, else by its access token. Otherwise
   * the answer to send: 401 with `WWW-Authenticate` naming the resource metadata.
   */
  async personOf(request: IncomingMessage): Promise<Person | Response> {
    const key = request.headers[API_KEY_HEADER];
    if (typeof key === "string") {
      const found = await this.settings.people.personForHeaderKey(key.trim(), request.socket.remoteAddress ?? "");
      if ("client" in found) return found;
      const status = found.status === 502 ? 503 : found.status === 429 ? 429 : 401;
      return Response.json({ jsonrpc: "2.0", error: { code: -32000, message: `The key in ${API_KEY_HEADER} was not accepted: ${found.problem}` }, id: null }, { status, headers: retryAfterHeader(found.retryAfterSeconds) });
    }
    // As the SDK's requireBearerAuth reads the header, without making a web Request of each call.
    const [authorization] = (request.headers.authorization ?? "").split(",");
    const bearer = this.#bearer.get(this.#originOf(request))!;
    try {
      return (await verifyBearerToken(authorization || undefined, bearer)).extra!.person as Person;
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) return bearerAuthChallengeResponse(error, bearer);
      say(error.message);
      return Response.json({ jsonrpc: "2.0", error: { code: -32000, message: "The sign-in store cannot be reached; try again in a moment." }, id: null }, { status: 503 });
    }
  }

  async #verify(token: string): Promise<AuthInfo> {
    const claims = await this.#tokens.verifyAccessToken(token);
    const grant = claims === undefined ? undefined : await this.#store.grant(claims.grantId, nowSeconds());
    if (claims === undefined || grant === undefined || grant.accountId !== claims.accountId) {
      throw new SdkOAuthError(OAuthErrorCode.InvalidToken, "the access token is invalid, expired or revoked");
    }
    // The grant is looked up on every request (a revocation ends it); the person is kept by their account.
    const person = await this.settings.people.personOfGrant(grant.accountId, () => this.#tokens.unwrapKey(grant.wrappedKey));
    return { token, clientId: claims.clientId, scopes: claims.scope.split(" ").filter(Boolean), expiresAt: claims.expiresAt, resource: this.#resourceUrl, extra: { person } };
  }
}
