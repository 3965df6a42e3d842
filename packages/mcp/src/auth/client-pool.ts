/**
 * The registered clients a process keeps in memory (`MemoryAuthStore`'s), in two pools so that
 * anonymous registrations never push out a client people use: those that never signed anyone in
 * (at most MAX_NEVER_USED, and MAX_NEVER_USED_PER_ADDRESS registered from one address; the oldest
 * go first, the address's own before anyone else's), and those that did (only a sign-in with a key
 * the service accepted moves one there; at most MAX_USED, the least recently used first).
 */
import { BoundedCache } from "./bounded-cache";

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
  /** Oldest first; one let go leaves its address's list too. */
  readonly #neverUsed = new BoundedCache<string, OAuthClient>({
    max: MAX_NEVER_USED,
    onEvict: (client) => this.#leaveAddress(client),
  });
  /** The never-used ones by the address they were registered from, oldest first. */
  readonly #byAddress = new Map<string, Set<string>>();
  /** Least recently used first. */
  readonly #used = new BoundedCache<string, OAuthClient>({ max: MAX_USED });

  save(client: OAuthClient): void {
    this.#forget(client.clientId);
    if (client.usedAt !== undefined) {
      this.#used.set(client.clientId, client);
      return;
    }
    const address = client.registeredFrom ?? "";
    const fromAddress = this.#byAddress.get(address) ?? new Set<string>();
    // The address's own oldest goes first, before anyone else's.
    if (fromAddress.size >= MAX_NEVER_USED_PER_ADDRESS) this.#forget(fromAddress.values().next().value!);
    this.#neverUsed.set(client.clientId, client);
    this.#byAddress.set(address, fromAddress.add(client.clientId));
  }

  get(clientId: string): OAuthClient | undefined {
    return this.#used.peek(clientId) ?? this.#neverUsed.peek(clientId);
  }

  /** The client signed someone in now: it moves to (or up in) the used pool. */
  signedIn(clientId: string, now: number): void {
    const client = this.get(clientId);
    if (client !== undefined) this.save({ ...client, usedAt: now });
  }

  #forget(clientId: string): void {
    this.#used.delete(clientId);
    const client = this.#neverUsed.peek(clientId);
    if (client === undefined) return;
    this.#neverUsed.delete(clientId);
    this.#leaveAddress(client);
  }

  #leaveAddress(client: OAuthClient): void {
    const address = client.registeredFrom ?? "";
    const fromAddress = this.#byAddress.get(address);
    fromAddress?.delete(client.clientId);
    if (fromAddress?.size === 0) this.#byAddress.delete(address);
  }
}
