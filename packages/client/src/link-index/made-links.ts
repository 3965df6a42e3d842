/**
 * The record of the links a host made for one account, with what each was made with that the API
 * never shows (redirect type, parameters, and whether it has a password: as a digest; the password
 * as a slow salted hash, never the password), and a digest of what identifies it (long URL, alias,
 * domain, title, description), so that a row finds its link's id in the record, whatever the link
 * index has read so far (after a restart, the index reads the newest links first). The host keeps it where its runs share it (n8n: the
 * workflow's static data), so that reuse can prove a link after a restart (and on another worker,
 * where the host hands its workers the record).
 * Bounded (`MAX_MADE_LINKS`, the newest kept), and merged with what another run saved.
 */
import { createHash, randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import * as z from "zod/v4";
import { BoundedMap } from "../internal/bounded-map";

/** Links a record keeps at most: the newest (highest ids). About 44 bytes each as JSON, 83 with a password (bench row 21). */
export const MAX_MADE_LINKS = 10_000;

/**
 * scrypt's cost for a link's password: N 4096, r 8, p 1 (4 MiB; its time: bench row 18). One hash per row
 * that gives a password (when the link is made, or when a reuse compares it).
 */
const SCRYPT_COST = { N: 2 ** 12, r: 8, p: 1, maxmem: 32 * 1024 * 1024 };
const SALT_BYTES = 12;
const HASH_BYTES = 16;
/**
 * An entry: the options' digest (16 base64url characters); with a password `.`, the salt (16) and the hash (22);
 * then `:` and the digest of what was asked (12), which entries saved before it was kept lack (their links are
 * then found through the link index only).
 */
const ENTRY = /^([\w-]{16})(?:\.([\w-]{16})([\w-]{22}))?(?::([\w-]{12}))?$/;

/** A record as the host keeps it (JSON): each link's entry by id. Entries that cannot be read are left out one by one. */
const MadeLinksStateSchema = z.object({ version: z.literal(1), links: z.record(z.string(), z.unknown()) });
export type MadeLinksState = { version: 1; links: Record<string, string> };

const digest = (key: string, length: number) => createHash("sha256").update(key).digest("base64url").slice(0, length);
const optionsDigest = (optionsKey: string) => digest(optionsKey, 16);
const askedDigest = (askedKey: string) => digest(askedKey, 12);

function slowHash(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, HASH_BYTES, SCRYPT_COST, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/**
 * The entry of a link made with `optionsKey` (`hiddenOptionsKey` of the create body: redirect
 * type, parameters, whether a password) and `password`: a salted scrypt hash of it, when given;
 * `askedKey` (`askedKey` of the body: what identifies the link) lets a row find it in the record.
 */
export async function madeLinkEntry(optionsKey: string, password: string | undefined, askedKey?: string): Promise<string> {
  const asked = askedKey === undefined ? "" : `:${askedDigest(askedKey)}`;
  if (password === undefined) return `${optionsDigest(optionsKey)}${asked}`;
  const salt = randomBytes(SALT_BYTES);
  return `${optionsDigest(optionsKey)}.${salt.toString("base64url")}${(await slowHash(password, salt)).toString("base64url")}${asked}`;
}

/** An entry's parts; undefined for one that cannot be read. */
function entryParts(entry: string): { options: string; salt?: string; hash?: string; asked?: string } | undefined {
  const parts = ENTRY.exec(entry);
  if (!parts) return undefined;
  return { options: parts[1]!, salt: parts[2], hash: parts[3], asked: parts[4] };
}

/**
 * The ids of links changed or deleted since this program started: what a record saved earlier (by a run that
 * began before the change) says of them is not believed. One per account, shared by its records.
 */
export class ForgottenLinks {
  readonly #ids = new BoundedMap<number, true>(MAX_MADE_LINKS);

  add(id: number): void {
    this.#ids.set(id, true);
  }

  has(id: number): boolean {
    return this.#ids.has(id);
  }
}

/** The entries of a kept record that can be read; anything else (another version, damage) counts as none. */
function savedLinks(saved: unknown): Map<number, string> {
  const links = new Map<number, string>();
  const state = MadeLinksStateSchema.safeParse(saved);
  if (!state.success) return links;
  for (const [key, entry] of Object.entries(state.data.links)) {
    const id = Number(key);
    if (Number.isSafeInteger(id) && id > 0 && typeof entry === "string" && ENTRY.test(entry)) links.set(id, entry);
  }
  return links;
}

/**
 * One account's record of the links made, in one running program: entries recorded here, and those merged
 * from what runs saved. An entry only ever says what a link was made with; one missing (never
 * recorded, lost to a save at the same time, beyond the bound) only means the link is not reused.
 */
export class MadeLinks {
  readonly #links = new Map<number, string>();
  /** The ids recorded with each digest of what was asked. */
  readonly #byAsked = new Map<string, Set<number>>();
  readonly #forgotten: ForgottenLinks;
  #revision = 0;

  constructor(forgotten: ForgottenLinks = new ForgottenLinks()) {
    this.#forgotten = forgotten;
  }

  /** Counts the changes to the entries: a host writes the record again when it moved. */
  get revision(): number {
    return this.#revision;
  }

  get size(): number {
    return this.#links.size;
  }

  /**
   * Takes in a record a run saved (this workflow's, after a restart, or another execution's): the
   * entries this one lacks, unless their links were changed or deleted here since.
   * Returns whether `saved` differs from the record now (so the host should write it again).
   */
  merge(saved: unknown): boolean {
    const links = savedLinks(saved);
    for (const [id, entry] of links) {
      if (!this.#links.has(id) && !this.#forgotten.has(id)) this.#set(id, entry);
    }
    this.#bound();
    if (links.size !== this.#links.size) return true;
    for (const [id, entry] of this.#links) if (links.get(id) !== entry) return true;
    return false;
  }

  /** The record as the host keeps it. */
  state(): MadeLinksState {
    const links: Record<string, string> = {};
    for (const [id, entry] of this.#links) links[String(id)] = entry;
    return { version: 1, links };
  }

  /** Records that link `id` was just made with `entry` (`madeLinkEntry`). */
  record(id: number, entry: string): void {
    if (this.#links.get(id) === entry) return;
    this.#set(id, entry);
    this.#revision += 1;
    this.#bound();
  }

  /** Drops link `id` (changed or deleted since it was made), here and in what is merged later. */
  forget(id: number): void {
    this.#forgotten.add(id);
    if (this.#delete(id)) this.#revision += 1;
  }

  has(id: number): boolean {
    return this.#links.has(id);
  }

  /**
   * The newest link recorded as made when `askedKey` (`askedKey`: long URL, alias, domain, title,
   * description) and `optionsKey` (`hiddenOptionsKey`) were asked; undefined when none.
   */
  madeAsAsked(askedKey: string, optionsKey: string): number | undefined {
    let newest: number | undefined;
    for (const id of this.#byAsked.get(askedDigest(askedKey)) ?? []) {
      if ((newest === undefined || id > newest) && this.madeWithOptions(id, optionsKey)) newest = id;
    }
    return newest;
  }

  /** Whether some link is recorded as made when `askedKey` was asked (with whatever options). */
  madeWhenAsked(askedKey: string): boolean {
    return this.#byAsked.has(askedDigest(askedKey));
  }

  /** Whether link `id` is recorded as made with `optionsKey` (`hiddenOptionsKey`: with a password, only that it had one). */
  madeWithOptions(id: number, optionsKey: string): boolean {
    const entry = this.#links.get(id);
    return entry !== undefined && entryParts(entry)?.options === optionsDigest(optionsKey);
  }

  /** Whether link `id` is recorded as made with `password`, compared through the hash the record keeps (one scrypt). */
  async madeWithPassword(id: number, password: string): Promise<boolean> {
    const entry = this.#links.get(id);
    const parts = entry === undefined ? undefined : entryParts(entry);
    if (parts?.salt === undefined || parts.hash === undefined) return false;
    const hash = Buffer.from(parts.hash, "base64url");
    return timingSafeEqual(await slowHash(password, Buffer.from(parts.salt, "base64url")), hash);
  }

  #set(id: number, entry: string): void {
    this.#delete(id);
    this.#links.set(id, entry);
    const asked = entryParts(entry)?.asked;
    if (asked === undefined) return;
    const ids = this.#byAsked.get(asked);
    if (ids) ids.add(id);
    else this.#byAsked.set(asked, new Set([id]));
  }

  #delete(id: number): boolean {
    const entry = this.#links.get(id);
    if (entry === undefined) return false;
    this.#links.delete(id);
    const asked = entryParts(entry)?.asked;
    const ids = asked === undefined ? undefined : this.#byAsked.get(asked);
    ids?.delete(id);
    if (ids?.size === 0) this.#byAsked.delete(asked!);
    return true;
  }

  /** Keeps the newest `MAX_MADE_LINKS` (ids only grow): an old link dropped costs at most a duplicate. */
  #bound(): void {
    if (this.#links.size <= MAX_MADE_LINKS) return;
    const ids = [...this.#links.keys()].sort((a, b) => a - b);
    for (const id of ids.slice(0, ids.length - MAX_MADE_LINKS)) this.#delete(id);
    this.#revision += 1;
  }
}
