/**
 * How an account's index is read from the service and kept: by this process alone (memory or an
 * index file), or with replicas on a shared store (`shared/index-sync.ts`: one replica reads under
 * the account's lease, the others load what it saved). The server's index asks this seam and never
 * which one it has.
 */
import { FileIndexStore, type LinkIndex, type LinkIndexStore, type SyncOptions } from "@linkshort/client";

/** What the server's index lets a sync do: its current index, a new one on a store, its reads of the service, its failures. */
export interface SyncHost {
  index(): LinkIndex;
  /** Makes the index again on `store` (what another replica saved, loaded), watching the same clients. */
  replace(store: LinkIndexStore): Promise<void>;
  sync(options: SyncOptions): Promise<unknown>;
  failed(error: unknown): void;
  /** Runs reads of the service under the account's lease as samples of the click history (saved before the lease goes); just runs them when absent. */
  underLease?(read: () => Promise<void>): Promise<void>;
}

export interface IndexSync {
  /** The store the index is made on at start. */
  startingStore(): LinkIndexStore | undefined;
  /** Every page of the account, waiting for each window of the rate limit, until the index is complete. */
  firstSync(signal: AbortSignal): Promise<void>;
  /** Takes in what others saved since the last load (for a lookup, `linksOnly`: only when links changed). */
  catchUp(linksOnly?: boolean): Promise<void>;
  /** One sync of the index (on a shared store, only while no other replica reads the service for the account). */
  step(signal: AbortSignal, options: Omit<SyncOptions, "signal">): Promise<void>;
  /** Lets another process take what the index is kept in. */
  release(): Promise<void>;
}

/** A failure of the service during a sync (not of the store it is kept in). */
export class SyncFailure extends Error {
  constructor(override readonly cause: unknown) {
    super("sync failed");
  }
}

/** The service's failure behind a sync's, or the error itself. */
export const failureCause = (error: unknown): unknown => (error instanceof SyncFailure ? error.cause : error);

/** The index of one process: read whenever asked, kept in memory or in an index file (`--index-file`). */
export class LocalIndexSync implements IndexSync {
  constructor(
    private readonly store: LinkIndexStore | undefined,
    private readonly host: SyncHost,
  ) {}

  startingStore(): LinkIndexStore | undefined {
    return this.store;
  }

  async firstSync(signal: AbortSignal): Promise<void> {
    await this.host.sync({ wait: true, signal });
  }

  catchUp(): Promise<void> {
    return Promise.resolve();
  }

  async step(signal: AbortSignal, options: Omit<SyncOptions, "signal">): Promise<void> {
    await this.host.sync({ ...options, signal });
  }

  async release(): Promise<void> {
    if (this.store instanceof FileIndexStore) await this.store.release();
  }
}
