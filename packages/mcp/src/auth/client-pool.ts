/**
 * The registered clients a process keeps in memory (`MemoryAuthStore`'s), in two pools so that
 * anonymous registrations never push out a client people use: those that never signed anyone in
 * (at most MAX_NEVER_USED, and MAX_NEVER_USED_PER_ADDRESS registered from one address; the oldest
 * go first, the address's own before anyone else's), and those that did (only a sign-in with a key
 * the service accepted moves one there; at most MAX_USED, the least recently used first).
 */

/** An OAuth client: registered dynamically (RFC 7591) or described by its metadata document. */
export interface OAuthClient {
  clientId: string;
  redirectUris: string[];
  clientName?: string;
  /** When a registered client's record was made (seconds since the epoch). */
  issuedAt: number;
  /** The address a registered client was registered from (registrations are bounded per address). */
  registeredFrom?: string;
  /** When it last signed someone in (seconds since the epoch); never, for an anonymous registration nobody used. */
  usedAt?: number;
}

export const MAX_NEVER_USED = 10_000;
export const MAX_NEVER_USED_PER_ADDRESS = 50;
export const MAX_USED = 10_000;

export class ClientPool {
  /** Oldest first. */
  readonly #neverUsed = new Map<string, OAuthClient>();
  /** The never-used ones by the address they were registered from, oldest first. */
  readonly #byAddress = new Map<string, Set<string>>();
  /** Least recently used first. */
  readonly #used = new Map<string, OAuthClient>();

  save(client: OAuthClient): void {
    this.#forget(client.clientId);
    if (client.usedAt !== undefined) return this.#keepUsed(client);
    this.#neverUsed.set(client.clientId, client);
    const address = client.registeredFrom ?? "";
    const fromAddress = this.#byAddress.get(address) ?? new Set<string>();
    this.#byAddress.set(address, fromAddress.add(client.clientId));
    if (fromAddress.size > MAX_NEVER_USED_PER_ADDRESS) this.#forget(fromAddress.values().next().value!);
    if (this.#neverUsed.size > MAX_NEVER_USED) this.#forget(this.#neverUsed.keys().next().value!);
  }

  get(clientId: string): OAuthClient | undefined {
    return this.#used.get(clientId) ?? this.#neverUsed.get(clientId);
  }

  /** The client signed someone in now: it moves to (or up in) the used pool. */
  signedIn(clientId: string, now: number): void {
    const client = this.get(clientId);
    if (client !== undefined) this.save({ ...client, usedAt: now });
  }

  #keepUsed(client: OAuthClient): void {
    this.#used.set(client.clientId, client);
    if (this.#used.size > MAX_USED) this.#used.delete(this.#used.keys().next().value!);
  }

  #forget(clientId: string): void {
    this.#used.delete(clientId);
    const client = this.#neverUsed.get(clientId);
    if (client === undefined) return;
    this.#neverUsed.delete(clientId);
    const address = client.registeredFrom ?? "";
    const fromAddress = this.#byAddress.get(address);
    fromAddress?.delete(clientId);
    if (fromAddress?.size === 0) this.#byAddress.delete(address);
  }
}
