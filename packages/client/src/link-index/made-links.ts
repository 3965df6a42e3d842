/**
 * The record of the links a host made for one account, with what each was made with that the API
 * never shows (redirect type, parameters, and whether it has a password: as a digest; the password
 * as a slow salted hash, never the password). The host keeps it where its runs share it (n8n: the
 * workflow's static data), so that reuse can prove a link after a restart (and on another worker,
 * where the host hands its workers the record).
 * Bounded (`MAX_MADE_LINKS`, the newest kept), and merged with what another run saved.
 */
import { createHash, randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { BoundedMap } from "../internal/bounded-map";

/** Links a record keeps at most: the newest (highest ids). About 30 bytes each as JSON, 70 with a password. */
export const MAX_MADE_LINKS = 10_000;

/**
 * scrypt's cost for a link's password: N 4096, r 8, p 1 (4 MiB; its time: bench row 18). One hash per row
 * that gives a password (when the link is made, or when a reuse compares it).
 */
const SCRYPT_COST = { N: 2 ** 12, r: 8, p: 1, maxmem: 32 * 1024 * 1024 };
const SALT_BYTES = 12;
const HASH_BYTES = 16;
/** An entry: the options' digest (16 base64url characters), then with a password `.`, the salt (16) and the hash (22). */
const ENTRY = /^[\w-]{16}(?:\.[\w-]{38})?$/;

/** A record as the host keeps it (JSON). */
export interface MadeLinksState {
  version: 1;
  /** Each link's entry by id. */
  links: Record<string, string>;
}

const optionsDigest = (optionsKey: string) => createHash("sha256").update(optionsKey).digest("base64url").slice(0, 16);

function slowHash(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, HASH_BYTES, SCRYPT_COST, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/**
 * The entry of a link made with `optionsKey` (`hiddenOptionsKey` of the create body: redirect
 * type, parameters, whether a password) and `password`: a salted scrypt hash of it, when given.
 */
export async function madeLinkEntry(optionsKey: string, password: string | undefined): Promise<string> {
  const digest = optionsDigest(optionsKey);
  if (password === undefined) return digest;
  const salt = randomBytes(SALT_BYTES);
  return `${digest}.${salt.toString("base64url")}${(await slowHash(password, salt)).toString("base64url")}`;
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
  if (saved === null || typeof saved !== "object") return links;
  const state = saved as Partial<MadeLinksState>;
  if (state.version !== 1 || state.links === null || typeof state.links !== "object") return links;
  for (const [key, entry] of Object.entries(state.links)) {
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
      if (!this.#links.has(id) && !this.#forgotten.has(id)) this.#links.set(id, entry);
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
    this.#links.set(id, entry);
    this.#revision += 1;
    this.#bound();
  }

  /** Drops link `id` (changed or deleted since it was made), here and in what is merged later. */
  forget(id: number): void {
    this.#forgotten.add(id);
    if (this.#links.delete(id)) this.#revision += 1;
  }

  has(id: number): boolean {
    return this.#links.has(id);
  }

  /** Whether link `id` is recorded as made with `optionsKey` (`hiddenOptionsKey`: with a password, only that it had one). */
  madeWithOptions(id: number, optionsKey: string): boolean {
    return this.#links.get(id)?.slice(0, 16) === optionsDigest(optionsKey);
  }

  /** Whether link `id` is recorded as made with `password`, compared through the hash the record keeps (one scrypt). */
  async madeWithPassword(id: number, password: string): Promise<boolean> {
    const entry = this.#links.get(id);
    if (entry === undefined || entry.length === 16) return false;
    const salt = Buffer.from(entry.slice(17, 33), "base64url");
    const hash = Buffer.from(entry.slice(33), "base64url");
    return timingSafeEqual(await slowHash(password, salt), hash);
  }

  /** Keeps the newest `MAX_MADE_LINKS` (ids only grow): an old link dropped costs at most a duplicate. */
  #bound(): void {
    if (this.#links.size <= MAX_MADE_LINKS) return;
    const ids = [...this.#links.keys()].sort((a, b) => a - b);
    for (const id of ids.slice(0, ids.length - MAX_MADE_LINKS)) this.#links.delete(id);
    this.#revision += 1;
  }
}
