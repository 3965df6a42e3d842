/**
 * What replicas share through `--store postgres://…`: the sign-ins, the secrets that sign tokens and
 * confirmations, each account's link index with its sweep lease, and each key's rate budget.
 */
import { AccountRegistry, type LinkShortClient } from "@linkshort/client";
import { ServerLinkIndex } from "../server-index";
import { PostgresAuthStore, sharedSecret } from "./auth-store";
import { DEFAULT_LEASE_MS, PostgresIndexStore } from "./index-store";
import { PostgresStore } from "./postgres";

/** Accounts whose index a replica keeps in memory at once; one let go is loaded from the store again when next used. */
const MAX_SHARED_INDEXES = 32;

export interface SharedStateOptions {
  /** How long a sweep lease lasts unless renewed (a killed replica's sweep is taken over within about 1.5 times this). */
  leaseMs?: number;
}

export class SharedState {
  readonly authStore: PostgresAuthStore;
  readonly #indexes: AccountRegistry<ServerLinkIndex>;
  readonly #live = new Set<ServerLinkIndex>();
  readonly #leaseMs: number;

  private constructor(
    readonly store: PostgresStore,
    options: SharedStateOptions,
  ) {
    this.authStore = new PostgresAuthStore(store);
    this.#leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.#indexes = new AccountRegistry<ServerLinkIndex>(MAX_SHARED_INDEXES, (evicted) => {
      this.#live.delete(evicted);
      void evicted.stop();
    });
  }

  /** Connects and migrates; throws a StoreUnavailableError naming the store (without its password) when it cannot. */
  static async open(url: string, options: SharedStateOptions = {}): Promise<SharedState> {
    return new SharedState(await PostgresStore.open(url), options);
  }

  /** The secret every replica shares under `name` (made at random by the first). */
  secret(name: "sign-in" | "request-state"): Promise<Uint8Array> {
    return sharedSecret(this.store, name);
  }

  /** The account's index, kept in the store and swept by one replica at a time. */
  indexFor(client: LinkShortClient): ServerLinkIndex {
    const index = this.#indexes.get(client.accountId, () => {
      const made = new ServerLinkIndex(client, { store: new PostgresIndexStore(this.store, client.accountId, this.#leaseMs) });
      this.#live.add(made);
      return made;
    });
    index.follow(client);
    return index;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#live].map((index) => index.stop()));
    await this.store.close();
  }
}
