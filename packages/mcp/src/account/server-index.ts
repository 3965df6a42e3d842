/**
 * The server's link index: one per process and account, watching the server's client, so that
 * `find_links` searches every link of the account without paging through it per call.
 *
 * The first sync runs in the background from start, at the share of the rate limit the index
 * allows itself, waiting for each next window with Node's sleep; tool calls meanwhile answer at
 * once from what is indexed. After it, each call that looks links up advances the index by a
 * bounded step (the newest links, at most one request and none within 10 s of the last, and a
 * couple of pages of a due sweep).
 *
 * While it runs, the server also samples in the background (`sampleEveryMs`, default 5 minutes):
 * one read of the newest links, and the sweep when it is due (every 15 minutes after the last),
 * at the sweep's share of the rate limit. Every page those reads (and each get_link) see is a
 * sample of the click history kept beside the index (get_link's clicks over time).
 */
import { AbortedError, ClickHistory, isLinkShortError, LinkIndex, type ClickHistoryStore, type LinkIndexStore, type LinkShortClient } from "@linkshort/client";
import { LocalClickHistory, type ClickHistoryHolder } from "./click-history-holder";
import { failureCause, LocalIndexSync, type IndexSync, type SyncHost } from "./index-sync";
import { backgroundSleep } from "./background-sleep";
import { clause } from "../failures/describe";
import { freshnessAnswer, type FreshnessAnswer } from "./freshness-answer";

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

/**
 * How an account's index and click history are kept: the sync that reads the service for the index
 * and the holder of the history, made for the server's index (`history` makes a click history of the
 * account on a store). By this process alone unless given (the shared state gives the replicas' way).
 */
export type AccountKeeping = (host: SyncHost, history: (store?: ClickHistoryStore) => ClickHistory) => { sync: IndexSync; history: ClickHistoryHolder };

export interface ServerLinkIndexOptions {
  /** Where the index is kept between runs (a file: `--index-file`); memory by default. */
  store?: LinkIndexStore;
  /** For tests: the index's own options. */
  pageSize?: number;
  minSyncIntervalMs?: number;
  /** Where the click history is kept between runs (beside the index file: `FileClickHistoryStore.besideIndex`); memory by default. */
  historyStore?: ClickHistoryStore;
  /** How the index and history are kept with other replicas (the shared state's); by this process alone, in `store` and `historyStore`, by default. */
  keeping?: AccountKeeping;
  /** How often the server samples in the background once the first sync is done. Default 5 minutes. */
  sampleEveryMs?: number;
  /** For tests: the clock of the index and the history. */
  now?: () => number;
}

/** How often the server reads the newest links (and a due sweep) in the background: 12 requests an hour besides the sweeps. */
export const SAMPLE_EVERY_MS = 5 * 60_000;
/** How long after a full sweep the next begins (the link index's default). */
export const SWEEP_EVERY_MS = 15 * 60_000;

export class ServerLinkIndex {
  #index: LinkIndex;
  /** The clicks over time of the account's links, sampled from every page the index and the tools read (on a shared store, the replicas' one history). */
  readonly #history: ClickHistoryHolder;
  readonly #client: LinkShortClient;
  readonly #options: ServerLinkIndexOptions;
  /** The clients whose changes land in the index at once (the server's own, and any other of the account), each with how to stop. */
  readonly #watched = new Map<LinkShortClient, { stopWatching: () => void; stopObserving: () => void }>();
  readonly #shutdown = new AbortController();
  /** Who reads the service for the index, and (on a shared store) loading what other replicas saved. */
  readonly #sync: IndexSync;
  #firstSync: Promise<void> | undefined;
  #firstSyncDone = false;
  /** Why the last sync failed (redacted), shown with the freshness until one succeeds. */
  #lastFailure: string | undefined;
  readonly #sampleEveryMs: number;
  #sampling: NodeJS.Timeout | undefined;
  #sample: Promise<void> | undefined;

  constructor(client: LinkShortClient, options: ServerLinkIndexOptions = {}) {
    this.#client = client;
    this.#options = options;
    this.#sampleEveryMs = options.sampleEveryMs ?? SAMPLE_EVERY_MS;
    const history = (historyStore: ClickHistoryStore | undefined) =>
      new ClickHistory({ account: client.accountId, ...(historyStore ? { store: historyStore } : {}), ...(options.now ? { now: options.now } : {}) });
    const keeping =
      options.keeping ?? ((host, made) => ({ sync: new LocalIndexSync(options.store, host), history: new LocalClickHistory(made(options.historyStore)) }));
    const kept = keeping(
      {
        index: () => this.#index,
        replace: (store) => this.#replace(store),
        sync: (sync) => this.#index.sync(client, sync),
        failed: (error) => (this.#lastFailure = this.#describe(error)),
        underLease: (read) => this.#history.sample(read),
      },
      history,
    );
    this.#sync = kept.sync;
    this.#history = kept.history;
    this.#index = this.#made(this.#sync.startingStore());
    this.follow(client);
  }

  get index(): LinkIndex {
    return this.#index;
  }

  get history(): ClickHistory {
    return this.#history.current;
  }

  /** The click history to answer from, loaded (on a shared store, with what other replicas saved; failing, naming the store, when it cannot be reached). */
  loadHistory(): Promise<ClickHistory> {
    return this.#history.catchUp();
  }

  #made(store: LinkIndexStore | undefined): LinkIndex {
    const options = this.#options;
    return new LinkIndex({
      account: this.#client.accountId,
      sleep: backgroundSleep,
      sweepEveryMs: SWEEP_EVERY_MS,
      ...(options.now ? { now: options.now } : {}),
      ...(store ? { store } : {}),
      ...(options.pageSize !== undefined ? { pageSize: options.pageSize } : {}),
      ...(options.minSyncIntervalMs !== undefined ? { minSyncIntervalMs: options.minSyncIntervalMs } : {}),
    });
  }

  /** Takes in at once the changes another client of the same account makes. */
  follow(client: LinkShortClient): void {
    if (this.#watched.has(client)) return;
    this.#watched.set(client, { stopWatching: this.#index.watch(client), stopObserving: this.#history.observe(client) });
  }

  /** Lets go of a client (its person was let go of): the index holds it no longer. */
  unfollow(client: LinkShortClient): void {
    const watched = this.#watched.get(client);
    if (watched === undefined) return;
    this.#watched.delete(client);
    watched.stopWatching();
    watched.stopObserving();
  }

  /** How many clients the index takes changes from. */
  get followed(): number {
    return this.#watched.size;
  }

  /** A shared index's new copy, on what the store holds now: the clients it watched are watched again (the history keeps observing them). */
  async #replace(store: LinkIndexStore): Promise<void> {
    this.#index.release();
    for (const watched of this.#watched.values()) watched.stopWatching();
    this.#index = this.#made(store);
    await this.#index.load();
    for (const [client, watched] of this.#watched) watched.stopWatching = this.#index.watch(client);
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
    const run = this.#sync
      .firstSync(this.#shutdown.signal)
      .then(
        () => {
          this.#firstSyncDone = true;
          this.#lastFailure = undefined;
          this.#scheduleSampling();
        },
        (error: unknown) => {
          if (!isLinkShortError(error, "LINKSHORT_ABORTED")) this.#lastFailure = this.#describe(error);
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
    await this.#sync.catchUp(true).catch((error: unknown) => (this.#lastFailure = this.#describe(error)));
    await this.#index.load();
    if (this.building || !this.#firstSyncDone) {
      await this.#patiently(this.startFirstSync(), signal);
      return;
    }
    // A background sample under way reads at least what this step would: a sweep may take minutes.
    if (this.#sample !== undefined) {
      await this.#patiently(this.#sample, signal);
      return;
    }
    const step = AbortSignal.any([signal, AbortSignal.timeout(STEP_TIMEOUT_MS), this.#shutdown.signal]);
    try {
      await this.#sync.step(step, { maxSweepPages: SWEEP_PAGES_PER_CALL });
      this.#lastFailure = undefined;
    } catch (error) {
      if (signal.aborted) throw error;
      this.#lastFailure = this.#describe(failureCause(error));
    }
  }

  /**
   * One background sample: the newest links, and every page of a due sweep (waiting for the
   * sweep's share of each rate-limit window), then the history saved when due. A failure is kept
   * for the freshness; the next sample tries again.
   */
  sampleNow(): Promise<void> {
    this.#sample ??= (async () => {
      await Promise.all([this.#index.load(), this.history.load()]);
      // Shared: only while no other replica reads the service for this account (the holder's reads are the history's samples).
      await this.#sync.step(this.#shutdown.signal, { wait: true });
      this.#lastFailure = undefined;
      await this.#history.saveIfDue();
    })()
      .catch((error: unknown) => {
        if (!isLinkShortError(error, "LINKSHORT_ABORTED")) this.#lastFailure = this.#describe(error);
      })
      .finally(() => (this.#sample = undefined));
    return this.#sample;
  }

  #scheduleSampling(): void {
    if (this.#sampling !== undefined || this.#shutdown.signal.aborted) return;
    // Unref'd: sampling never keeps alive a process whose client has gone.
    this.#sampling = setTimeout(() => {
      this.#sampling = undefined;
      void this.sampleNow().finally(() => this.#scheduleSampling());
    }, this.#sampleEveryMs).unref();
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
    return freshnessAnswer(this.#index.freshness(), this.#lastFailure);
  }

  #describe(error: unknown): string {
    return this.#client.redact(clause(error instanceof Error ? error.message : String(error)));
  }

  /** Stops the background sync, the sampling and the watching, and keeps the history; a file store lets another process take the file. */
  async stop(): Promise<void> {
    this.#shutdown.abort();
    clearTimeout(this.#sampling);
    for (const client of [...this.#watched.keys()]) this.unfollow(client);
    await Promise.all([this.#firstSync, this.#sample]);
    await this.#history.saveAtStop().catch((error: unknown) => (this.#lastFailure = this.#describe(error)));
    await this.#sync.release();
  }
}

export type { FreshnessAnswer } from "./freshness-answer";
