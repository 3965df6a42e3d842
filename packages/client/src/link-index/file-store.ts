import { randomUUID } from "node:crypto";
import { appendFile, chmod, mkdir, open, readFile, readlink, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { dirname, resolve } from "node:path";
import { isStoredIndex, isStoredLink, type IndexChanges, type IndexMeta, type LinkIndexStore, type StoredIndex, type StoredLink } from "./store";

/** A lease not renewed for this long belongs to a process that is gone (in any pid namespace). */
const STALE_LEASE_MS = 10 * 60_000;
/** The snapshot and the journal hold a whole account's long URLs (tokens in them included): for their owner only. */
const PRIVATE_FILE = 0o600;
/** A folder the store makes for them (an existing one is left as it is). */
const PRIVATE_FOLDER = 0o700;
/** The journal is folded into the snapshot once it is larger than the snapshot and this. */
const MIN_COMPACT_BYTES = 1024 * 1024;

interface Lease {
  token: string;
  host: string;
  pid: number;
  renewedAt: number;
}

/** The id a snapshot names itself by (absent in snapshots of earlier versions). */
function snapshotIdOf(snapshot: unknown): string | undefined {
  const id = snapshot !== null && typeof snapshot === "object" ? (snapshot as { id?: unknown }).id : undefined;
  return typeof id === "string" ? id : undefined;
}

/** A lease naming this host and a process that no longer runs (killed, crashed): it is stale at once. */
function holderIsGone(lease: Lease): boolean {
  if (lease.host !== hostname() || !Number.isSafeInteger(lease.pid) || lease.pid <= 0) return false;
  try {
    process.kill(lease.pid, 0);
    return false;
  } catch (error) {
    // EPERM: a process runs under that id, owned by someone else.
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * Keeps an index in a file: a snapshot (`FILE`) and a journal of changes (`FILE.journal`), one
 * JSON line per save, so a save costs what changed; the journal is folded into the snapshot when
 * it outgrows it. One process owns the files at a time (`FILE.lock`, a lease renewed on every
 * save); another process reads them but keeps its changes in memory, so two never both write.
 * The files are made readable by their owner only. The snapshot names its account (the index
 * checks it: see `LinkIndexOptions.account`); a save marked `reset` rewrites it whole.
 * Each snapshot has an id of its own, and each journal line names the snapshot it follows: lines
 * a compaction left behind (it died after placing the snapshot, before emptying the journal) are
 * older than the snapshot and are skipped.
 */
export interface FileIndexStoreOptions {
  now?: () => number;
  /** Told once when the index is kept in memory only (another live process holds the file, or took it over). Default: stderr. */
  warn?: (text: string) => void;
}

const warnOnStderr = (text: string) => {
  process.stderr.write(`linkshort: ${text}\n`);
};

export class FileIndexStore implements LinkIndexStore {
  readonly #given: string;
  #path: string;
  #journal: string;
  #lock: string;
  #resolved: Promise<void> | undefined;
  readonly #token = randomUUID();
  readonly #now: () => number;
  readonly #warn: (text: string) => void;
  #warned = false;
  #owner: boolean | undefined;
  #journalBytes = 0;
  #snapshotBytes = 0;
  /** The id of the snapshot on disk, which the journal's lines follow; undefined in files of earlier versions. */
  #snapshotId: string | undefined;

  constructor(path: string, options: FileIndexStoreOptions = {}) {
    this.#given = path;
    this.#path = path;
    this.#journal = `${path}.journal`;
    this.#lock = `${path}.lock`;
    this.#now = options.now ?? Date.now;
    this.#warn = options.warn ?? warnOnStderr;
  }

  /** A path that is a symbolic link is written through: the snapshot replaces the file it points to, and the link stays. */
  #resolve(): Promise<void> {
    // A link to a file not made yet resolves to where it points, too.
    const target = realpath(this.#given).catch(() =>
      readlink(this.#given).then(
        (pointed) => resolve(dirname(this.#given), pointed),
        () => this.#given,
      ),
    );
    this.#resolved ??= target.then((real) => {
      this.#path = real;
      this.#journal = `${real}.journal`;
      this.#lock = `${real}.lock`;
    });
    return this.#resolved;
  }

  #inMemoryOnly(why: string): void {
    if (this.#warned) return;
    this.#warned = true;
    this.#warn(`${this.#given} ${why}; this process keeps its link index in memory only (its changes are not saved)`);
  }

  /** Whether this store writes the files (false: another live process owns them). */
  async owns(): Promise<boolean> {
    await this.#resolve();
    if (this.#owner === undefined) {
      this.#owner = await this.#takeLease();
      if (!this.#owner) {
        const holder = await this.#readLease();
        this.#inMemoryOnly(holder ? `is in use by process ${holder.pid} on ${holder.host === hostname() ? "this host" : holder.host}` : "cannot be locked");
      }
    }
    return this.#owner;
  }

  async load(): Promise<StoredIndex | undefined> {
    await this.#resolve();
    let stored: StoredIndex | undefined;
    try {
      const text = await readFile(this.#path, "utf8");
      const parsed: unknown = JSON.parse(text);
      if (isStoredIndex(parsed)) stored = parsed;
      this.#snapshotId = snapshotIdOf(parsed);
      // A snapshot of an earlier version names no id: the first save writes one that does.
      this.#snapshotBytes = stored && this.#snapshotId !== undefined ? Buffer.byteLength(text) : 0;
    } catch {
      this.#snapshotBytes = 0;
    }
    // No snapshot yet, or a damaged one: the index starts empty, the journal alone is not trusted, and the first save writes a snapshot.
    if (!stored) return undefined;
    const links = new Map(stored.links.map((link) => [link.id, link]));
    let meta = stored.meta;
    const journal = await readFile(this.#journal, "utf8").catch(() => "");
    this.#journalBytes = Buffer.byteLength(journal);
    for (const line of journal.split("\n")) {
      if (line === "") continue;
      let change: { snapshot?: unknown; meta?: IndexMeta; upserted?: unknown[]; deleted?: unknown[] };
      try {
        change = JSON.parse(line) as typeof change;
      } catch {
        // A torn line (the process died while appending): what came before stands, and the first save
        // folds it into the snapshot and empties the journal, so no later line is appended onto it.
        this.#snapshotBytes = 0;
        break;
      }
      if (change.snapshot !== this.#snapshotId) {
        // Written before the snapshot was placed, and held in it already (or undone by it): the first save empties the journal.
        this.#snapshotBytes = 0;
        continue;
      }
      for (const link of change.upserted ?? []) if (isStoredLink(link)) links.set(link.id, link);
      for (const id of change.deleted ?? []) if (typeof id === "number") links.delete(id);
      if (change.meta && typeof change.meta === "object" && change.meta.version === 1) meta = change.meta;
    }
    return { meta, links: [...links.values()] };
  }

  async save(changes: IndexChanges): Promise<void> {
    if (!(await this.owns())) return;
    await this.#renewLease();
    if (changes.reset || this.#snapshotBytes === 0 || this.#journalBytes > Math.max(MIN_COMPACT_BYTES, this.#snapshotBytes)) {
      await this.#compact(changes.meta, changes.all());
      return;
    }
    const line = `${JSON.stringify({ snapshot: this.#snapshotId, meta: changes.meta, upserted: changes.upserted, deleted: changes.deleted })}\n`;
    await appendFile(this.#journal, line, { mode: PRIVATE_FILE });
    this.#journalBytes += Buffer.byteLength(line);
  }

  /** Lets another process take the files at once. */
  async release(): Promise<void> {
    if (this.#owner && (await this.#readLease())?.token === this.#token) await rm(this.#lock, { force: true });
    this.#owner = false;
  }

  async #compact(meta: IndexMeta, links: StoredLink[]): Promise<void> {
    const id = randomUUID();
    const text = JSON.stringify({ id, meta, links });
    const temporary = `${this.#path}.${this.#token}.tmp`;
    await writeFile(temporary, text, { mode: PRIVATE_FILE });
    await rename(temporary, this.#path);
    // Lines appended from now on follow this snapshot; those still in the journal (a crash before it is emptied) are skipped.
    this.#snapshotId = id;
    await writeFile(this.#journal, "", { mode: PRIVATE_FILE });
    await chmod(this.#journal, PRIVATE_FILE); // one an older version made may be readable by others
    this.#snapshotBytes = Buffer.byteLength(text);
    this.#journalBytes = 0;
  }

  async #readLease(): Promise<Lease | undefined> {
    try {
      const lease = JSON.parse(await readFile(this.#lock, "utf8")) as Partial<Lease>;
      return typeof lease.token === "string" && typeof lease.renewedAt === "number" && typeof lease.host === "string" && typeof lease.pid === "number"
        ? (lease as Lease)
        : undefined;
    } catch {
      return undefined;
    }
  }

  #lease(): string {
    return JSON.stringify({ token: this.#token, host: hostname(), pid: process.pid, renewedAt: this.#now() } satisfies Lease);
  }

  async #takeLease(): Promise<boolean> {
    await mkdir(dirname(this.#lock), { recursive: true, mode: PRIVATE_FOLDER });
    for (let attempt = 0; attempt < 2; attempt += 1) {
      try {
        const handle = await open(this.#lock, "wx", PRIVATE_FILE);
        await handle.writeFile(this.#lease());
        await handle.close();
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") return false;
      }
      const lease = await this.#readLease();
      const age = lease ? this.#now() - lease.renewedAt : this.#now() - (await stat(this.#lock).catch(() => ({ mtimeMs: 0 }))).mtimeMs;
      if (age < STALE_LEASE_MS && !(lease && holderIsGone(lease))) return false;
      // A stale lease: remove it and race for a fresh one (only one `wx` create can win).
      await rm(this.#lock, { force: true });
    }
    return false;
  }

  async #renewLease(): Promise<void> {
    const lease = await this.#readLease();
    if (lease?.token !== this.#token) {
      this.#owner = false;
      this.#inMemoryOnly(`was taken over by ${lease ? `process ${lease.pid} on ${lease.host === hostname() ? "this host" : lease.host}` : "another process"}`);
      throw new Error(`${this.#lock} was taken over by another process; this index keeps its changes in memory`);
    }
    if (this.#now() - lease.renewedAt > STALE_LEASE_MS / 10) await writeFile(this.#lock, this.#lease());
  }
}
