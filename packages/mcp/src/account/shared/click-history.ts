/**
 * An account's click history on a store the replicas share (`--store`). The replica that holds the
 * account's sweep lease samples (every page its reads for the index see) and saves before it lets
 * the lease go; a replica takes in what was saved whenever the store has moved on, before it
 * samples or answers, so that every replica answers the same series. Reads outside the lease (a
 * get_link on a replica that does not sweep just then) are not sampled: they would be one
 * replica's alone, and lost to the next holder's save.
 */
import type { ClickHistory, ClickHistoryState, ClickHistoryStore, LinkShortClient } from "@linkshort/client";
import type { ClickHistoryHolder } from "../click-history-holder";
import type { SharedClickHistoryStore } from "../../store/history-store";
import { StoreConflictError } from "../../store/store-conflict";

/** A store whose one load is already done (a failed load must never start a history empty, which would be written over the shared one). */
const loadedFrom = (store: SharedClickHistoryStore, stored: ClickHistoryState | undefined): ClickHistoryStore => ({
  load: () => Promise.resolve(stored),
  save: (state) => store.save(state),
});

export class SharedClickHistory implements ClickHistoryHolder {
  #history: ClickHistory;
  /** Reads under the lease under way on this replica: their pages are samples, and nothing is loaded over them. */
  #sampling = 0;
  #catchingUp: Promise<ClickHistory> | undefined;
  /** This replica's saves, one after another (each stands on the revision the last one wrote). */
  #saved: Promise<void> = Promise.resolve();

  constructor(
    readonly store: SharedClickHistoryStore,
    private readonly make: (store: ClickHistoryStore) => ClickHistory,
  ) {
    this.#history = make(loadedFrom(store, undefined));
  }

  /** The history as this replica holds it now. */
  get current(): ClickHistory {
    return this.#history;
  }

  /** The history with what other replicas saved, loaded again when the store has moved on; a store that cannot be reached fails, naming it. */
  catchUp(): Promise<ClickHistory> {
    this.#catchingUp ??= this.#loadIfMoved().finally(() => (this.#catchingUp = undefined));
    return this.#catchingUp;
  }

  async #loadIfMoved(): Promise<ClickHistory> {
    // A save under way moves what the store says this replica holds: wait for it.
    await this.#saved.catch(() => undefined);
    if (this.#sampling > 0 || !(await this.store.changedSinceLoad())) return this.#history;
    const fresh = this.make(loadedFrom(this.store, await this.store.load()));
    await fresh.load();
    this.#history = fresh;
    return fresh;
  }

  /**
   * Records the totals `client`'s reads show while this replica reads under the lease, saved at the
   * history's own pace meanwhile (a sweep of a large account takes minutes: a replica killed in it
   * loses at most that much); returns the function that stops it.
   */
  observe(client: LinkShortClient): () => void {
    if (client.accountId !== this.#history.account) throw new Error("this click history is of another account than the client's");
    return client.links.watchTotals((totals) => {
      if (this.#sampling === 0) return;
      const history = this.#history;
      history.record(totals);
      // A failure here is the closing save's to report.
      void this.#save(() => history.saveIfDue()).catch(() => undefined);
    });
  }

  /** Saves one after another; a save refused because the lease was lost is no failure: the samples stay for this replica's next turn, unless another saves first. */
  #save(write: () => Promise<void>): Promise<void> {
    this.#saved = this.#saved.catch(() => undefined).then(write);
    return this.#saved.catch((error: unknown) => {
      if (!(error instanceof StoreConflictError)) throw error;
    });
  }

  /**
   * Runs `read` (the index's reads, under the account's lease) as a sample: on the history as the
   * store holds it, saved before the lease goes, even after a failed or aborted read (what was
   * sampled so far is kept). A failed save fails the work only when the read itself succeeded.
   */
  async sample(read: () => Promise<void>): Promise<void> {
    await this.catchUp();
    this.#sampling += 1;
    let readFailed = true;
    try {
      await read();
      readFailed = false;
    } finally {
      const history = this.#history;
      try {
        await this.#save(() => history.save()).catch((error: unknown) => {
          if (!readFailed) throw error;
        });
      } finally {
        // Only now: a load before the closing save ends would take a copy without its samples.
        this.#sampling -= 1;
      }
    }
  }

  /** Nothing to save after a background sample or at stop: the samples were saved under the lease. */
  saveIfDue(): Promise<void> {
    return Promise.resolve();
  }

  saveAtStop(): Promise<void> {
    return Promise.resolve();
  }
}
