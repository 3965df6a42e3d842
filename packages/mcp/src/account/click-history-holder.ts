/**
 * Who holds an account's click history for the server's index: this process alone (memory or a
 * file beside the index), or the replicas together on a shared store (`shared/click-history.ts`).
 */
import type { ClickHistory, LinkShortClient } from "@linkshort/client";

export interface ClickHistoryHolder {
  /** The history as this process holds it now. */
  readonly current: ClickHistory;
  /** The history to answer from, loaded (on a shared store, with what other replicas saved). */
  catchUp(): Promise<ClickHistory>;
  /** Records the totals `client`'s reads show; returns the function that stops it. */
  observe(client: LinkShortClient): () => void;
  /** Runs reads of the service as samples (on a shared store, saved before the account's lease goes). */
  sample(read: () => Promise<void>): Promise<void>;
  /** Saves at the history's own pace, after a background sample (a shared history saved under the lease). */
  saveIfDue(): Promise<void>;
  /** Keeps what was sampled when the server stops (a shared history saved under the lease). */
  saveAtStop(): Promise<void>;
}

/** The history of one process: every read of the service is a sample, saved at its pace and at stop. */
export class LocalClickHistory implements ClickHistoryHolder {
  constructor(readonly current: ClickHistory) {}

  async catchUp(): Promise<ClickHistory> {
    await this.current.load();
    return this.current;
  }

  observe(client: LinkShortClient): () => void {
    return this.current.observe(client);
  }

  sample(read: () => Promise<void>): Promise<void> {
    return read();
  }

  saveIfDue(): Promise<void> {
    return this.current.saveIfDue();
  }

  async saveAtStop(): Promise<void> {
    if (this.current.size > 0) await this.current.save();
  }
}
