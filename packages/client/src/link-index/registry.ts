import type { LinkShortClient } from "../client";
import { BoundedMap } from "../internal/bounded-map";
import { LinkIndex, type LinkIndexOptions } from "./link-index";

/** Accounts whose link index a process keeps by default: the least recently used goes when another comes. */
export const MAX_INDEXED_ACCOUNTS = 8;

/**
 * What a process keeps per account (`client.accountId`: base URL and a key digest), at most `max`
 * of them: the least recently used is let go (and `onEvict` told) when another account comes.
 */
export class AccountRegistry<T> {
  readonly #entries: BoundedMap<string, T>;

  constructor(max = MAX_INDEXED_ACCOUNTS, onEvict?: (value: T) => void) {
    this.#entries = new BoundedMap(max, onEvict === undefined ? undefined : (value) => onEvict(value));
  }

  get(accountId: string, make: () => T): T {
    const value = this.#entries.get(accountId) ?? make();
    this.#entries.set(accountId, value);
    return value;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** What is kept now, least recently used first. */
  values(): IterableIterator<T> {
    return this.#entries.values();
  }
}

/**
 * The link indexes of a process, one per account, each watching every client of its account it
 * was asked for (so changes any of them make land at once). An index let go stops watching.
 */
export class LinkIndexRegistry {
  readonly #indexes: AccountRegistry<LinkIndex>;
  /** The clients each index watches, held weakly: n8n makes a client an execution, and none is kept for it. */
  readonly #watching = new WeakMap<LinkIndex, WeakSet<LinkShortClient>>();

  constructor(max = MAX_INDEXED_ACCOUNTS) {
    this.#indexes = new AccountRegistry<LinkIndex>(max, (index) => index.release());
  }

  /** The index of `client`'s account, made with `options` the first time. */
  indexFor(client: LinkShortClient, options: Omit<LinkIndexOptions, "account"> | (() => Omit<LinkIndexOptions, "account">) = {}): LinkIndex {
    const index = this.#indexes.get(
      client.accountId,
      () => new LinkIndex({ ...(typeof options === "function" ? options() : options), account: client.accountId }),
    );
    let watched = this.#watching.get(index);
    if (!watched) this.#watching.set(index, (watched = new WeakSet()));
    if (!watched.has(client)) {
      watched.add(client);
      index.watch(client);
    }
    return index;
  }

  get size(): number {
    return this.#indexes.size;
  }
}
