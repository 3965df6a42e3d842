/**
 * The server's link index: one per process and account, watching the server's client, so that
 * `find_links` searches every link of the account without paging through it per call.
 *
 * The first sync runs in the background from start, at the share of the rate limit the index
 * allows itself, waiting for each next window with Node's sleep; tool calls meanwhile answer at
 * once from what is indexed. After it, each call that looks links up advances the index by a
 * bounded step (the newest links, at most one request and none within 10 s of the last, and a
 * couple of pages of a due sweep), so an idle server spends nothing of the key's limit.
 */
import { AbortedError, AccountRegistry, FileIndexStore, freshnessSentence, LinkIndex, MAX_INDEXED_ACCOUNTS, type IndexFreshness, type LinkIndexStore, type LinkShortClient, type Sleep, type StoredIndex } from "@linkshort/client";
import { clause } from "./failures";
import { SharedIndexSync, SyncFailure } from "./store/shared-sync";

/** Sweep pages one tool call may read after the first sync (a due sweep advances over calls). */
export const SWEEP_PAGES_PER_CALL = 2;
/** The longest a tool call waits for its step of the index before answering from what is indexed. */
const STEP_TIMEOUT_MS = 5_000;
/**
 * How long a lookup waits for a first sync under way before answering from what is indexed: enough
 * for an account of a few pages (a server just started, e.g. by a client that starts one per call),
 * short for a large one, whose answer then says how far the index is.
 */
export const FIRST_SYNC_PATIENCE_MS = 2_000;

const isShared = (store: LinkIndexStore | undefined): store is SharedIndexSync["store"] => store !== undefined && "takeLease" in store;

/** A store whose one load is already done (a failed load must never start an index empty, which would write over the shared one). */
const loadedFrom = (store: LinkIndexStore, stored: StoredIndex | undefined): LinkIndexStore => ({ load: () => Promise.resolve(stored), save: (changes) => store.save(changes) });

export interface ServerLinkIndexOptions {
  /** Where the index is kept between runs (a file: `--index-file`, or Postgres: `--store`); memory by default. */
  store?: LinkIndexStore;
  /** For tests: the index's own options. */
  pageSize?: number;
  minSyncIntervalMs?: number;
}

/** Freshness as a tool answers it: the index's figures, dates as ISO strings, and a sentence for the model. */
export interface FreshnessAnswer {
  known: number;
  serverCount: number | null;
  complete: boolean;
  lastFullSweep: string | null;
  lastSync: string | null;
  summary: string;
}

/**
 * Node's sleep, with a timer that does not keep the process alive: a background sync waiting for
 * the next window must not hold a server whose client has gone (stdin closed, tests done).
 */
const backgroundSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortedError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms).unref();
    signal?.addEventListener("abort", onAbort, { once: true });
  });

const isoOrNull = (at: number | null) => (at === null ? null : new Date(at).toISOString());

export class ServerLinkIndex {
  #index: LinkIndex;
  readonly #client: LinkShortClient;
  readonly #options: ServerLinkIndexOptions;
  /** The clients whose changes land in the index at once (the server's own, and any other of the account), and how to stop. */
  readonly #watched = new Set<LinkShortClient>();
  readonly #stopWatching: Array<() => void> = [];
  readonly #shutdown = new AbortController();
  readonly #store: LinkIndexStore | undefined;
  /** With a store replicas share (`--store`): who reads the service, and loading what others saved. */
  readonly #shared: SharedIndexSync | undefined;
  #firstSync: Promise<void> | undefined;
  #firstSyncDone = false;
  /** Why the last sync failed (redacted), shown with the freshness until one succeeds. */
  #lastFailure: string | undefined;

  constructor(client: LinkShortClient, options: ServerLinkIndexOptions = {}) {
    this.#client = client;
    this.#options = options;
    this.#store = options.store;
    const store = options.store;
    this.#index = this.#made(isShared(store) ? loadedFrom(store, undefined) : store);
    this.#shared = isShared(store)
      ? new SharedIndexSync(store, { index: () => this.#index, replace: (stored) => this.#replace(stored), sync: (sync) => this.#index.sync(client, sync), failed: (error) => (this.#lastFailure = this.#describe(error)) })
      : undefined;
    this.follow(client);
  }

  get index(): LinkIndex {
    return this.#index;
  }

  #made(store: LinkIndexStore | undefined): LinkIndex {
    const options = this.#options;
    return new LinkIndex({
      account: this.#client.accountId,
      sleep: backgroundSleep,
      ...(store ? { store } : {}),
      ...(options.pageSize !== undefined ? { pageSize: options.pageSize } : {}),
      ...(options.minSyncIntervalMs !== undefined ? { minSyncIntervalMs: options.minSyncIntervalMs } : {}),
    });
  }

  /** Takes in at once the changes another client of the same account makes. */
  follow(client: LinkShortClient): void {
    if (this.#watched.has(client)) return;
    this.#watched.add(client);
    this.#stopWatching.push(this.#index.watch(client));
  }

  /** A shared index's new copy, from what the store holds now: the clients it watched are watched again. */
  async #replace(stored: StoredIndex | undefined): Promise<void> {
    this.#index.release();
    for (const stopWatching of this.#stopWatching.splice(0)) stopWatching();
    this.#index = this.#made(loadedFrom(this.#shared!.store, stored));
    await this.#index.load();
    for (const client of this.#watched) this.#stopWatching.push(this.#index.watch(client));
    if (this.#index.freshness().complete) this.#firstSyncDone = true;
  }

  /** Whether the first sync is still under way (started and not finished). */
  get building(): boolean {
    return this.#firstSync !== undefined && !this.#firstSyncDone;
  }

  /**
   * Starts the first sync in the background (once): every page of the account, waiting for each
   * next window of the rate limit, until it is done or `stop()` is called. A failure is kept for
   * the freshness and the next call that looks links up starts it again.
   */
  startFirstSync(): Promise<void> {
    if (this.#firstSync || this.#firstSyncDone || this.#shutdown.signal.aborted) return this.#firstSync ?? Promise.resolve();
    const work = this.#shared?.firstSync(this.#shutdown.signal) ?? this.#index.sync(this.#client, { wait: true, signal: this.#shutdown.signal });
    const run = work
      .then(
        () => {
          this.#firstSyncDone = true;
          this.#lastFailure = undefined;
        },
        (error: unknown) => {
          if (!(error instanceof AbortedError)) this.#lastFailure = this.#describe(error);
        },
      )
      .finally(() => {
        if (this.#firstSync === run) this.#firstSync = undefined;
      });
    this.#firstSync = run;
    return run;
  }

  /**
   * Brings the index forward before a lookup, within bounds: nothing while the first sync runs
   * (the call answers at once from what is indexed), else one bounded step. A failure or a slow
   * server does not fail the lookup: it answers from the index, and the freshness says why.
   */
  async beforeLookup(signal: AbortSignal): Promise<void> {
    // What the store holds (a file: --index-file; what another replica saved) is there before the first answer.
    await this.#shared?.catchUp(true).catch((error: unknown) => (this.#lastFailure = this.#describe(error)));
    await this.#index.load();
    if (this.building || !this.#firstSyncDone) {
      await this.#patiently(this.startFirstSync(), signal);
      return;
    }
    const step = AbortSignal.any([signal, AbortSignal.timeout(STEP_TIMEOUT_MS), this.#shutdown.signal]);
    try {
      // Shared: a step only while no other replica reads the service for this account.
      if (this.#shared) await this.#shared.syncLeased(step, { maxSweepPages: SWEEP_PAGES_PER_CALL });
      else await this.#index.sync(this.#client, { signal: step, maxSweepPages: SWEEP_PAGES_PER_CALL });
      this.#lastFailure = undefined;
    } catch (error) {
      if (signal.aborted) throw error;
      this.#lastFailure = this.#describe(error instanceof SyncFailure ? error.cause : error);
    }
  }

  /** Waits for `work` at most FIRST_SYNC_PATIENCE_MS, or until the call ends. */
  async #patiently(work: Promise<void>, signal: AbortSignal): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    try {
      await Promise.race([
        work,
        new Promise<void>((resolve) => (timer = setTimeout(resolve, FIRST_SYNC_PATIENCE_MS))),
        new Promise<void>((_resolve, reject) => {
          onAbort = () => reject(new AbortedError());
          if (signal.aborted) onAbort();
          else signal.addEventListener("abort", onAbort, { once: true });
        }),
      ]);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal.removeEventListener("abort", onAbort);
    }
  }

  freshness(): FreshnessAnswer {
    return this.#answer(this.#index.freshness());
  }

  #answer(freshness: IndexFreshness): FreshnessAnswer {
    const { known, serverCount, complete, lastFullSweepAt, lastSyncAt } = freshness;
    const sentence = freshnessSentence(freshness, { times: "iso" });
    let summary = complete ? `${sentence}.` : `${sentence}; older links may be missing until the first sync finishes.`;
    if (this.#lastFailure !== undefined) summary += ` The last update of the index failed (${this.#lastFailure}); links made elsewhere since may be missing.`;
    return { known, serverCount, complete, lastFullSweep: isoOrNull(lastFullSweepAt), lastSync: isoOrNull(lastSyncAt), summary };
  }

  #describe(error: unknown): string {
    return this.#client.redact(clause(error instanceof Error ? error.message : String(error)));
  }

  /** Stops the background sync and the watching; a file store lets another process take the file. */
  async stop(): Promise<void> {
    this.#shutdown.abort();
    for (const stopWatching of this.#stopWatching.splice(0)) stopWatching();
    await this.#firstSync;
    if (this.#store instanceof FileIndexStore) await this.#store.release();
  }
}

/** The index of each account whose server was given none (the CLI gives one): at most the client's bound of accounts, the one let go stopped. */
const serverIndexes = new AccountRegistry<ServerLinkIndex>(MAX_INDEXED_ACCOUNTS, (evicted) => void evicted.stop());

export function serverLinkIndexFor(client: LinkShortClient): ServerLinkIndex {
  const index = serverIndexes.get(client.accountId, () => new ServerLinkIndex(client));
  index.follow(client);
  return index;
}
