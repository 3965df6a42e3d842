import { createHash } from "node:crypto";
import { Cache } from "@raycast/api";
import {
  type IndexChanges,
  type IndexMeta,
  type LinkIndexStore,
  type StoredIndex,
  type StoredLink,
} from "@linkshort/client/core";

/**
 * Links are kept in buckets of consecutive ids, one cache entry each: the index reads newest
 * first and sweeps in date order, so a page of links lands in one or two buckets and a save
 * rewrites only those (and the meta), whatever the account's size.
 */
const BUCKET_SPAN = 500;
const META_KEY = "meta";
const bucketKey = (bucket: number) => `links-${bucket}`;
const bucketOf = (id: number) => Math.floor(id / BUCKET_SPAN);

/** Room for about 200,000 links; past it Raycast evicts entries, which `load` notices (the index then starts over). */
const CAPACITY_BYTES = 64 * 1024 * 1024;

interface StoredMeta {
  meta: IndexMeta;
  /** The buckets written: one missing on load means the cache evicted it. */
  buckets: number[];
}

/** The cache an index store writes to: Raycast's `Cache`, or a stand-in. */
export type IndexCache = Pick<Cache, "get" | "set" | "remove">;

/** An account (`client.accountId`) as the cache names it: a digest, so neither the Service URL nor the key is readable from the disk. */
export function accountDigest(accountId: string): string {
  return createHash("sha256").update(accountId).digest("hex").slice(0, 32);
}

/** The cache namespace of an account's link index. */
export function indexNamespace(accountId: string): string {
  return `link-index-${accountDigest(accountId)}`;
}

/** Keeps one account's link index in Raycast's cache (files in the extension's support folder). */
export class CacheIndexStore implements LinkIndexStore {
  readonly #cache: IndexCache;
  #buckets = new Set<number>();

  constructor(cache: IndexCache) {
    this.#cache = cache;
  }

  static forAccount(accountId: string): CacheIndexStore {
    return new CacheIndexStore(new Cache({ namespace: indexNamespace(accountId), capacity: CAPACITY_BYTES }));
  }

  async load(): Promise<StoredIndex | undefined> {
    try {
      const head = JSON.parse(this.#cache.get(META_KEY) ?? "null") as StoredMeta | null;
      if (!head || !Array.isArray(head.buckets)) return undefined;
      const links: StoredLink[] = [];
      for (const bucket of head.buckets) {
        const text = this.#cache.get(bucketKey(bucket));
        // An evicted bucket would hide its links from every search: start over instead.
        if (text === undefined) return this.#startOver();
        const stored: unknown = JSON.parse(text);
        if (!Array.isArray(stored)) return this.#startOver();
        links.push(...(stored as StoredLink[]));
      }
      this.#buckets = new Set(head.buckets);
      return { meta: head.meta, links };
    } catch {
      return this.#startOver();
    }
  }

  async save(changes: IndexChanges): Promise<void> {
    // What the cache held is not this index's (damaged, or of an older version): every bucket is written anew.
    const touched = new Set<number>(changes.reset ? this.#buckets : []);
    if (changes.reset) for (const link of changes.all()) touched.add(bucketOf(link.id));
    for (const link of changes.upserted) touched.add(bucketOf(link.id));
    for (const id of changes.deleted) touched.add(bucketOf(id));
    if (touched.size > 0) {
      const contents = new Map<number, StoredLink[]>([...touched].map((bucket) => [bucket, []]));
      for (const link of changes.all()) contents.get(bucketOf(link.id))?.push(link);
      for (const [bucket, links] of contents) {
        if (links.length === 0) {
          this.#cache.remove(bucketKey(bucket));
          this.#buckets.delete(bucket);
        } else {
          this.#cache.set(bucketKey(bucket), JSON.stringify(links));
          this.#buckets.add(bucket);
        }
      }
    }
    const head: StoredMeta = { meta: changes.meta, buckets: [...this.#buckets] };
    this.#cache.set(META_KEY, JSON.stringify(head));
  }

  #startOver(): undefined {
    this.#cache.remove(META_KEY);
    this.#buckets = new Set();
    return undefined;
  }
}
