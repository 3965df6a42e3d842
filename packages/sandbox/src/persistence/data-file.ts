import {
  closeSync,
  existsSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
  type Stats as FileStats,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { errorText, isRecord } from "../values";
import { DataFileLock } from "./data-file-lock";
import { journalEntries, journalHeader, journalLine, replayJournal, type JournalEntry } from "./journal";
import type { State } from "./state";
import { checkState, ShapeError } from "./state-check";

/**
 * The `--data` file: a snapshot (`FILE`, the whole state as JSON) and a journal beside it
 * (`FILE.journal`, one JSON line per acknowledged change), held by one sandbox at a time through
 * `FILE.lock`. A change appends one line before it is answered, so its cost follows the change,
 * not the account; the journal is folded into a new snapshot (a temporary file renamed over it)
 * at start, at close, and when it outgrows a share of the snapshot.
 *
 * Before every write the sandbox checks that the lock (`data-file-lock.ts`) still holds its token
 * and that neither file changed since it last wrote or read them; if either did, it stops writing
 * and says why, rather than overwrite another sandbox's data.
 */

/** Temporary files of saves that never finished (the process was killed between write and rename). */
function removeStaleTemporaries(file: string): void {
  const prefix = `${basename(file)}.`;
  for (const name of readdirSync(dirname(file))) {
    if (name.startsWith(prefix) && /^(\d+|journal\.[0-9a-f]+|[0-9a-f]{32}|lock\.[0-9a-f]{32})\.tmp$/.test(name.slice(prefix.length)))
      rmSync(join(dirname(file), name), { force: true });
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
        replayJournal(value, this.journalStamp ? journalEntries(readFileSync(this.journalFile, "utf8"), this.generation, this.journalFile, this.file) : []);
      }
      return checkState(value);
    } catch (error) {
      if (error instanceof ShapeError) throw new Error(`data file "${this.file}": ${error.message}`);
      throw error;
    }
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
      writeFileSync(journalTemporary, journalHeader(generation));
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
    const line = Buffer.from(journalLine(entry));
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
