import type { IndexedLink } from "./search";

/** A link as stored: the link and the sweep that last saw it on the server. */
export interface StoredLink extends IndexedLink {
  /** The generation of the last sweep (or newest-first read) that saw the link on the server. */
  seen: number;
  /** What the link was made with that the API never shows (`hiddenOptionsKey`), when this index saw it made; absent: unknown. */
  hidden?: string;
}

/**
 * A sweep in progress: a walk of the account's pages, newest first, that finds edits and deletions.
 * It reads the first page (the newest id, `highestAtStart`), then the last (the exact count,
 * `totalAtStart`), then every page. The walk is trusted only when it saw exactly that many of the
 * links up to `highestAtStart`: links deleted by others while it walks shift the pages under it, and
 * then it reads again rather than drop a link it did not see.
 */
export interface SweepState {
  generation: number;
  phase: "probe" | "count" | "walk" | "cover";
  /** The next page to read (the last page, in the count phase). */
  page: number;
  /** The pages the list had when last read. */
  pages: number;
  startedAt: number;
  /** The highest id known when the sweep started. */
  startMaxId: number;
  /** The highest id on the first page: links up to it existed when the walk began. */
  highestAtStart: number;
  /** How many links the server held, counted at the last page before the walk; null until read. */
  totalAtStart: number | null;
  /** A run of equal dates that reached the end of the page last walked: its date and first list position. */
  openRun: { date: string; start: number } | null;
  /** Runs of equal dates that a page boundary fell inside: their first and last list positions. */
  straddled: Array<[number, number]>;
  /** The reads that cover them, once the walk is over: [page, limit, the run's first and last positions]. */
  covers: Array<[number, number, number, number]>;
  /** The page size the server answered the walk with (it may be smaller than the limit asked). */
  perpage: number;
  /** The page size the walk asks for, the same for the whole walk (absent in snapshots of earlier versions: the index's page size). */
  asked?: number;
  /** Walks of this sweep that could not be trusted before this one. */
  attempt: number;
}

/** Everything the index knows besides its links. */
export interface IndexMeta {
  version: 1;
  /** The account the links are of (`accountId`: base URL and a key digest); an index of another account is never loaded. */
  account?: string;
  /** The highest id of a completed newest-first read: a read stops at a page that reaches it. */
  frontierId: number | null;
  sweep: SweepState | null;
  /** The generation of the newest sweep (finished or not). */
  generation: number;
  lastFullSweepAt: number | null;
  lastSyncAt: number | null;
  /** How many links the server holds, as its pages imply. */
  serverCount: number | null;
  serverCountExact: boolean;
}

export interface StoredIndex {
  meta: IndexMeta;
  links: StoredLink[];
}

/** What one step of a sync changed: stores that can write only this do (cost grows with the change). */
export interface IndexChanges {
  meta: IndexMeta;
  upserted: StoredLink[];
  deleted: number[];
  /** Every link now, for a store that writes the whole index (or compacts). */
  all: () => StoredLink[];
  /** What the store held is not this index's (another account, or damaged): replace all of it with `all()`. */
  reset?: boolean;
}

/** Where an index is kept between runs. */
export interface LinkIndexStore {
  load(): Promise<StoredIndex | undefined>;
  save(changes: IndexChanges): Promise<void>;
}

/** Keeps the index for the life of the process only (the default); a save costs nothing, a load copies. */
export class MemoryIndexStore implements LinkIndexStore {
  #latest: IndexChanges | undefined;

  load(): Promise<StoredIndex | undefined> {
    return Promise.resolve(this.#latest && { meta: structuredClone(this.#latest.meta), links: this.#latest.all().map((link) => ({ ...link })) });
  }

  save(changes: IndexChanges): Promise<void> {
    this.#latest = changes;
    return Promise.resolve();
  }
}

/** Whether `value` has the shape of a stored index (a store's data may be old, foreign or damaged). */
export function isStoredIndex(value: unknown): value is StoredIndex {
  if (value === null || typeof value !== "object") return false;
  const { meta, links } = value as Partial<StoredIndex>;
  return (
    meta !== null &&
    typeof meta === "object" &&
    meta.version === 1 &&
    typeof meta.generation === "number" &&
    (meta.account === undefined || typeof meta.account === "string") &&
    Array.isArray(links) &&
    links.every(isStoredLink)
  );
}

export function isStoredLink(value: unknown): value is StoredLink {
  if (value === null || typeof value !== "object") return false;
  const link = value as Record<string, unknown>;
  return (
    Number.isSafeInteger(link.id) &&
    typeof link.alias === "string" &&
    typeof link.shorturl === "string" &&
    typeof link.longurl === "string" &&
    typeof link.title === "string" &&
    typeof link.description === "string" &&
    (link.date === null || typeof link.date === "string") &&
    typeof link.clicks === "number" &&
    typeof link.seen === "number" &&
    (link.hidden === undefined || typeof link.hidden === "string")
  );
}
