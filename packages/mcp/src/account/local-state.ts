/** An account's state kept by this process alone: in memory, or the index in a file (`--index-file`) with its click history beside it. */
import { AccountRegistry, FileClickHistoryStore, FileIndexStore, MAX_INDEXED_ACCOUNTS, type LinkShortClient } from "@linkshort/client";
import { clientFor } from "../config";
import { ServerLinkIndex } from "../server-index";
import type { AccountState } from "./state";

export class LocalAccountState implements AccountState {
  readonly authStore = undefined;
  /** Each account's index: at most the client's bound of accounts, the one let go stopped. */
  readonly #indexes = new AccountRegistry<ServerLinkIndex>(MAX_INDEXED_ACCOUNTS, (evicted) => void evicted.stop());

  /** `indexFile`: where the index of the one account a CLI serves is kept. */
  constructor(private readonly indexFile?: string) {}

  get keptIn(): string {
    return this.indexFile === undefined ? "in memory; --index-file PATH keeps them" : `kept in ${this.indexFile} and ${FileClickHistoryStore.besideIndex(this.indexFile).path}`;
  }

  secret(): Promise<undefined> {
    return Promise.resolve(undefined);
  }

  clientFor(baseUrl: string, apiKey: string, maxWaitSeconds: number): LinkShortClient {
    return clientFor(baseUrl, apiKey, maxWaitSeconds);
  }

  indexFor(client: LinkShortClient): ServerLinkIndex {
    const file = this.indexFile;
    const index = this.#indexes.get(client.accountId, () => new ServerLinkIndex(client, file === undefined ? {} : { store: new FileIndexStore(file), historyStore: FileClickHistoryStore.besideIndex(file) }));
    index.follow(client);
    return index;
  }

  forgetClient(client: LinkShortClient): void {
    for (const index of this.#indexes.values()) index.unfollow(client);
  }

  async close(): Promise<void> {
    await Promise.all([...this.#indexes.values()].map((index) => index.stop()));
  }
}
