import type { LinkShortClient } from "../client";
import { pageSizeToAsk, SAFE_PAGE_SIZE } from "../internal/page-size";
import type { Sleep } from "../transport";
import { ChangeLog } from "./change-log";
import { freshnessOf, type IndexFreshness } from "./freshness";
import { LinkTable } from "./link-table";
import { applyChange, seeLink } from "./link-updates";
import { SweepTurns } from "./pacing";
import { tableQuery, type IndexedLink } from "./search";
import { isStoredIndex, MemoryIndexStore, type IndexMeta, type LinkIndexStore } from "./store";
import { runSync, type SyncHost, type SyncOptions } from "./sync";

export type { IndexFreshness } from "./freshness";
export type { SyncOptions } from "./sync";

export interface LinkIndexOptions {
  /** Where the index is kept between runs; in memory by default. */
  store?: LinkIndexStore;
  /**
   * The account the index is of (`client.accountId`). A store holding another account's links (or
   * naming none) starts the index empty and is rewritten. When absent, the first client the index
   * syncs with or watches names it.
   */
  account?: string;
  /**
   * Links per page read. Default: pages of 100 for the newest links (a quiet sync reads little), and
   * for a sweep's walk the largest page the account's server gives (`internal/page-size.ts`: 1,000 until an
   * answer's `perpage` says less), fixed for the whole walk.
   */
  pageSize?: number;
  /**
   * The share of each rate-limit window a sweep may use once the first full sweep is done (the first
   * may use all but `reserve`). Default 1/3. The key's other requests count against it, and it is
   * spread over the window (`pacing.ts`): the user's own calls go first.
   */
  sweepShare?: number;
  /** Requests of each window the index always leaves to other calls. Default 2. */
  reserve?: number;
  /** How long after a full sweep the next one starts. Default 15 minutes. */
  sweepEveryMs?: number;
  /** A sync sooner than this after the last one reads nothing (typing must not spend the key's limit). Default 10 s. */
  minSyncIntervalMs?: number;
  now?: () => number;
  /** Lets `sync({ wait: true })` wait for the next window instead of stopping. */
  sleep?: Sleep;
}

/** How search results are ordered: best match (newest first among equals), or most clicks. */
export type SearchOrder = "best" | "clicks";

export interface IndexSearchResult {
  links: IndexedLink[];
  /** Links that matched, of which `links` are the best. */
  matches: number;
  freshness: IndexFreshness;
}

const emptyMeta = (): IndexMeta => ({
  version: 1,
  frontierId: null,
  sweep: null,
  generation: 0,
  lastFullSweepAt: null,
  lastSyncAt: null,
  serverCount: null,
  serverCountExact: false,
});

/**
 * A local copy of one account's links, searched instead of paging through the account (the API
 * has no search). New links are read newest first down to the ones already known: a sync with
 * nothing new costs one request. Edits and deletions are found by a sweep that walks every page
 * at a bounded share of the key's rate limit. Changes a watched client makes land at once.
 * No timers: the index advances only inside `sync` calls.
 */
export class LinkIndex {
  #account: string | undefined;
  #released = false;
  #meta: IndexMeta = emptyMeta();
  readonly #links = new LinkTable();
  readonly #log: ChangeLog;
  #loaded: Promise<void> | undefined;
  #running: Promise<IndexFreshness> | undefined;
  readonly #host: SyncHost;

  constructor(options: LinkIndexOptions = {}) {
    this.#log = new ChangeLog(options.store ?? new MemoryIndexStore(), this.#links);
    this.#account = options.account;
    const now = options.now ?? Date.now;
    const pageSize = options.pageSize;
    this.#host = {
      meta: () => this.#meta,
      links: this.#links,
      pageSize: () => pageSize ?? (this.#account === undefined ? SAFE_PAGE_SIZE : pageSizeToAsk(this.#account)),
      now: () => now(),
      see: (item, walked) => seeLink(this.#meta, this.#log, item, walked),
      drop: (id) => this.#log.drop(id),
      givenPageSize: pageSize,
      sweepEveryMs: options.sweepEveryMs ?? 15 * 60_000,
      minSyncIntervalMs: options.minSyncIntervalMs ?? 10_000,
      turns: new SweepTurns({ reserve: options.reserve ?? 2, share: options.sweepShare ?? 1 / 3, sleep: options.sleep, now: () => now() }),
      save: () => this.#save(),
      freshness: () => this.freshness(),
    };
  }

  /** Reads the store once; a damaged store, or one of another account, starts an empty index (and is rewritten). */
  load(): Promise<void> {
    this.#loaded ??= this.#log.load().then(
      (stored) => {
        // A store naming no account is of an older version or of someone else: it is not trusted either.
        if (!isStoredIndex(stored) || stored.meta.account === undefined || (this.#account !== undefined && stored.meta.account !== this.#account)) {
          if (stored !== undefined) this.#log.replaceStore();
          this.#meta.account = this.#account;
          return;
        }
        this.#meta = stored.meta;
        // A sweep saved by an older version walks another way: the next sync starts a new one.
        if (this.#meta.sweep !== null && this.#meta.sweep.phase === undefined) this.#meta.sweep = null;
        this.#account ??= stored.meta.account;
        for (const link of stored.links) this.#log.put(link);
        this.#log.loaded();
      },
      () => {
        this.#log.replaceStore();
      },
    );
    return this.#loaded;
  }

  /** Makes sure the index is of `client`'s account: one of another account starts over, empty. */
  #useAccount(client: LinkShortClient): void {
    const id = client.accountId;
    const held = this.#meta.account ?? this.#account;
    if (held !== undefined && held !== id) {
      for (const linkId of [...this.#links.ids()]) this.#log.drop(linkId);
      this.#meta = emptyMeta();
      this.#log.replaceStore();
    }
    this.#account = id;
    this.#meta.account = id;
  }

  /** Takes in no more changes from the clients it watches (an index its registry let go; those clients may live on). */
  release(): void {
    this.#released = true;
  }

  /** Keeps the index up to date with every create, update and delete `client` makes; returns the function that stops it. */
  watch(client: LinkShortClient): () => void {
    if (this.#account === undefined) this.#account = client.accountId;
    return client.links.watch((change) => {
      if (this.#released) return;
      applyChange(this.#meta, this.#log, change);
      void this.#save();
    });
  }

  /**
   * Reads what changed on the server: the newest links down to the known ones (one request when
   * nothing is new), then the sweep's next pages within its share of the rate limit. Concurrent
   * calls share one run.
   */
  sync(client: LinkShortClient, options: SyncOptions = {}): Promise<IndexFreshness> {
    this.#running ??= this.#sync(client, options).finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  /** A sync is under way (a caller that cannot wait for a whole first sweep answers from what is indexed). */
  get syncing(): boolean {
    return this.#running !== undefined;
  }

  freshness(): IndexFreshness {
    return freshnessOf(this.#meta, this.#links.size);
  }

  /**
   * The links that match `query`, best first: an exact short URL (any scheme, case, query,
   * fragment or trailing slash), alias or long URL first, then by the words found in the alias,
   * title, short URL, long URL and description; newest first among equals. An empty query
   * lists the newest links. `order: "clicks"`: the matches with the most clicks first (newest first
   * among equals), the one click order for every front end.
   */
  search(query: string, limit = 50, order: SearchOrder = "best"): IndexSearchResult {
    const { links, matches } = this.#links.search(tableQuery(query), limit, order === "clicks");
    return { links, matches, freshness: this.freshness() };
  }

  /** The link at a short URL (compared as `shortUrlKey` says). */
  findByShortUrl(address: string): IndexedLink | undefined {
    const id = this.#links.idAtShortUrl(address);
    return id === undefined ? undefined : this.#links.get(id);
  }

  /** The newest link with this alias, compared as `aliasKey` says. */
  findByAlias(alias: string): IndexedLink | undefined {
    const ids = this.#links.idsWithAlias(alias);
    return ids.length === 0 ? undefined : this.#links.get(Math.max(...ids));
  }

  /** The newest link whose long URL is exactly `longUrl` and that passes `also`. */
  findByLongUrl(longUrl: string, also: (link: IndexedLink) => boolean = () => true): IndexedLink | undefined {
    return this.#links.findByLongUrl(longUrl, also);
  }

  /** The highest link id known (0 when none): a link with an id at most this existed already. */
  highestId(): number {
    return this.#links.highestId();
  }

  /** What `id` was made with that the API never shows, as recorded by `recordHiddenOptions`; undefined when unknown. */
  hiddenOptionsOf(id: number): string | undefined {
    return this.#links.hiddenOf(id);
  }

  /** Records what a link was just made with that the API never shows (see `hiddenOptionsKey`). */
  recordHiddenOptions(id: number, key: string): void {
    const link = this.#links.stored(id);
    if (!link || link.hidden === key) return;
    this.#log.put({ ...link, hidden: key });
    void this.#save();
  }

  /** Takes in a link as its GET just showed it (another program may have changed it since the index read it). */
  confirmed(details: Pick<IndexedLink, "id" | "shorturl" | "longurl" | "title" | "description">): void {
    const known = this.#links.get(details.id);
    if (!known) return;
    seeLink(
      this.#meta,
      this.#log,
      { ...known, shorturl: details.shorturl, longurl: details.longurl, title: details.title, description: details.description },
      false,
    );
    void this.#save();
  }

  /** Drops a link the server says does not exist. */
  forget(id: number): void {
    if (!this.#links.has(id)) return;
    if (this.#meta.serverCount !== null) this.#meta.serverCount -= 1;
    this.#log.drop(id);
    void this.#save();
  }

  get(id: number): IndexedLink | undefined {
    return this.#links.get(id);
  }

  async #sync(client: LinkShortClient, options: SyncOptions): Promise<IndexFreshness> {
    await this.load();
    this.#useAccount(client);
    await runSync(this.#host, client, options);
    return this.freshness();
  }

  #save(): Promise<void> {
    return this.#log.save(this.#meta);
  }
}
