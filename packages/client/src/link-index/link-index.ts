import type { LinkShortClient } from "../client";
import { AbortedError } from "../errors";
import { PagePromise } from "../pagination";
import { pageSizeToAsk, recordPageSize, SAFE_PAGE_SIZE } from "../page-size";
import type { RequestOptions } from "../resources/shared";
import type { LinkChange } from "../resources/links";
import type { Link, Page } from "../schemas";
import type { Sleep } from "../transport";
import { LinkTable } from "./link-table";
import { tableQuery, type IndexedLink } from "./search";
import { aliasFromShortUrl } from "../addresses";
import { isStoredIndex, MemoryIndexStore, type IndexChanges, type IndexMeta, type LinkIndexStore, type StoredLink } from "./store";
import { SweepPacer } from "./pacing";
import { startSweep, sweepStep, type SweepHost } from "./sweep";

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
   * for a sweep's walk the largest page the account's server gives (`page-size.ts`: 1,000 until an
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

export interface SyncOptions {
  signal?: AbortSignal;
  /** The most sweep pages this call reads (a host without timers advances a bounded step per call). Default: no bound. */
  maxSweepPages?: number;
  /** When the sweep's share of the window is spent, wait for the next window (needs `sleep`) instead of returning. */
  wait?: boolean;
  /** Read the newest links even if the last sync was a moment ago. */
  force?: boolean;
  onProgress?: (freshness: IndexFreshness) => void;
}

/** How fresh an answer from the index is. */
export interface IndexFreshness {
  /** Links in the index. */
  known: number;
  /** How many links the server holds, as its pages imply; null before the first read. */
  serverCount: number | null;
  /** `serverCount` was counted to the end of the list, not estimated from the page count. */
  serverCountExact: boolean;
  /** A full sweep has finished: every link that existed then is in the index. */
  complete: boolean;
  /** When the last full sweep finished (epoch ms). */
  lastFullSweepAt: number | null;
  /** When the newest links were last read (epoch ms). */
  lastSyncAt: number | null;
  /** The sweep under way: the next page of how many. */
  sweep: { page: number; pages: number } | null;
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
  readonly #store: LinkIndexStore;
  readonly #pageSize: number | undefined;
  readonly #sweepShare: number;
  readonly #sweepEveryMs: number;
  readonly #minSyncIntervalMs: number;
  readonly #now: () => number;
  readonly #sleep: Sleep | undefined;

  #account: string | undefined;
  #released = false;
  /** The store holds what is not this index's: the next save replaces it. */
  #resetStore = false;
  #meta: IndexMeta = emptyMeta();
  readonly #links = new LinkTable();
  #loaded: Promise<void> | undefined;
  #running: Promise<IndexFreshness> | undefined;
  /** What has changed since the last save. */
  #upserted = new Set<number>();
  #deleted = new Set<number>();
  readonly #pacer: SweepPacer;
  readonly #sweepHost: SweepHost;

  constructor(options: LinkIndexOptions = {}) {
    this.#store = options.store ?? new MemoryIndexStore();
    this.#account = options.account;
    this.#pageSize = options.pageSize;
    this.#sweepShare = options.sweepShare ?? 1 / 3;
    this.#pacer = new SweepPacer(options.reserve ?? 2);
    this.#sweepEveryMs = options.sweepEveryMs ?? 15 * 60_000;
    this.#minSyncIntervalMs = options.minSyncIntervalMs ?? 10_000;
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep;
    this.#sweepHost = {
      meta: () => this.#meta,
      links: this.#links,
      pageSize: () => this.#pageSize ?? (this.#account === undefined ? SAFE_PAGE_SIZE : pageSizeToAsk(this.#account)),
      now: () => this.#now(),
      see: (item, walked) => this.#see(item, walked),
      drop: (id) => this.#drop(id),
    };
  }

  /** Reads the store once; a damaged store, or one of another account, starts an empty index (and is rewritten). */
  load(): Promise<void> {
    this.#loaded ??= this.#store.load().then(
      (stored) => {
        // A store naming no account is of an older version or of someone else: it is not trusted either.
        if (!isStoredIndex(stored) || stored.meta.account === undefined || (this.#account !== undefined && stored.meta.account !== this.#account)) {
          this.#resetStore = stored !== undefined;
          this.#meta.account = this.#account;
          return;
        }
        this.#meta = stored.meta;
        // A sweep saved by an older version walks another way: the next sync starts a new one.
        if (this.#meta.sweep !== null && this.#meta.sweep.phase === undefined) this.#meta.sweep = null;
        this.#account ??= stored.meta.account;
        for (const link of stored.links) this.#put(link);
        this.#upserted.clear();
      },
      () => {
        this.#resetStore = true;
      },
    );
    return this.#loaded;
  }

  /** Makes sure the index is of `client`'s account: one of another account starts over, empty. */
  #useAccount(client: LinkShortClient): void {
    const id = client.accountId;
    const held = this.#meta.account ?? this.#account;
    if (held !== undefined && held !== id) {
      for (const linkId of [...this.#links.ids()]) this.#drop(linkId);
      this.#meta = emptyMeta();
      this.#resetStore = true;
    }
    this.#account = id;
    this.#meta.account = id;
  }

  /** Keeps the index up to date with every create, update and delete `client` makes; returns the function that stops it. */
  /** Takes in no more changes from the clients it watches (an index its registry let go; those clients may live on). */
  release(): void {
    this.#released = true;
  }

  watch(client: LinkShortClient): () => void {
    if (this.#account === undefined) this.#account = client.accountId;
    return client.links.watch((change) => this.#apply(change));
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
    const sweep = this.#meta.sweep;
    return {
      known: this.#links.size,
      serverCount: this.#meta.serverCount,
      serverCountExact: this.#meta.serverCountExact,
      complete: this.#meta.lastFullSweepAt !== null,
      lastFullSweepAt: this.#meta.lastFullSweepAt,
      lastSyncAt: this.#meta.lastSyncAt,
      sweep: sweep && { page: sweep.page, pages: sweep.pages },
    };
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
    this.#put({ ...link, hidden: key });
    void this.#save();
  }

  /** Takes in a link as its GET just showed it (another program may have changed it since the index read it). */
  confirmed(details: Pick<IndexedLink, "id" | "shorturl" | "longurl" | "title" | "description">): void {
    const known = this.#links.get(details.id);
    if (!known) return;
    this.#see({ ...known, shorturl: details.shorturl, longurl: details.longurl, title: details.title, description: details.description }, false);
    void this.#save();
  }

  /** Drops a link the server says does not exist. */
  forget(id: number): void {
    if (!this.#links.has(id)) return;
    if (this.#meta.serverCount !== null) this.#meta.serverCount -= 1;
    this.#drop(id);
    void this.#save();
  }

  get(id: number): IndexedLink | undefined {
    return this.#links.get(id);
  }

  // ---- reading the server

  async #sync(client: LinkShortClient, options: SyncOptions): Promise<IndexFreshness> {
    await this.load();
    this.#useAccount(client);
    const { signal } = options;
    const startedAt = this.#now();
    try {
      const recent = this.#meta.lastSyncAt !== null && startedAt - this.#meta.lastSyncAt < this.#minSyncIntervalMs;
      if (this.#meta.frontierId !== null && (options.force || !recent)) {
        await this.#readNewest(client, signal);
        this.#meta.lastSyncAt = startedAt;
        await this.#save();
        options.onProgress?.(this.freshness());
      }
      let budget = options.maxSweepPages ?? Number.POSITIVE_INFINITY;
      let sweepsStarted = 0;
      while (budget > 0) {
        if (this.#meta.sweep === null) {
          const due = this.#meta.lastFullSweepAt === null || this.#now() - this.#meta.lastFullSweepAt >= this.#sweepEveryMs;
          // One sweep at most per call: a call ends when the walk it began is done.
          if (!due || sweepsStarted > 0) break;
          startSweep(this.#sweepHost);
          sweepsStarted += 1;
        }
        if (!this.#pacer.mayRead(client.rateLimitHeadroom(), this.#sweepShareNow(), this.#now())) {
          if (!options.wait || !(await this.#waitForWindow(client, signal))) break;
          continue;
        }
        budget -= 1;
        this.#pacer.sent();
        await sweepStep(this.#sweepHost, async (page, limit) => {
          const answer = await this.#readPage(client, page, signal, limit);
          // What the walk's size teaches about the server; a read that covers a run of equal dates asks for less on purpose.
          if (this.#pageSize === undefined && limit === this.#meta.sweep?.asked) recordPageSize(client.accountId, limit, answer.perpage);
          return answer;
        });
        if (this.#meta.frontierId !== null && this.#meta.lastSyncAt === null) this.#meta.lastSyncAt = startedAt;
        await this.#save();
        options.onProgress?.(this.freshness());
      }
    } finally {
      await this.#save();
    }
    return this.freshness();
  }

  #readPage(client: LinkShortClient, page: number, signal: AbortSignal | undefined, limit = this.#pageSize ?? SAFE_PAGE_SIZE): Promise<Page<Link>> {
    const options: RequestOptions = signal ? { signal } : {};
    return Promise.resolve(client.links.list({ order: "date", limit, page }, options));
  }

  /** New links: newest-first pages down to one that reaches the frontier (one request when nothing is new). */
  async #readNewest(client: LinkShortClient, signal: AbortSignal | undefined): Promise<void> {
    const frontier = this.#meta.frontierId!;
    let highest = frontier;
    for (let requested = 1; ; requested += 1) {
      const page = await this.#readPage(client, requested, signal);
      let reached = false;
      for (const item of page.items) {
        if (item.id > frontier && !this.#links.has(item.id) && this.#meta.serverCount !== null) this.#meta.serverCount += 1;
        this.#see(item, false);
        highest = Math.max(highest, item.id);
        if (item.id <= frontier) reached = true;
      }
      if (reached || PagePromise.isLastPage(page, requested)) break;
    }
    this.#meta.frontierId = highest;
  }

  #sweepShareNow(): number {
    return this.#meta.lastFullSweepAt === null ? 1 : this.#sweepShare;
  }

  /** Sleeps until the sweep may read again (a later moment of the window, or the next one); false when there is no sleep or no known time. */
  async #waitForWindow(client: LinkShortClient, signal: AbortSignal | undefined): Promise<boolean> {
    const headroom = client.rateLimitHeadroom();
    const at = headroom && this.#pacer.nextReadAt(headroom, this.#sweepShareNow(), this.#now());
    if (this.#sleep === undefined || at === undefined) return false;
    if (signal?.aborted) throw new AbortedError();
    await this.#sleep(Math.max(50, at - this.#now() + (at === headroom?.resetAt ? 50 : 0)), signal);
    return true;
  }

  // ---- keeping the links

  #apply(change: LinkChange): void {
    if (this.#released) return;
    if (change.kind === "deleted") {
      if (this.#links.has(change.id) && this.#meta.serverCount !== null) this.#meta.serverCount -= 1;
      this.#drop(change.id);
    } else {
      const known = this.#links.stored(change.id);
      if (!known && change.kind === "created" && this.#meta.serverCount !== null) this.#meta.serverCount += 1;
      const shorturl = change.shorturl || known?.shorturl || "";
      this.#put({
        id: change.id,
        alias: aliasFromShortUrl(shorturl) || known?.alias || "",
        shorturl,
        longurl: change.longurl,
        title: change.title ?? known?.title ?? "",
        description: change.description ?? known?.description ?? "",
        date: known?.date ?? null,
        clicks: known?.clicks ?? 0,
        // Not seen by a walk: a sweep under way must still find it on its pages.
        seen: known?.seen ?? this.#meta.generation - 1,
        // An update may have changed what the API never shows; a create is recorded by whoever made it.
        ...(change.kind === "created" && known?.hidden !== undefined ? { hidden: known.hidden } : {}),
      });
    }
    void this.#save();
  }

  /**
   * Records a link as the server just showed it. `walked`: shown by the sweep's walk, which counts
   * it as seen; other reads (the newest links, a GET, the sweep's first and last page) change what
   * it says but not whether the walk saw it.
   */
  #see(item: IndexedLink, walked: boolean): void {
    const knownSeen = this.#links.seenOf(item.id);
    const seen = walked ? this.#meta.generation : (knownSeen ?? this.#meta.generation - 1);
    const link: StoredLink = {
      id: item.id,
      alias: item.alias,
      shorturl: item.shorturl,
      longurl: item.longurl,
      title: item.title,
      description: item.description,
      date: item.date,
      clicks: item.clicks,
      seen,
    };
    const hidden = this.#links.hiddenOf(item.id);
    if (hidden !== undefined) link.hidden = hidden;
    if (knownSeen !== undefined && this.#links.holds(link)) {
      // Saved too: after a restart in the middle of a sweep, a link the walk saw must not look unseen.
      if (knownSeen !== seen) {
        this.#links.setSeen(item.id, seen);
        this.#upserted.add(item.id);
      }
      return;
    }
    this.#put(link);
  }

  #put(link: StoredLink): void {
    this.#links.put(link);
    this.#upserted.add(link.id);
    this.#deleted.delete(link.id);
  }

  #drop(id: number): void {
    if (!this.#links.drop(id)) return;
    this.#upserted.delete(id);
    this.#deleted.add(id);
  }

  /** Hands what changed since the last save to the store; saves run one at a time, in order. */
  #save(): Promise<void> {
    if (this.#upserted.size === 0 && this.#deleted.size === 0 && !this.#resetStore && !this.#metaChanged()) return this.#saving;
    const changes: IndexChanges = {
      meta: structuredClone(this.#meta),
      upserted: [...this.#upserted].flatMap((id) => this.#links.stored(id) ?? []),
      deleted: [...this.#deleted],
      all: () => this.#links.all(),
      ...(this.#resetStore ? { reset: true } : {}),
    };
    this.#resetStore = false;
    this.#upserted = new Set();
    this.#deleted = new Set();
    this.#savedMeta = JSON.stringify(changes.meta);
    this.#saving = this.#saving.then(() => this.#store.save(changes)).catch(() => undefined);
    return this.#saving;
  }

  #savedMeta = "";
  #saving: Promise<void> = Promise.resolve();

  #metaChanged(): boolean {
    return JSON.stringify(this.#meta) !== this.#savedMeta;
  }
}
