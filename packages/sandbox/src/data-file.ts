import { randomBytes } from "node:crypto";
import { closeSync, existsSync, fstatSync, ftruncateSync, linkSync, openSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync, writeFileSync, writeSync, type Stats as FileStats } from "node:fs";
import { hostname } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { countMap, type State, type Stats } from "./state";

/**
 * The `--data` file: a snapshot (`FILE`, the whole state as JSON) and a journal beside it
 * (`FILE.journal`, one JSON line per acknowledged change), held by one sandbox at a time through
 * `FILE.lock`. A change appends one line before it is answered, so its cost follows the change,
 * not the account; the journal is folded into a new snapshot (a temporary file renamed over it)
 * at start, at close, and when it outgrows a share of the snapshot.
 *
 * The lock holds a random owner token, the host name, the process id and its pid namespace, and
 * a heartbeat renewed while the sandbox runs, so that it works across containers sharing a volume
 * (where process ids mean nothing to each other). Before every write the sandbox checks that the
 * lock still holds its token and that neither file changed since it last wrote or read them; if
 * either did, it stops writing and says why, rather than overwrite another sandbox's data.
 */

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  return typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value)?.slice(0, 40)}`;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

class ShapeError extends Error {}

function expectType(value: unknown, path: string, type: "string" | "number" | "boolean" | "object" | "array"): void {
  const ok = type === "array" ? Array.isArray(value) : type === "object" ? isRecord(value) : typeof value === type && (type !== "number" || Number.isFinite(value));
  if (!ok) throw new ShapeError(`${path} must be ${type === "array" || type === "object" ? "an" : "a"} ${type} (found ${describeValue(value)})`);
}

const COUNT_MAPS = ["countries", "referrers", "browsers", "os", "social"] as const;

function checkStats(value: unknown, path: string): Stats {
  expectType(value, path, "object");
  const stats = value as Record<string, unknown>;
  expectType(stats.clicks, `${path}.clicks`, "number");
  expectType(stats.visitors, `${path}.visitors`, "array");
  const checked = { clicks: stats.clicks as number, visitors: stats.visitors as string[] } as Stats;
  if (stats.sketch !== undefined) {
    expectType(stats.sketch, `${path}.sketch`, "string");
    checked.sketch = stats.sketch as string;
  }
  for (const name of COUNT_MAPS) {
    expectType(stats[name], `${path}.${name}`, "object");
    const entries = Object.entries(stats[name] as Record<string, unknown>);
    for (const [key, count] of entries) expectType(count, `${path}.${name}.${key}`, "number");
    checked[name] = countMap(entries as Array<[string, number]>);
  }
  return checked;
}

/** What each collection's entries must have, beyond an integer `id`. */
const REQUIRED: Record<string, Record<string, "string" | "number" | "boolean" | "array">> = {
  users: { username: "string", apiKey: "string", admin: "boolean" },
  domains: { userId: "number", domain: "string" },
  splash: { userId: "number", name: "string" },
  overlays: { userId: "number", name: "string" },
  links: { userId: "number", alias: "string", url: "string", type: "string", geotarget: "array", devicetarget: "array", parameters: "array" },
  pixels: { userId: "number", type: "string" },
  qrs: { userId: "number", code: "string", type: "string" },
  plans: { name: "string" },
  sso: { token: "string", userId: "number" },
};

/** The state a data file's text holds, checked, with its count maps made prototype-free; a ShapeError names the first thing that is wrong. */
export function readState(text: string): Partial<State> {
  return checkState(JSON.parse(text));
}

function checkState(value: unknown): Partial<State> {
  if (!isRecord(value)) throw new ShapeError(`it must hold a JSON object (found ${describeValue(value)})`);
  if (value.nextId !== undefined) {
    expectType(value.nextId, '"nextId"', "object");
    for (const [kind, id] of Object.entries(value.nextId as Record<string, unknown>)) expectType(id, `nextId.${kind}`, "number");
  }
  for (const [collection, fields] of Object.entries(REQUIRED)) {
    const items = value[collection];
    if (items === undefined) continue;
    if (!Array.isArray(items)) throw new ShapeError(`"${collection}" must be an array (found ${describeValue(items)})`);
    items.forEach((item: unknown, index) => {
      const path = `${collection}[${index}]`;
      expectType(item, path, "object");
      const record = item as Record<string, unknown>;
      if (!Number.isInteger(record.id)) throw new ShapeError(`${path}.id must be a whole number (found ${describeValue(record.id)})`);
      for (const [field, type] of Object.entries(fields)) expectType(record[field], `${path}.${field}`, type);
      if (collection === "links" || collection === "qrs") record.stats = checkStats(record.stats, `${path}.stats`);
    });
  }
  delete value.generation;
  return value;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** How often a running sandbox renews its lock's heartbeat, and how long after the last one another sandbox may take the lock over. */
export const LOCK_HEARTBEAT_MS = 5_000;
export const LOCK_STALE_MS = 30_000;

/** What a lock file says about its holder. A lock written by an older sandbox holds only a pid. */
interface LockHolder {
  token: string;
  host: string;
  pid: number;
  /** `/proc/self/ns/pid` of the holder: two processes with equal pids are the same only in one namespace. */
  pidNamespace: string;
  heartbeat: number;
}

function currentPidNamespace(): string {
  try {
    return readlinkSync("/proc/self/ns/pid");
  } catch {
    return "";
  }
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === "number" && Number.isInteger(value)) return { token: "", host: "", pid: value, pidNamespace: "", heartbeat: Number.NaN };
    if (!isRecord(value) || typeof value.token !== "string" || typeof value.pid !== "number") return undefined;
    return {
      token: value.token,
      host: typeof value.host === "string" ? value.host : "",
      pid: value.pid,
      pidNamespace: typeof value.pidNamespace === "string" ? value.pidNamespace : "",
      heartbeat: typeof value.heartbeat === "number" ? value.heartbeat : Number.NaN,
    };
  } catch {
    return undefined;
  }
}

/** The data file's lock: exclusive creation, a random token, a heartbeat. */
class DataFileLock {
  readonly token = randomBytes(16).toString("hex");
  private readonly host = hostname();
  private readonly pidNamespace = currentPidNamespace();
  private heartbeat: NodeJS.Timeout | undefined;
  private lost = false;

  constructor(
    private readonly file: string,
    readonly lockFile: string,
  ) {}

  private text(): string {
    return `${JSON.stringify({ token: this.token, host: this.host, pid: process.pid, pidNamespace: this.pidNamespace, heartbeat: Date.now() })}\n`;
  }

  /**
   * Why the holder of this lock text is provably gone, or undefined when it cannot be proved: its
   * heartbeat is older than LOCK_STALE_MS, or it ran in this pid namespace on this host and its
   * process is gone (or is this very process under an earlier token: a restart as pid 1).
   */
  private staleBecause(holder: LockHolder | undefined, now: number): string | undefined {
    if (!holder) return "it is unreadable";
    if (now - holder.heartbeat > LOCK_STALE_MS) return `its heartbeat is ${Math.round((now - holder.heartbeat) / 1000)} s old`;
    const legacy = holder.token === "";
    const sameNamespace = legacy || (holder.host === this.host && holder.pidNamespace !== "" && holder.pidNamespace === this.pidNamespace);
    if (!sameNamespace) return undefined;
    if (holder.pid === process.pid) return "it names this process under an earlier run";
    if (!(Number.isInteger(holder.pid) && holder.pid > 0 && isAlive(holder.pid))) return `its process ${holder.pid} is gone`;
    return undefined;
  }

  acquire(): void {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      try {
        writeFileSync(this.lockFile, this.text(), { flag: "wx" });
        this.heartbeat = setInterval(() => this.renew(), LOCK_HEARTBEAT_MS);
        this.heartbeat.unref();
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw new Error(`data file "${this.file}": cannot create the lock file "${this.lockFile}": ${errorText(error)}`);
      }
      let seen: string;
      try {
        seen = readFileSync(this.lockFile, "utf8");
      } catch {
        continue; // Released meanwhile: try again.
      }
      const holder = parseHolder(seen);
      const now = Date.now();
      const stale = this.staleBecause(holder, now);
      if (!stale) {
        const where = holder!.host ? ` on host "${holder!.host}"` : "";
        const age = Number.isFinite(holder!.heartbeat) ? `, last heartbeat ${Math.max(0, Math.round((now - holder!.heartbeat) / 1000))} s ago` : "";
        throw new Error(
          `data file "${this.file}" is in use by another sandbox (process ${holder!.pid}${where}${age}; lock file "${this.lockFile}"); stop it or choose another file. ` +
            `A lock whose heartbeat stops is taken over ${LOCK_STALE_MS / 1000} s after its last heartbeat.`,
        );
      }
      // Moved aside atomically, so that of two sandboxes taking over the same stale lock only one does.
      const aside = `${this.lockFile}.${this.token}.stale`;
      try {
        renameSync(this.lockFile, aside);
      } catch {
        continue;
      }
      const moved = readFileSync(aside, "utf8");
      if (moved !== seen) {
        // Another sandbox took the lock between our read and the move: give it back, unless it is already replaced.
        try {
          linkSync(aside, this.lockFile);
        } catch {
          // Its holder sees the lock gone at its next write and stops writing.
        }
        rmSync(aside, { force: true });
        continue;
      }
      rmSync(aside, { force: true });
      console.error(`linkshort-sandbox: took over the lock of data file "${this.file}" (${stale})`);
    }
    throw new Error(`data file "${this.file}": could not take the lock file "${this.lockFile}"`);
  }

  /** Whether the lock file still holds this sandbox's token. */
  held(): boolean {
    if (this.lost) return false;
    try {
      this.lost = parseHolder(readFileSync(this.lockFile, "utf8"))?.token !== this.token;
    } catch {
      this.lost = true;
    }
    return !this.lost;
  }

  private renew(): void {
    if (!this.held()) return;
    const temporary = `${this.lockFile}.${this.token}.tmp`;
    try {
      writeFileSync(temporary, this.text());
      renameSync(temporary, this.lockFile);
    } catch {
      rmSync(temporary, { force: true });
    }
  }

  release(): void {
    clearInterval(this.heartbeat);
    try {
      if (this.held()) rmSync(this.lockFile);
    } catch {
      // Already gone (its folder removed): nothing to release.
    }
    this.lost = true;
  }
}

/** Temporary files of saves that never finished (the process was killed between write and rename). */
function removeStaleTemporaries(file: string): void {
  const prefix = `${basename(file)}.`;
  for (const name of readdirSync(dirname(file))) {
    if (name.startsWith(prefix) && /^(\d+|journal\.[0-9a-f]+|[0-9a-f]{32}|lock\.[0-9a-f]{32})\.tmp$/.test(name.slice(prefix.length))) rmSync(join(dirname(file), name), { force: true });
  }
}

/** A file's identity and version as seen by this sandbox: another writer changes one of them. */
interface Stamp {
  ino: number;
  size: number;
  mtimeMs: number;
}

const stampOf = (stats: FileStats): Stamp => ({ ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs });
const sameStamp = (a: Stamp | undefined, b: Stamp | undefined) => a?.ino === b?.ino && a?.size === b?.size && a?.mtimeMs === b?.mtimeMs;

function stampAt(path: string): Stamp | undefined {
  try {
    return stampOf(statSync(path));
  } catch {
    return undefined;
  }
}

/** One line of the journal: whole records put into or removed from a large collection, small collections whole, id counters. */
export interface JournalEntry {
  links?: { put?: unknown[]; del?: number[] };
  small?: Record<string, unknown[]>;
  nextId?: Record<string, number>;
}

/** Applies journal entries to a snapshot's parsed JSON, before its shape is checked. */
function replay(value: Record<string, unknown>, entries: JournalEntry[]): void {
  if (entries.length === 0) return;
  const links = (Array.isArray(value.links) ? value.links : []) as Array<Record<string, unknown> | undefined>;
  const index = new Map<number, number>();
  links.forEach((link, position) => index.set(Number(link?.id), position));
  for (const entry of entries) {
    for (const record of entry.links?.put ?? []) {
      const id = Number((record as Record<string, unknown>)?.id);
      const position = index.get(id);
      if (position === undefined || links[position] === undefined) {
        index.set(id, links.length);
        links.push(record as Record<string, unknown>);
      } else links[position] = record as Record<string, unknown>;
    }
    for (const id of entry.links?.del ?? []) {
      const position = index.get(id);
      if (position !== undefined) links[position] = undefined;
      index.delete(id);
    }
    for (const [collection, items] of Object.entries(entry.small ?? {})) value[collection] = items;
    if (entry.nextId) value.nextId = entry.nextId;
  }
  value.links = links.filter((link) => link !== undefined);
}

export interface OpenedDataFile {
  /** The saved state, or undefined for a new file. */
  state: Partial<State> | undefined;
  file: DataFile;
}

/** Thrown when the data file cannot take a change: the change must not be acknowledged. */
export class DataFileError extends Error {}

/** A data file held by this sandbox: a snapshot, a journal beside it, and the lock. */
export class DataFile {
  readonly journalFile: string;
  private readonly lock: DataFileLock;
  private generation = 0;
  private journalFd: number | undefined;
  private snapshotStamp: Stamp | undefined;
  private journalStamp: Stamp | undefined;
  /** Why this sandbox stopped writing the file, once it has; every later write is refused with it. */
  stopped: string | undefined;
  snapshotBytes = 0;
  journalBytes = 0;

  constructor(readonly file: string) {
    this.journalFile = `${file}.journal`;
    this.lock = new DataFileLock(file, `${file}.lock`);
  }

  get lockToken(): string {
    return this.lock.token;
  }

  /** Opens a data file for one sandbox: checks its folder, takes the lock, removes stale temporary files, reads the snapshot and replays the journal. */
  static open(file: string): OpenedDataFile {
    const folder = dirname(resolve(file));
    if (!existsSync(folder)) throw new Error(`data file "${file}": the folder "${dirname(file)}" does not exist; create it first`);
    if (!statSync(folder).isDirectory()) throw new Error(`data file "${file}": "${dirname(file)}" is not a folder`);
    const dataFile = new DataFile(file);
    dataFile.lock.acquire();
    try {
      removeStaleTemporaries(file);
      return { state: dataFile.read(), file: dataFile };
    } catch (error) {
      dataFile.close();
      throw error;
    }
  }

  private read(): Partial<State> | undefined {
    this.snapshotStamp = stampAt(this.file);
    this.journalStamp = stampAt(this.journalFile);
    if (!this.snapshotStamp) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(this.file, "utf8"));
    } catch (error) {
      if (error instanceof SyntaxError) throw new Error(`data file "${this.file}" is not valid JSON: ${error.message}`);
      throw error;
    }
    try {
      if (isRecord(value)) {
        this.generation = typeof value.generation === "number" ? value.generation : 0;
        replay(value, this.readJournal());
      }
      return checkState(value);
    } catch (error) {
      if (error instanceof ShapeError) throw new Error(`data file "${this.file}": ${error.message}`);
      throw error;
    }
  }

  /** The journal's entries for this snapshot's generation. A torn last line (a write cut short by a crash, never acknowledged) is left out, with a log line. */
  private readJournal(): JournalEntry[] {
    if (!this.journalStamp) return [];
    const lines = readFileSync(this.journalFile, "utf8").split("\n");
    const header = parseLine(lines[0]);
    if (!isRecord(header) || header.generation !== this.generation) {
      console.error(`linkshort-sandbox: journal "${this.journalFile}" belongs to another snapshot (generation ${String(isRecord(header) ? header.generation : "unreadable")}, snapshot ${this.generation}); its changes are already in the snapshot, ignored`);
      return [];
    }
    const entries: JournalEntry[] = [];
    for (let index = 1; index < lines.length; index += 1) {
      const line = lines[index]!;
      if (line === "") continue;
      const entry = parseLine(line);
      if (isRecord(entry)) {
        entries.push(entry);
        continue;
      }
      const last = lines.slice(index + 1).every((rest) => rest === "");
      if (!last) throw new Error(`data file "${this.file}": line ${index + 1} of the journal "${this.journalFile}" is not a valid change; fix or remove the journal`);
      console.error(`linkshort-sandbox: ignoring the torn last line of the journal "${this.journalFile}" (${line.length} characters): a write cut short, never acknowledged`);
    }
    return entries;
  }

  /** Refuses a write when this sandbox no longer owns the file, or either file changed since it last wrote or read it. */
  private checkOwnership(): void {
    if (this.stopped) throw new DataFileError(this.stopped);
    let problem: string | undefined;
    if (!this.lock.held()) problem = `its lock "${this.lock.lockFile}" is gone or names another sandbox`;
    else if (!sameStamp(stampAt(this.file), this.snapshotStamp)) problem = `"${this.file}" was changed, replaced or removed by someone else`;
    else if (!sameStamp(stampAt(this.journalFile), this.journalStamp)) problem = `"${this.journalFile}" was changed, replaced or removed by someone else`;
    if (problem) {
      this.stopped = `data file "${this.file}": ${problem} since this sandbox last wrote it; this sandbox no longer saves changes (restart it to read the file again)`;
      throw new DataFileError(this.stopped);
    }
  }

  /** Writes the whole state as a new snapshot and starts an empty journal for it. */
  writeSnapshot(state: State): void {
    this.checkOwnership();
    const generation = this.generation + 1;
    const text = JSON.stringify({ generation, ...state });
    const temporary = `${this.file}.${this.lock.token}.tmp`;
    try {
      writeFileSync(temporary, text);
      renameSync(temporary, this.file);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
    this.generation = generation;
    this.snapshotStamp = stampAt(this.file);
    this.snapshotBytes = text.length;
    // The new journal replaces the old one only after the snapshot holds all of it; a crash in between leaves a journal of the older generation, which is ignored.
    const journalTemporary = `${this.file}.journal.${this.lock.token}.tmp`;
    try {
      writeFileSync(journalTemporary, `${JSON.stringify({ generation })}\n`);
      renameSync(journalTemporary, this.journalFile);
    } catch (error) {
      rmSync(journalTemporary, { force: true });
      throw error;
    }
    if (this.journalFd !== undefined) closeSync(this.journalFd);
    this.journalFd = openSync(this.journalFile, "a");
    this.journalStamp = stampOf(fstatSync(this.journalFd));
    this.journalBytes = 0;
  }

  /** Appends one change to the journal; when it cannot be written whole, the journal is cut back to before it. */
  append(entry: JournalEntry): void {
    this.checkOwnership();
    const line = Buffer.from(`${JSON.stringify(entry)}\n`);
    const fd = this.journalFd!;
    try {
      let written = 0;
      while (written < line.length) written += writeSync(fd, line, written);
    } catch (error) {
      try {
        ftruncateSync(fd, this.journalStamp!.size);
      } catch {
        this.stopped = `data file "${this.file}": a change could not be written nor cut back (${errorText(error)}); this sandbox no longer saves changes`;
      }
      throw error;
    }
    this.journalStamp = stampOf(fstatSync(fd));
    this.journalBytes += line.length;
  }

  close(): void {
    if (this.journalFd !== undefined) closeSync(this.journalFd);
    this.journalFd = undefined;
    this.lock.release();
  }
}

function parseLine(line: string | undefined): unknown {
  try {
    return JSON.parse(line ?? "");
  } catch {
    return undefined;
  }
}
