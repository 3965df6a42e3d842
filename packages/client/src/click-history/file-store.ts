import { randomUUID } from "node:crypto";
import { chmod, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { ClickHistoryState, ClickHistoryStore } from "./store";

/** The history tells which links were clicked when: for its owner only, as the link index's files are. */
const PRIVATE_FILE = 0o600;
const PRIVATE_FOLDER = 0o700;

/**
 * Keeps a click history in one JSON file, beside the link index's (`besideIndex`), written whole
 * and atomically (a temporary file renamed over it). Readable by its owner only. The file names
 * its account: the history refuses one of another account. A file that cannot be read as JSON
 * makes `load` fail, and the history starts empty with a note.
 */
export class FileClickHistoryStore implements ClickHistoryStore {
  constructor(readonly path: string) {}

  /** The store kept next to a `FileIndexStore`'s file at `indexPath`. */
  static besideIndex(indexPath: string): FileClickHistoryStore {
    return new FileClickHistoryStore(`${indexPath}.clicks.json`);
  }

  async load(): Promise<unknown> {
    let text: string;
    try {
      text = await readFile(this.path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new Error(`${this.path} is not JSON`);
    }
  }

  async save(state: ClickHistoryState): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true, mode: PRIVATE_FOLDER });
    const temporary = `${this.path}.${randomUUID()}.tmp`;
    try {
      await writeFile(temporary, JSON.stringify(state), { mode: PRIVATE_FILE });
      await rename(temporary, this.path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    // One an older version (or another tool) made may be readable by others.
    await chmod(this.path, PRIVATE_FILE);
  }
}
