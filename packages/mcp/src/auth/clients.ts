/**
 * Who may ask for a sign-in: clients registered dynamically (RFC 7591), and clients whose
 * `client_id` is the https address of their metadata document (Client ID Metadata Documents),
 * fetched with care: https only, public addresses only (checked on the address actually dialled),
 * a size and a time cap, and cached.
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { BlockList, isIP } from "node:net";
import { lookup } from "node:dns";
import { randomToken, nowSeconds } from "./tokens";
import type { AuthStore, OAuthClient } from "./store";

/** A request the authorization server refuses, with the OAuth error code and a description for people. */
export class OAuthError extends Error {
  override name = "OAuthError";
  constructor(
    readonly code: string,
    description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}

const MAX_DOCUMENT_BYTES = 16 * 1024;
const FETCH_TIMEOUT_MS = 5_000;
const CACHE_MS = 60 * 60_000;
const MAX_CACHED = 1_000;
const MAX_REDIRECT_URIS = 10;
const UNSAFE_SCHEMES = new Set(["javascript:", "data:", "file:", "blob:", "about:", "vbscript:", "http:", "https:"]);

const isLoopbackHost = (hostname: string) => hostname === "localhost" || hostname === "127.0.0.1" || hostname === "[::1]";

/** Whether a URI may receive codes: https, http to this machine (native apps), or an app's own scheme. No fragment. */
function isAcceptableRedirect(uri: string): boolean {
  if (uri.length > 2000) return false;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.hash !== "" || uri.includes("#")) return false;
  if (url.protocol === "https:") return true;
  if (url.protocol === "http:") return isLoopbackHost(url.hostname);
  return !UNSAFE_SCHEMES.has(url.protocol);
}

/** Exact match, except that a loopback redirect may use any port (RFC 8252 §7.3). */
export function redirectMatches(registered: readonly string[], asked: string): boolean {
  if (registered.includes(asked)) return true;
  let url: URL;
  try {
    url = new URL(asked);
  } catch {
    return false;
  }
  if (url.protocol !== "http:" || !isLoopbackHost(url.hostname)) return false;
  url.port = "";
  return registered.some((uri) => {
    const candidate = new URL(uri);
    if (candidate.protocol !== "http:" || !isLoopbackHost(candidate.hostname)) return false;
    candidate.port = "";
    return candidate.href === url.href;
  });
}

function redirectUrisOf(metadata: Record<string, unknown>): string[] {
  const uris = metadata.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > MAX_REDIRECT_URIS || !uris.every((uri) => typeof uri === "string" && isAcceptableRedirect(uri))) {
    throw new OAuthError("invalid_redirect_uri", `redirect_uris must list 1 to ${MAX_REDIRECT_URIS} URIs, each https, http to localhost, or an app's own scheme, without a fragment`);
  }
  const method = metadata.token_endpoint_auth_method;
  if (method !== undefined && method !== "none") throw new OAuthError("invalid_client_metadata", 'token_endpoint_auth_method must be "none": this server issues no client secrets (PKCE protects the code)');
  for (const grant of Array.isArray(metadata.grant_types) ? (metadata.grant_types as unknown[]) : []) {
    if (grant !== "authorization_code" && grant !== "refresh_token") throw new OAuthError("invalid_client_metadata", `grant_types may hold authorization_code and refresh_token only, not ${String(grant).slice(0, 50)}`);
  }
  return uris as string[];
}

const clientName = (metadata: Record<string, unknown>) => (typeof metadata.client_name === "string" ? { clientName: metadata.client_name.slice(0, 100) } : {});

/** The addresses no fetch of a metadata document may reach unless allowed (loopback, private, link-local, ...). */
const PRIVATE = new BlockList();
for (const [network, prefix] of [["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12], ["192.0.0.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["224.0.0.0", 3]] as const) {
  PRIVATE.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [["::", 127], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8], ["64:ff9b::", 96]] as const) PRIVATE.addSubnet(network, prefix, "ipv6");

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return PRIVATE.check(mapped, "ipv4");
  const family = isIP(address);
  return family === 0 || PRIVATE.check(address, family === 4 ? "ipv4" : "ipv6");
}

export interface ClientRegistryOptions {
  /** For tests only: fetch metadata documents over http and from this machine's addresses. */
  allowInsecureMetadataFetch?: boolean;
}

export class ClientRegistry {
  readonly #cache = new Map<string, { client: OAuthClient; until: number }>();

  constructor(
    private readonly store: AuthStore,
    private readonly options: ClientRegistryOptions = {},
  ) {}

  /** RFC 7591: a public client (no secret) with the redirect URIs it lists. */
  async register(metadata: unknown): Promise<Record<string, unknown>> {
    if (metadata === null || typeof metadata !== "object" || Array.isArray(metadata)) throw new OAuthError("invalid_client_metadata", "the body must be a JSON object");
    const fields = metadata as Record<string, unknown>;
    const client: OAuthClient = { clientId: randomToken(), redirectUris: redirectUrisOf(fields), ...clientName(fields), issuedAt: nowSeconds() };
    await this.store.saveClient(client);
    return {
      client_id: client.clientId,
      client_id_issued_at: client.issuedAt,
      redirect_uris: client.redirectUris,
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      ...(client.clientName !== undefined ? { client_name: client.clientName } : {}),
    };
  }

  /** The client a `client_id` names, or an OAuthError saying why there is none. */
  async find(clientId: string): Promise<OAuthClient> {
    if (clientId === "" || clientId.length > 2000) throw new OAuthError("invalid_client", "client_id is missing or too long");
    if (!/^https?:\/\//.test(clientId)) {
      const client = await this.store.client(clientId);
      if (client === undefined) throw new OAuthError("invalid_client", "this client_id was not registered here", 401);
      return client;
    }
    const cached = this.#cache.get(clientId);
    if (cached !== undefined && cached.until > Date.now()) return cached.client;
    const client = await this.#fetchDocument(clientId);
    this.#cache.set(clientId, { client, until: Date.now() + CACHE_MS });
    while (this.#cache.size > MAX_CACHED) this.#cache.delete(this.#cache.keys().next().value!);
    return client;
  }

  async #fetchDocument(clientId: string): Promise<OAuthClient> {
    const url = new URL(clientId);
    const insecure = this.options.allowInsecureMetadataFetch === true;
    if ((url.protocol !== "https:" && !(insecure && url.protocol === "http:")) || url.pathname === "/" || url.hash !== "" || url.username !== "") {
      throw new OAuthError("invalid_client", "a client_id URL must be an https address with a path, naming the client's metadata document");
    }
    const literal = url.hostname.replace(/^\[(.*)\]$/, "$1");
    // An address written as such is dialled without a lookup, so it is checked here.
    if (!insecure && isIP(literal) !== 0 && isPrivateAddress(literal)) throw new OAuthError("invalid_client", "a client_id URL may not name a private or loopback address");
    const body = await this.#download(url, insecure);
    let document: unknown;
    try {
      document = JSON.parse(body);
    } catch {
      throw new OAuthError("invalid_client", "the client's metadata document is not JSON");
    }
    if (document === null || typeof document !== "object" || (document as Record<string, unknown>).client_id !== clientId) {
      throw new OAuthError("invalid_client", "the client's metadata document must name its own address as client_id");
    }
    const fields = document as Record<string, unknown>;
    return { clientId, redirectUris: redirectUrisOf(fields), ...clientName(fields), issuedAt: nowSeconds() };
  }

  #download(url: URL, insecure: boolean): Promise<string> {
    const request = url.protocol === "https:" ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const refuse = (description: string) => reject(new OAuthError("invalid_client", `could not read the client's metadata document: ${description}`));
      const outgoing = request(
        url,
        {
          method: "GET",
          headers: { Accept: "application/json" },
          // Checked on the address dialled, so a name that resolves to a private address is refused.
          lookup: (hostname, options, callback) =>
            lookup(hostname, { ...options, all: false }, (error, address, family) => {
              if (!error && !insecure && isPrivateAddress(address)) callback(new Error("private address"), address, family);
              else callback(error, address, family);
            }),
        },
        (response: IncomingMessage) => {
          if (response.statusCode !== 200) {
            response.resume();
            return refuse(`it answered ${response.statusCode}`);
          }
          let size = 0;
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_DOCUMENT_BYTES) {
              outgoing.destroy();
              return refuse(`it is larger than ${MAX_DOCUMENT_BYTES / 1024} KiB`);
            }
            chunks.push(chunk);
          });
          response.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
          response.on("error", () => refuse("the connection failed"));
        },
      );
      // The whole fetch, not only each wait for data, is bounded.
      const deadline = setTimeout(() => {
        outgoing.destroy();
        refuse(`no answer within ${FETCH_TIMEOUT_MS / 1000} s`);
      }, FETCH_TIMEOUT_MS);
      outgoing.on("close", () => clearTimeout(deadline));
      outgoing.on("error", (error) => refuse(error.message === "private address" ? "its host resolves to a private or loopback address" : "the connection failed"));
      outgoing.end();
    });
  }
}
