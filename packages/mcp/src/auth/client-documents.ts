/**
 * Client ID Metadata Documents: a client whose `client_id` is the https address of its metadata
 * document, fetched with care: https only, public addresses only (checked on the address actually
 * dialled), a size and a time cap. Kept by client_id, each fetch bounded: one at a time for a
 * client_id, none again within a minute of a failure (the failure itself is remembered), at most
 * MAX_FETCHES_IN_FLIGHT at once and HOST_FETCHES_PER_MINUTE to one host, and the first fetch of a
 * client_id not known here at most NEW_CLIENT_IDS_PER_ADDRESS_PER_MINUTE times a minute for one
 * client address (so that one address cannot spend a host's fetches on made-up client_ids). A
 * document that cannot be fetched again right now (its host's edge answering 403 or 404 to servers,
 * as seen for Claude's) is served from the last good copy within its lifetime (KEEP_MS). The copies
 * of clients someone signed in with are kept apart from the rest (failures and copies nobody used),
 * so that made-up client_ids never push them out.
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { BlockList, isIP } from "node:net";
import { lookup } from "node:dns";
import { BoundedCache } from "./bounded-cache";
import { addressGroup } from "./client-address";
import { clientNameOf, redirectUrisOf } from "./client-metadata";
import { OAuthError, OAuthErrorCode } from "./oauth-error";
import type { OAuthClient } from "./store";
import { nowSeconds } from "./tokens";

const MAX_DOCUMENT_BYTES = 16 * 1024;
const FETCH_TIMEOUT_MS = 5_000;
/** A good copy is used without asking again for this long. */
const FRESH_MS = 60 * 60_000;
/** A good copy is used for this long after it was fetched when fetching it again fails. */
const KEEP_MS = 24 * 60 * 60_000;
/** After a failed fetch, the same client_id is not fetched again for this long. */
const RETRY_AFTER_FAILURE_MS = 60_000;
/** Client_ids kept that nobody signed in with yet (failures included), the least recently seen let go first. */
const MAX_KEPT = 1_000;
/** Clients someone signed in with, kept apart: only a sign-in (a key the service accepted) adds one. */
const MAX_SIGNED_IN = 1_000;
/** First fetches of client_ids not known here, per client address (an IPv6 one by its /64) and minute. */
export const NEW_CLIENT_IDS_PER_ADDRESS_PER_MINUTE = 5;
const MAX_ADDRESSES = 10_000;
const MAX_FETCHES_IN_FLIGHT = 10;
export const HOST_FETCHES_PER_MINUTE = 20;
const MAX_HOSTS = 1_000;

/** The addresses no fetch of a metadata document may reach unless allowed (loopback, private, link-local, ...). */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 3],
] as const) {
  PRIVATE.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 127],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["64:ff9b::", 96],
] as const)
  PRIVATE.addSubnet(network, prefix, "ipv6");

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return PRIVATE.check(mapped, "ipv4");
  const family = isIP(address);
  return family === 0 || PRIVATE.check(address, family === 4 ? "ipv4" : "ipv6");
}

function parsedUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/** What is known of one client_id: its last good copy (if any) and, after a failure, until when not to ask again. */
interface Kept {
  client?: OAuthClient;
  fetchedAt: number;
  failure?: OAuthError;
  retryAt: number;
}

type Download = { body: string } | { unreachable: string };

export interface ClientDocumentsOptions {
  /** For tests only: fetch documents over http and from this machine's addresses. */
  insecure: boolean;
  /** For tests only: the clock, in epoch milliseconds. */
  now?: () => number;
}

/** Whether fewer than `limit` of `key`'s recent times (the last minute's) are in `cache`. */
function underLimit(cache: BoundedCache<string, number[]>, key: string, now: number, limit: number): boolean {
  return (cache.peek(key) ?? []).filter((at) => at > now - 60_000).length < limit;
}

/** Counts a time for `key`, keeping the last minute's. */
function count(cache: BoundedCache<string, number[]>, key: string, now: number): void {
  cache.set(key, [...(cache.peek(key) ?? []).filter((at) => at > now - 60_000), now]);
}

export class ClientDocuments {
  /** Client_ids nobody signed in with yet: copies not yet used, and failures. */
  readonly #kept = new BoundedCache<string, Kept>({ max: MAX_KEPT });
  /** Clients someone signed in with: no failure of another client_id takes their place. */
  readonly #signedIn = new BoundedCache<string, Kept>({ max: MAX_SIGNED_IN });
  readonly #inFlight = new Map<string, Promise<OAuthClient>>();
  /** By host, when its recent fetches started (the last minute's). */
  readonly #hostFetches = new BoundedCache<string, number[]>({ max: MAX_HOSTS });
  /** By client address, when its recent first fetches of client_ids not known here started. */
  readonly #newIdsByAddress = new BoundedCache<string, number[]>({ max: MAX_ADDRESSES });
  readonly #now: () => number;

  constructor(private readonly options: ClientDocumentsOptions) {
    this.#now = options.now ?? Date.now;
  }

  /**
   * The client a document address names, or an OAuthError saying why there is none. `address`: the
   * client address asking, whose first fetches of client_ids not known here are bounded.
   */
  async find(clientId: string, address?: string): Promise<OAuthClient> {
    const url = this.#checkedAddress(clientId);
    const now = this.#now();
    const kept = this.#signedIn.get(clientId) ?? this.#kept.peek(clientId);
    if (kept?.client !== undefined && now < kept.fetchedAt + FRESH_MS) return kept.client;
    if (kept !== undefined && now < kept.retryAt) return this.#lastGood(kept, now, kept.failure!);
    const running = this.#inFlight.get(clientId);
    if (running !== undefined) return running;
    const asker = kept === undefined && address !== undefined ? addressGroup(address) : undefined;
    const busy =
      this.#inFlight.size >= MAX_FETCHES_IN_FLIGHT
        ? "too many client metadata documents are being fetched right now"
        : asker !== undefined && !underLimit(this.#newIdsByAddress, asker, now, NEW_CLIENT_IDS_PER_ADDRESS_PER_MINUTE)
          ? "too many new client metadata documents were asked for from this address this minute"
          : this.#hostBusy(url.host, now);
    if (busy !== undefined) return this.#lastGood(kept, now, new OAuthError(OAuthErrorCode.TemporarilyUnavailable, `${busy}; try again in a minute`, 503));
    if (asker !== undefined) count(this.#newIdsByAddress, asker, now);
    const fetching = this.#fetch(clientId, url, kept, now).finally(() => this.#inFlight.delete(clientId));
    this.#inFlight.set(clientId, fetching);
    return fetching;
  }

  /** Someone signed in with this client: its copy is kept apart from now on, never pushed out by failures or unused copies. */
  signedIn(clientId: string): void {
    const kept = this.#kept.peek(clientId);
    if (kept?.client === undefined) return;
    this.#kept.delete(clientId);
    this.#signedIn.set(clientId, kept);
  }

  #checkedAddress(clientId: string): URL {
    const url = parsedUrl(clientId);
    const insecure = this.options.insecure;
    if (
      url === null ||
      (url.protocol !== "https:" && !(insecure && url.protocol === "http:")) ||
      url.pathname === "/" ||
      url.hash !== "" ||
      url.username !== ""
    ) {
      throw new OAuthError(OAuthErrorCode.InvalidClient, "a client_id URL must be an https address with a path, naming the client's metadata document");
    }
    const literal = url.hostname.replace(/^\[(.*)\]$/, "$1");
    // An address written as such is dialled without a lookup, so it is checked here.
    if (!insecure && isIP(literal) !== 0 && isPrivateAddress(literal))
      throw new OAuthError(OAuthErrorCode.InvalidClient, "a client_id URL may not name a private or loopback address");
    return url;
  }

  /** The last good copy while it lasts, else the failure. */
  #lastGood(kept: Kept | undefined, now: number, failure: OAuthError): OAuthClient {
    if (kept?.client !== undefined && now < kept.fetchedAt + KEEP_MS) return kept.client;
    throw failure;
  }

  /** Why this host gets no fetch now, or undefined (and the fetch counted). */
  #hostBusy(host: string, now: number): string | undefined {
    if (!underLimit(this.#hostFetches, host, now, HOST_FETCHES_PER_MINUTE)) return `too many client metadata documents were fetched from ${host} this minute`;
    count(this.#hostFetches, host, now);
    return undefined;
  }

  #keep(clientId: string, kept: Kept): void {
    if (this.#signedIn.has(clientId)) this.#signedIn.set(clientId, kept);
    else this.#kept.set(clientId, kept);
  }

  async #fetch(clientId: string, url: URL, before: Kept | undefined, now: number): Promise<OAuthClient> {
    const downloaded = await this.#download(url);
    if ("unreachable" in downloaded) {
      // Not the client's say: its last good copy stands while it lasts.
      const failure = new OAuthError(OAuthErrorCode.InvalidClient, `could not read the client's metadata document: ${downloaded.unreachable}`);
      this.#keep(clientId, {
        ...(before?.client !== undefined ? { client: before.client } : {}),
        fetchedAt: before?.fetchedAt ?? 0,
        failure,
        retryAt: now + RETRY_AFTER_FAILURE_MS,
      });
      return this.#lastGood(before, now, failure);
    }
    try {
      const client = documentClient(clientId, downloaded.body);
      this.#keep(clientId, { client, fetchedAt: now, retryAt: 0 });
      return client;
    } catch (error) {
      // The client's own answer: what it said before no longer stands.
      if (error instanceof OAuthError) this.#keep(clientId, { fetchedAt: 0, failure: error, retryAt: now + RETRY_AFTER_FAILURE_MS });
      throw error;
    }
  }

  #download(url: URL): Promise<Download> {
    const insecure = this.options.insecure;
    const request = url.protocol === "https:" ? httpsRequest : httpRequest;
    return new Promise((resolve) => {
      const unreachable = (description: string) => resolve({ unreachable: description });
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
            return unreachable(`it answered ${response.statusCode}`);
          }
          let size = 0;
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_DOCUMENT_BYTES) {
              outgoing.destroy();
              return unreachable(`it is larger than ${MAX_DOCUMENT_BYTES / 1024} KiB`);
            }
            chunks.push(chunk);
          });
          response.on("end", () => resolve({ body: Buffer.concat(chunks).toString("utf8") }));
          response.on("error", () => unreachable("the connection failed"));
        },
      );
      // The whole fetch, not only each wait for data, is bounded.
      const deadline = setTimeout(() => {
        outgoing.destroy();
        unreachable(`no answer within ${FETCH_TIMEOUT_MS / 1000} s`);
      }, FETCH_TIMEOUT_MS);
      outgoing.on("close", () => clearTimeout(deadline));
      outgoing.on("error", (error) =>
        unreachable(error.message === "private address" ? "its host resolves to a private or loopback address" : "the connection failed"),
      );
      outgoing.end();
    });
  }
}

/** The client a fetched document describes, or an OAuthError saying what is wrong with it. */
function documentClient(clientId: string, body: string): OAuthClient {
  let document: unknown;
  try {
    document = JSON.parse(body);
  } catch {
    throw new OAuthError(OAuthErrorCode.InvalidClient, "the client's metadata document is not JSON");
  }
  if (document === null || typeof document !== "object" || (document as Record<string, unknown>).client_id !== clientId) {
    throw new OAuthError(OAuthErrorCode.InvalidClient, "the client's metadata document must name its own address as client_id");
  }
  const fields = document as Record<string, unknown>;
  return { clientId, redirectUris: redirectUrisOf(fields), ...clientNameOf(fields), issuedAt: nowSeconds() };
}
