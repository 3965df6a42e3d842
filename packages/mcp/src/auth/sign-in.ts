/**
 * Everyone signs in as themselves: the server is its own OAuth 2.1 authorization server (RFC 8414
 * metadata, dynamic registration, authorization, token and revocation endpoints) and the resource
 * server of its MCP endpoint (RFC 9728 metadata; `401` naming it). A request to /mcp acts as the
 * person its access token was issued to, or whose key it carries in the key header.
 */
import {
  bearerAuthChallengeResponse,
  getOAuthProtectedResourceMetadataUrl,
  oauthMetadataResponse,
  verifyBearerToken,
  type AuthInfo,
  type OAuthMetadata,
} from "@modelcontextprotocol/server";
import { randomBytes } from "node:crypto";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { answerOf, formOf, jsonAnswer, jsonRpcErrorAnswer, oauthErrorAnswer, signInRequestOf, writeAnswer, type Answer, type SignInRequest } from "./answer";
import { completeSignIn, SCOPE, showSignIn, type AuthorizeContext } from "./authorize";
import { addressGroup, clientAddress, type TrustedProxies } from "./client-address";
import { ClientRegistry } from "./clients";
import { retryAfterHeader } from "./failure-throttle";
import { OAuthError, OAuthErrorCode } from "./oauth-error";
import type { People, Person } from "./people";
import { LOOPBACK_NAMES } from "./request-checks";
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
  /** For tests only: the clock of the client metadata documents' cache, in epoch milliseconds. */
  clientDocumentsClock?: () => number;
  /** The service the keys are for, as the sign-in page names it. */
  serviceLabel: string;
  /** The proxies in front (--trusted-proxy) whose X-Forwarded-For names the client; none: the socket's peer is the client. */
  trustedProxies?: TrustedProxies;
}

const CORS_PREFLIGHT = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type, Authorization, MCP-Protocol-Version",
  "Access-Control-Max-Age": "600",
};

const ENDPOINTS = ["/authorize", "/token", "/register", "/revoke"];

/** The request as the SDK's metadata answer reads it (a metadata document is only ever read). */
function webRequest(request: SignInRequest): Request {
  const headers = new Headers();
  for (const name of ["authorization", "origin", "accept"]) {
    const value = request.headers[name];
    if (typeof value === "string") headers.set(name, value);
  }
  return new Request(request.url, { method: request.method === "HEAD" ? "HEAD" : request.method === "OPTIONS" ? "OPTIONS" : "GET", headers });
}

/** A default issuer on a loopback name, by every loopback name (a browser may open http://localhost:PORT for http://127.0.0.1:PORT); any other, itself. */
function loopbackAliases(issuer: string): string[] {
  const url = new URL(issuer);
  if (!LOOPBACK_NAMES.includes(url.hostname)) return [issuer];
  return LOOPBACK_NAMES.map((name) => `${url.protocol}//${name}${url.port === "" ? "" : `:${url.port}`}`);
}

const storeUnreachable = (error: Error) => {
  // Refused, never served from this process's memory, which other replicas do not share.
  say(error.message);
  return new OAuthError(OAuthErrorCode.TemporarilyUnavailable, "the sign-in store cannot be reached; try again in a moment", 503);
};

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
    this.#bearer = new Map(
      ownOrigins.map((origin) => [
        origin,
        { verifier, expectedResource: this.#resourceUrl, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(new URL(`${origin}/mcp`)) },
      ]),
    );
    this.#tokens = new TokenService({ issuer: this.issuer, resource: this.resource, secret: settings.secret ?? randomBytes(32) });
    this.#store = settings.store ?? new MemoryAuthStore();
    const clients = new ClientRegistry(this.#store, {
      allowInsecureMetadataFetch: settings.allowInsecureClientMetadata === true,
      ...(settings.clientDocumentsClock !== undefined ? { now: settings.clientDocumentsClock } : {}),
    });
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

  /** Whether a path is the sign-in's: its endpoints, and the metadata documents under /.well-known/ that the SDK knows. */
  isSignInPath(path: string): boolean {
    return ENDPOINTS.includes(path) || path.startsWith("/.well-known/");
  }

  /** Serves the sign-in's own paths on the socket; false for any other path. */
  async route(request: IncomingMessage, response: ServerResponse, url: URL): Promise<boolean> {
    if (!this.isSignInPath(url.pathname)) return false;
    let answer: Answer | undefined;
    try {
      answer = await this.answer(await signInRequestOf(request, url, this.clientAddressOf(request)));
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      answer = oauthErrorAnswer(error);
    }
    if (answer === undefined) return false;
    writeAnswer(response, answer);
    return true;
  }

  /** The answer to a request on one of the sign-in's paths; undefined for any other path (a path under /.well-known/ that is none of its documents included). */
  async answer(request: SignInRequest): Promise<Answer | undefined> {
    const path = request.url.pathname;
    if (!this.isSignInPath(path)) return undefined;
    if (path.startsWith("/.well-known/")) {
      const answer = oauthMetadataResponse(webRequest(request), {
        oauthMetadata: this.#metadata,
        resourceServerUrl: new URL(`${this.#originOf(request.headers)}/mcp`),
        scopesSupported: [SCOPE],
        resourceName: "LinkShort",
        dangerouslyAllowInsecureIssuerUrl: this.issuer.startsWith("http:"),
      });
      return answer === undefined ? undefined : answerOf(answer);
    }
    const allowed = path === "/authorize" ? "GET, POST" : "POST";
    try {
      if (request.method === "OPTIONS" && path !== "/authorize") return { status: 204, headers: CORS_PREFLIGHT, body: "" };
      if (path === "/authorize" && request.method === "GET") return await showSignIn(this.#context, request.url.searchParams, request.address);
      if (request.method !== "POST")
        return oauthErrorAnswer(new OAuthError(OAuthErrorCode.InvalidRequest, `use ${allowed.replace(", ", " or ")}`, 405), { Allow: allowed });
      if (path === "/authorize") return await completeSignIn(this.#context, request);
      if (path === "/token") return await tokenEndpoint(this.#context, formOf(request));
      if (path === "/revoke") return await revocationEndpoint(this.#context, formOf(request));
      return await this.#register(request);
    } catch (error) {
      if (error instanceof StoreUnavailableError) return oauthErrorAnswer(storeUnreachable(error));
      if (error instanceof OAuthError) return oauthErrorAnswer(error);
      throw error;
    }
  }

  /** The origin the request was addressed to when it is one the server answers as (a loopback alias of the default issuer), else the issuer. */
  #originOf(headers: IncomingHttpHeaders): string {
    const origin = `${this.issuer.slice(0, this.issuer.indexOf("//"))}//${headers.host ?? ""}`;
    return this.#bearer.has(origin) ? origin : this.issuer;
  }

  async #register(request: SignInRequest): Promise<Answer> {
    let metadata: unknown;
    try {
      metadata = JSON.parse(request.body);
    } catch {
      throw new OAuthError(OAuthErrorCode.InvalidClientMetadata, "the body must be JSON");
    }
    return jsonAnswer(201, await this.#context.clients.register(metadata, addressGroup(request.address)));
  }

  /** The address of the client that sent a request: the socket's peer, or behind a trusted proxy the one it forwards for (`client-address.ts`). */
  clientAddressOf(request: IncomingMessage): string {
    return clientAddress(request.socket.remoteAddress ?? "", request.headers["x-forwarded-for"], this.settings.trustedProxies);
  }

  /**
   * The person a request to /mcp acts as: by the key header, else by its access token. Otherwise
   * the answer to send: 401 with `WWW-Authenticate` naming the resource metadata.
   */
  async personOf(headers: IncomingHttpHeaders, address: string): Promise<Person | Answer> {
    const key = headers[API_KEY_HEADER];
    if (typeof key === "string") {
      const found = await this.settings.people.personForHeaderKey(key.trim(), address);
      if ("client" in found) return found;
      const status = found.status === 502 ? 503 : found.status === 429 ? 429 : 401;
      return jsonRpcErrorAnswer(status, `The key in ${API_KEY_HEADER} was not accepted: ${found.problem}`, retryAfterHeader(found.retryAfterSeconds));
    }
    // As the SDK's requireBearerAuth reads the header, without making a web Request of each call.
    const [authorization] = (headers.authorization ?? "").split(",");
    const bearer = this.#bearer.get(this.#originOf(headers))!;
    try {
      return (await verifyBearerToken(authorization || undefined, bearer)).extra!.person as Person;
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) return answerOf(bearerAuthChallengeResponse(error, bearer));
      say(error.message);
      return jsonRpcErrorAnswer(503, "The sign-in store cannot be reached; try again in a moment.");
    }
  }

  async #verify(token: string): Promise<AuthInfo> {
    const claims = await this.#tokens.verifyAccessToken(token);
    const grant = claims === undefined ? undefined : await this.#store.grant(claims.grantId, nowSeconds());
    if (claims === undefined || grant === undefined || grant.accountId !== claims.accountId) {
      throw new OAuthError(OAuthErrorCode.InvalidToken, "the access token is invalid, expired or revoked");
    }
    // The grant is looked up on every request (a revocation ends it); the person is kept by their account.
    const person = await this.settings.people.personOfGrant(grant.accountId, () => this.#tokens.unwrapKey(grant.wrappedKey));
    return {
      token,
      clientId: claims.clientId,
      scopes: claims.scope.split(" ").filter(Boolean),
      expiresAt: claims.expiresAt,
      resource: this.#resourceUrl,
      extra: { person },
    };
  }
}
