/**
 * What replicas share through `--store postgres://…`: the sign-ins, the secrets that sign tokens and
 * confirmations, each account's link index with its sweep lease and its click history, and each
 * key's rate budget.
 */
import { AccountRegistry, accountId, type LinkShortClient } from "@linkshort/client";
import { clientFor } from "../../config/command-line";
import { PostgresAuthStore, sharedSecret } from "../../store/auth-store";
import { PostgresClickHistoryStore } from "../../store/history-store";
import { DEFAULT_LEASE_MS, PostgresIndexStore } from "../../store/index-store";
import { PostgresStore } from "../../store/postgres";
import { SharedRateBudget } from "../../store/rate-budget";
import { AccountIndexes } from "../account-indexes";
import { ServerLinkIndex, type AccountKeeping, type ServerLinkIndexOptions } from "../server-index";
import type { AccountState } from "../state";
import { SharedClickHistory } from "./click-history";
import { SharedIndexSync } from "./index-sync";

export { storeUrl } from "../../config/command-line";

/** For tests: a sweep lease shorter than the default 30 s, so a replica's takeover is quick to see. */
const LEASE_VARIABLE = "LINKSHORT_MCP_SWEEP_LEASE_MS";

/** Accounts whose index a replica keeps in memory at once; one let go is loaded from the store again when next used. */
const MAX_SHARED_INDEXES = 32;

export interface SharedStateOptions {
  /** How long a sweep lease lasts unless renewed (a killed replica's sweep is taken over within about 1.5 times this). */
  leaseMs?: number;
  /** For tests: each index's clock and pace. */
  index?: Pick<ServerLinkIndexOptions, "now" | "minSyncIntervalMs">;
}

export class SharedState implements AccountState {
  readonly authStore: PostgresAuthStore;
  readonly #indexes: AccountIndexes;
  readonly #leaseMs: number;
  readonly #indexOptions: SharedStateOptions["index"];
  /** Each key's budget, one per account in this replica (as the client's own limiters are). */
  readonly #budgets = new AccountRegistry<SharedRateBudget>(1_000);

  private constructor(
    readonly store: PostgresStore,
    options: SharedStateOptions,
  ) {
    this.authStore = new PostgresAuthStore(store);
    this.#leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.#indexOptions = options.index;
    this.#indexes = new AccountIndexes(MAX_SHARED_INDEXES, (client) => this.#madeIndex(client));
  }

  /** Connects and migrates; throws a StoreUnavailableError naming the store (without its password) when it cannot. */
  static async open(url: string, options: SharedStateOptions = {}): Promise<SharedState> {
    return new SharedState(await PostgresStore.open(url), options);
  }

  /** The store at `url`, connected and migrated, with the sweep lease the environment may set for tests. */
  static async openNamed(url: string, env: NodeJS.ProcessEnv, say: (text: string) => void): Promise<SharedState> {
    const leaseMs = Number(env[LEASE_VARIABLE]);
    const state = await SharedState.open(url, Number.isSafeInteger(leaseMs) && leaseMs >= 100 ? { leaseMs } : {});
    say(`keeping the state in ${state.store.shown}`);
    return state;
  }

  /** Where the indexes and click histories are kept, as the start's log says it. */
  get keptIn(): string {
    return `both kept in ${this.store.shown}`;
  }

  /** Where the sign-ins and each person's index and click history are kept, as the --sign-in start's log says it. */
  get signInsKeptIn(): string {
    return `sign-ins, each person's links indexed and their clicks sampled in ${this.store.shown}`;
  }

  /** The secret every replica shares under `name` (made at random by the first). */
  secret(name: "sign-in" | "request-state"): Promise<Uint8Array> {
    return sharedSecret(this.store, name);
  }

  /** A client of the service for one key, paced by the budget every replica shares for its account. */
  clientFor(baseUrl: string, apiKey: string, maxWaitSeconds: number): LinkShortClient {
    const account = accountId(baseUrl, apiKey);
    return clientFor(
      baseUrl,
      apiKey,
      maxWaitSeconds,
      this.#budgets.get(account, () => new SharedRateBudget(this.store, account)),
    );
  }

  /** The account's index and click history, kept in the store and swept (and sampled) by one replica at a time. */
  indexFor(client: LinkShortClient): ServerLinkIndex {
    return this.#indexes.indexFor(client);
  }

  #madeIndex(client: LinkShortClient): ServerLinkIndex {
    const store = new PostgresIndexStore(this.store, client.accountId, this.#leaseMs);
    const historyStore = new PostgresClickHistoryStore(this.store, client.accountId, store.holder);
    const keeping: AccountKeeping = (host, history) => ({ sync: new SharedIndexSync(store, host), history: new SharedClickHistory(historyStore, history) });
    return new ServerLinkIndex(client, { ...this.#indexOptions, keeping });
  }

  /** Lets go of a client (its person was let go of) in every index this replica keeps. */
  forgetClient(client: LinkShortClient): void {
    this.#indexes.forgetClient(client);
  }

  async close(): Promise<void> {
    await this.#indexes.stop();
    await this.store.close();
  }
}
