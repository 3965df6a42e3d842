/** An account's state kept by this process alone: in memory, or the index in a file (`--index-file`) with its click history beside it. */
import { FileClickHistoryStore, FileIndexStore, MAX_INDEXED_ACCOUNTS, type LinkShortClient } from "@linkshort/client";
import { clientFor } from "../config/command-line";
import { AccountIndexes } from "./account-indexes";
import { ServerLinkIndex } from "./server-index";
import type { AccountState } from "./state";

export class LocalAccountState implements AccountState {
  readonly authStore = undefined;
  readonly signInsKeptIn = "sign-ins and each person's links indexed in memory";
  /** Each account's index: at most the client's bound of accounts. */
  readonly #indexes = new AccountIndexes(MAX_INDEXED_ACCOUNTS, (client) => {
    const file = this.indexFile;
    return new ServerLinkIndex(client, file === undefined ? {} : { store: new FileIndexStore(file), historyStore: FileClickHistoryStore.besideIndex(file) });
  });

  /** `indexFile`: where the index of the one account a CLI serves is kept (never with --sign-in: its people are many accounts). */
  constructor(private readonly indexFile?: string) {}

  get keptIn(): string {
    return this.indexFile === undefined
      ? "in memory; --index-file PATH keeps them"
      : `kept in ${this.indexFile} and ${FileClickHistoryStore.besideIndex(this.indexFile).path}`;
  }

  secret(): Promise<undefined> {
    return Promise.resolve(undefined);
  }

  clientFor(baseUrl: string, apiKey: string, maxWaitSeconds: number): LinkShortClient {
    return clientFor(baseUrl, apiKey, maxWaitSeconds);
  }

  indexFor(client: LinkShortClient): ServerLinkIndex {
    return this.#indexes.indexFor(client);
  }

  forgetClient(client: LinkShortClient): void {
    this.#indexes.forgetClient(client);
  }

  close(): Promise<void> {
    return this.#indexes.stop();
  }
}
