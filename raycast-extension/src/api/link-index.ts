import {
  AbortedError,
  LinkIndex,
  type IndexFreshness,
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

/** One index per account in this process, shared by every view and tool, watching the account's client. */
const indexes = new Map<LinkShortClient, LinkIndex>();

/** The account's client and its link index (kept in Raycast's cache, loaded on first use). */
export function getAccountIndex(account: Account = getChosenAccount()): AccountIndex {
  const client = getClient(account);
  let index = indexes.get(client);
  if (!index) {
    index = new LinkIndex({ store: CacheIndexStore.forAccount(account.baseUrl, account.apiKey), sleep });
    index.watch(client);
    indexes.set(client, index);
    // Clients past the client cache's bound are gone: their indexes go with them.
    if (indexes.size > 8) indexes.delete(indexes.keys().next().value!);
  }
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
      if (!(error instanceof AbortedError) || options.signal?.aborted || attempt > 0) throw error;
    }
  }
}

const count = (value: number) => value.toLocaleString("en-US");

function ago(at: number, now: number): string {
  const minutes = Math.round((now - at) / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}

/** One line on how far the index is: "Indexed 3,200 of about 10,000 links", or how fresh a complete one is. */
export function freshnessLine(freshness: IndexFreshness, now = Date.now()): string {
  if (!freshness.complete) {
    if (freshness.serverCount === null) return "Indexing your links…";
    const about = freshness.serverCountExact ? "" : "about ";
    return `Indexed ${count(freshness.known)} of ${about}${count(freshness.serverCount)} links`;
  }
  const checked = freshness.lastFullSweepAt === null ? "" : `, all checked ${ago(freshness.lastFullSweepAt, now)}`;
  const synced = freshness.lastSyncAt === null ? "" : `; new links read ${ago(freshness.lastSyncAt, now)}`;
  return `${count(freshness.known)} links${checked}${synced}`;
}
