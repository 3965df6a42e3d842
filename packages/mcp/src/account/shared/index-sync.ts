/**
 * How a replica keeps an account's index on a shared store: it reads the service only while it
 * holds the account's sweep lease (after loading what the last holder saved), and otherwise loads
 * the index again whenever the store has moved on. The first sync waits its turn: a holder that
 * stops renewing (killed) is replaced within the lease's time.
 */
import { isLinkShortError, type LinkIndexStore, type StoredIndex, type SyncOptions } from "@linkshort/client";
import { SyncFailure, type IndexSync, type SyncHost } from "../index-sync";
import type { SharedIndexStore } from "../../store/index-store";
import { whileLeased } from "./leased";

/** A store whose one load is already done (a failed load must never start an index empty, which would write over the shared one). */
const loadedFrom = (store: LinkIndexStore, stored: StoredIndex | undefined): LinkIndexStore => ({
  load: () => Promise.resolve(stored),
  save: (changes) => store.save(changes),
});

/** Waits without keeping the process alive; an abort ends the wait early. */
const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms).unref();
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

export class SharedIndexSync implements IndexSync {
  /** How many reads of the service this replica runs now (holding the lease): it loads nothing meanwhile. */
  #reading = 0;

  constructor(
    readonly store: SharedIndexStore,
    private readonly host: SyncHost,
  ) {}

  startingStore(): LinkIndexStore {
    return loadedFrom(this.store, undefined);
  }

  release(): Promise<void> {
    return Promise.resolve();
  }

  /**
   * Loads what other replicas saved, when the store moved on (never while this one reads the
   * service). For a lookup (`linksOnly`), only when links changed: a quiet sync elsewhere moves
   * only the meta, which this replica needs only when it reads itself.
   */
  async catchUp(linksOnly = false): Promise<void> {
    if (this.#reading > 0 || !(await this.store.changedSinceLoad(linksOnly))) return;
    const stored = await this.store.load();
    if (this.#reading === 0) await this.host.replace(loadedFrom(this.store, stored));
  }

  /** Syncs if this replica gets the account's lease; false while another holds it. */
  async syncLeased(signal: AbortSignal, options: Omit<SyncOptions, "signal">): Promise<boolean> {
    const ran = await whileLeased(this.store, signal, async (leased) => {
      await this.catchUp();
      this.#reading += 1;
      const read = () =>
        this.host.sync({ ...options, signal: leased }).then(
          () => undefined,
          (error: unknown) => {
            throw new SyncFailure(error);
          },
        );
      try {
        await (this.host.underLease ? this.host.underLease(read) : read());
      } finally {
        this.#reading -= 1;
      }
    });
    return ran !== undefined;
  }

  /** A step of the index: only while no other replica reads the service for this account (the lease's holder's reads are the click history's samples). */
  async step(signal: AbortSignal, options: Omit<SyncOptions, "signal">): Promise<void> {
    await this.syncLeased(signal, options);
  }

  /** The first sync: this replica's if it gets the lease, else the holder's, followed from the store, until the index is complete. */
  async firstSync(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.catchUp();
        if (this.host.index().freshness().complete || (await this.syncLeased(signal, { wait: true }))) return;
      } catch (error) {
        // The service failed: as without a shared store, the next lookup starts again. A lease lost
        // (taken over) or a store that cannot be reached: tried again, so it goes on by itself once it is back.
        if (signal.aborted) return;
        if (error instanceof SyncFailure && !isLinkShortError(error.cause, "LINKSHORT_ABORTED")) throw error.cause;
        if (!(error instanceof SyncFailure)) this.host.failed(error);
      }
      await pause(this.store.leaseMs / 2, signal);
    }
  }
}
