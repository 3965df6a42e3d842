/**
 * The links of an index, kept small (one packed record a link, `packed-link.ts`, kept by
 * `link-slots.ts` with the trigram filter of their text); looked up by id, short URL, alias and
 * long URL, and searched (`search.ts` ranks).
 */
import { aliasKey, shortUrlKey } from "../addresses";
import { LinkSlots } from "./link-slots";
import { mixedOf, packDate, seenAndMixedOf, seenOf, unpackDate, type Entry } from "./packed-link";
import { filterWords, keepBest, rankEntry, RANK, type IndexedLink, type Scored, type TableQuery } from "./search";
import type { StoredLink } from "./store";

export interface LinkTableOptions {
  /** Keep the trigram filter (default): a search reads the links that may match instead of every link. */
  filtered?: boolean;
}

export class LinkTable {
  readonly #entries: LinkSlots;
  /** What links were made with that the API never shows, for the few this index saw made. */
  readonly #hidden = new Map<number, string>();
  readonly #prefixes: string[] = [];
  readonly #prefixIndex = new Map<string, number>();
  /** Each prefix's host and path as `shortUrlKey` writes them, and its path alone. */
  readonly #prefixKeys: string[] = [];
  readonly #prefixPaths: string[] = [];
  #highest: number | undefined = 0;
  readonly #shortPathOf = (entry: Entry) => this.#shortPath(entry);

  constructor(options: LinkTableOptions = {}) {
    this.#entries = new LinkSlots(options.filtered !== false, (entry) => this.#searchedTexts(entry));
  }

  get size(): number {
    return this.#entries.size;
  }

  has(id: number): boolean {
    return this.#entries.get(id) !== undefined;
  }

  *ids(): IterableIterator<number> {
    for (const entry of this.#entries.entries()) yield entry.id;
  }

  seenOf(id: number): number | undefined {
    const entry = this.#entries.get(id);
    return entry && seenOf(entry);
  }

  setSeen(id: number, seen: number): void {
    const entry = this.#entries.get(id);
    if (entry) entry.seenAndMixed = seen * 16 + mixedOf(entry);
  }

  hiddenOf(id: number): string | undefined {
    return this.#hidden.get(id);
  }

  get(id: number): IndexedLink | undefined {
    const entry = this.#entries.get(id);
    return entry && this.#link(entry);
  }

  stored(id: number): StoredLink | undefined {
    const entry = this.#entries.get(id);
    return entry && this.#stored(entry);
  }

  all(): StoredLink[] {
    return Array.from(this.#entries.entries(), (entry) => this.#stored(entry));
  }

  highestId(): number {
    if (this.#highest === undefined) {
      let highest = 0;
      for (const entry of this.#entries.entries()) if (entry.id > highest) highest = entry.id;
      this.#highest = highest;
    }
    return this.#highest;
  }

  /** Whether `link` says what the table holds for it (its `seen` aside). */
  holds(link: StoredLink): boolean {
    const entry = this.#entries.get(link.id);
    if (!entry) return false;
    return (
      entry.alias === link.alias &&
      this.#shortUrl(entry) === link.shorturl &&
      entry.longurl === link.longurl &&
      entry.title === link.title &&
      entry.description === link.description &&
      unpackDate(entry.date) === link.date &&
      entry.clicks === link.clicks &&
      this.#hidden.get(link.id) === link.hidden
    );
  }

  put(link: StoredLink): void {
    const entry: Entry = {
      id: link.id,
      alias: link.alias,
      short: this.#shortOf(link.alias, link.shorturl),
      longurl: link.longurl,
      title: link.title,
      description: link.description,
      date: packDate(link.date),
      clicks: link.clicks,
      seenAndMixed: seenAndMixedOf(link),
    };
    this.#entries.set(entry);
    if (link.hidden === undefined) this.#hidden.delete(link.id);
    else this.#hidden.set(link.id, link.hidden);
    if (this.#highest !== undefined && link.id > this.#highest) this.#highest = link.id;
  }

  drop(id: number): boolean {
    if (!this.#entries.delete(id)) return false;
    this.#hidden.delete(id);
    if (id === this.#highest) this.#highest = undefined;
    return true;
  }

  /** The ids with this alias (as `aliasKey` compares). */
  idsWithAlias(alias: string): number[] {
    return this.#entries.withAlias(aliasKey(alias)).map((entry) => entry.id);
  }

  /** The id of the link at a short URL (compared as `shortUrlKey` says). */
  idAtShortUrl(address: string): number | undefined {
    const key = shortUrlKey(address);
    if (key === undefined || !key.includes("/")) return undefined;
    return this.#entries.withAlias(aliasKey(key.slice(key.lastIndexOf("/") + 1))).find((entry) => this.#shortKey(entry) === key)?.id;
  }

  /** The newest link whose long URL is exactly `longUrl` and that passes `also`. */
  findByLongUrl(longUrl: string, also: (link: IndexedLink) => boolean): IndexedLink | undefined {
    const matching: Entry[] = [];
    this.#entries.eachCandidate([longUrl], [], (entry) => {
      if (entry.longurl === longUrl) matching.push(entry);
    });
    matching.sort((a, b) => b.id - a.id);
    for (const entry of matching) {
      const link = this.#link(entry);
      if (also(link)) return link;
    }
    return undefined;
  }

  /**
   * The best `limit` matches of `query` and how many matched: by rank, newest first among equals;
   * or (`byClicks`) the most clicked first, newest first among equals.
   */
  search(query: TableQuery, limit: number, byClicks: boolean): { links: IndexedLink[]; matches: number } {
    const exactShort = query.shortKey === undefined ? undefined : this.idAtShortUrl(query.shortKey);
    const exact = this.#entries.withAlias(aliasKey(query.alias));
    if (exactShort !== undefined) exact.push(this.#entries.get(exactShort)!);
    const best: Scored[] = [];
    /** The worst of the best once `limit` are kept: what ranks below it is left out at once. */
    let floor: Scored | undefined;
    let matches = 0;
    this.#entries.eachCandidate(filterWords(query, this.#prefixPaths), exact, (entry) => {
      const rank = entry.id === exactShort ? RANK.shortUrl : rankEntry(entry, query, this.#prefixPaths, this.#shortPathOf);
      if (rank === 0) return;
      matches += 1;
      const score = byClicks ? entry.clicks : rank;
      if (floor !== undefined && (score < floor.score || (score === floor.score && entry.id < floor.entry.id))) return;
      best.push({ score, entry });
      if (best.length > limit * 2 + 64) floor = keepBest(best, limit);
    });
    keepBest(best, limit);
    return { links: best.map(({ entry }) => this.#link(entry)), matches };
  }

  /** What `rankEntry` searches in: a short URL made of a prefix is searched through its alias and the prefix's path. */
  #searchedTexts(entry: Entry): string[] {
    const texts = [entry.alias, entry.longurl, entry.title, entry.description];
    if (typeof entry.short === "string") texts.push(this.#shortPath(entry));
    return texts;
  }

  /** A prefix's index when the short URL is prefix + alias, else the short URL itself. */
  #shortOf(alias: string, shorturl: string): number | string {
    if (alias === "" || !shorturl.endsWith(`/${alias}`)) return shorturl;
    const prefix = shorturl.slice(0, shorturl.length - alias.length);
    let index = this.#prefixIndex.get(prefix);
    if (index === undefined) {
      const key = shortUrlKey(`${prefix}x`);
      if (key === undefined) return shorturl;
      index = this.#prefixes.length;
      this.#prefixes.push(prefix);
      this.#prefixIndex.set(prefix, index);
      this.#prefixKeys.push(key.slice(0, -1));
      this.#prefixPaths.push(key.includes("/") ? key.slice(key.indexOf("/") + 1, -1) : "");
    }
    return index;
  }

  #shortUrl(entry: Entry): string {
    return typeof entry.short === "number" ? `${this.#prefixes[entry.short]}${entry.alias}` : entry.short;
  }

  #shortKey(entry: Entry): string | undefined {
    return typeof entry.short === "number" ? `${this.#prefixKeys[entry.short]}${entry.alias.toLowerCase()}` : shortUrlKey(entry.short);
  }

  /** The short URL's path: its host is the same for most links, and matching words in it would be noise. */
  #shortPath(entry: Entry): string {
    const key = this.#shortKey(entry);
    return key === undefined || !key.includes("/") ? "" : key.slice(key.indexOf("/") + 1);
  }

  #link(entry: Entry): IndexedLink {
    const { id, alias, longurl, title, description, clicks } = entry;
    return { id, alias, shorturl: this.#shortUrl(entry), longurl, title, description, date: unpackDate(entry.date), clicks };
  }

  #stored(entry: Entry): StoredLink {
    const link: StoredLink = { ...this.#link(entry), seen: seenOf(entry) };
    const hidden = this.#hidden.get(entry.id);
    if (hidden !== undefined) link.hidden = hidden;
    return link;
  }
}
