import {
  freshnessSentence,
  isLinkShortError,
  LinkIndexRegistry,
  type IndexFreshness,
  type LinkIndex,
  type LinkShortClient,
  type SyncOptions,
} from "@linkshort/client/core";
import { getChosenAccount, type Account } from "./accounts";
import { getClient, sleep } from "./client";
import { CacheIndexStore } from "./index-store";

export interface AccountIndex {
  client: LinkShortClient;
  index: LinkIndex;
}

/** One index per account in this process, shared by every view and tool, watching the account's clients. */
const registry = new LinkIndexRegistry();

/** The account's client and its link index (kept in Raycast's cache, loaded on first use). */
export function getAccountIndex(account: Account = getChosenAccount()): AccountIndex {
  const client = getClient(account);
  const index = registry.indexFor(client, () => ({ store: CacheIndexStore.forAccount(client.accountId), sleep }));
  return { client, index };
}

/**
 * Syncs the index. A sync already under way is shared; when it was started by a view that has
 * closed since, it ends aborted, and this call starts its own.
 */
export async function syncIndex({ client, index }: AccountIndex, options: SyncOptions = {}): Promise<IndexFreshness> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await index.sync(client, options);
    } catch (error) {
      if (!isLinkShortError(error, "LINKSHORT_ABORTED") || options.signal?.aborted || attempt > 0) throw error;
    }
  }
}

/** One line on how far the index is (the client's sentence): "Indexed 3,200 of about 10,000 links", or how fresh a complete one is. */
export function freshnessLine(freshness: IndexFreshness, now = Date.now()): string {
  return freshnessSentence(freshness, { now });
}
