import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { State, Stats } from "./store";

/**
 * The `--data` file: one sandbox at a time holds it (a lock file next to it names the holder's
 * process id), it is read with its shape checked, and each save replaces it whole and atomically
 * (a temporary file renamed over it), so a killed process leaves the last saved state, never half
 * of one.
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

/** A map of counts keyed by what visitors send (referrers...): no prototype, so `constructor` or `__proto__` is a key like any other. */
export function countMap(entries: Iterable<[string, number]> = []): Record<string, number> {
  const map = Object.create(null) as Record<string, number>;
  for (const [key, count] of entries) map[key] = count;
  return map;
}

const COUNT_MAPS = ["countries", "referrers", "browsers", "os", "social"] as const;

function checkStats(value: unknown, path: string): Stats {
  expectType(value, path, "object");
  const stats = value as Record<string, unknown>;
  expectType(stats.clicks, `${path}.clicks`, "number");
  expectType(stats.visitors, `${path}.visitors`, "array");
  const checked = { clicks: stats.clicks as number, visitors: stats.visitors as string[] } as Stats;
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
  const value: unknown = JSON.parse(text);
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

/** Takes the data file's lock, or throws naming the live process that holds it. A lock whose process is gone is stale and taken over. */
function lock(file: string): () => void {
  const lockFile = `${file}.lock`;
  const mine = `${process.pid}\n`;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      writeFileSync(lockFile, mine, { flag: "wx" });
      return () => {
        try {
          if (readFileSync(lockFile, "utf8") === mine) rmSync(lockFile);
        } catch {
          // Already gone (its folder removed): nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw new Error(`data file "${file}": cannot create the lock file "${lockFile}": ${errorText(error)}`);
    }
    let holder = Number.NaN;
    try {
      holder = Number.parseInt(readFileSync(lockFile, "utf8"), 10);
    } catch {
      continue; // Released meanwhile: try again.
    }
    if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) {
      throw new Error(`data file "${file}" is in use by another sandbox (process ${holder}, lock file "${lockFile}"); stop it or choose another file`);
    }
    rmSync(lockFile, { force: true });
  }
  throw new Error(`data file "${file}": could not take the lock file "${lockFile}"`);
}

/** Temporary files of saves that never finished (the process was killed between write and rename). */
function removeStaleTemporaries(file: string): void {
  const prefix = `${basename(file)}.`;
  for (const name of readdirSync(dirname(file))) {
    if (name.startsWith(prefix) && /^\d+\.tmp$/.test(name.slice(prefix.length))) rmSync(join(dirname(file), name), { force: true });
  }
}

export interface OpenedDataFile {
  /** The saved state, or undefined for a new file. */
  state: Partial<State> | undefined;
  release: () => void;
}

/** Opens a data file for one sandbox: checks its folder, takes the lock, removes stale temporary files, reads and checks the state. */
export function openDataFile(file: string): OpenedDataFile {
  const folder = dirname(resolve(file));
  if (!existsSync(folder)) throw new Error(`data file "${file}": the folder "${dirname(file)}" does not exist; create it first`);
  if (!statSync(folder).isDirectory()) throw new Error(`data file "${file}": "${dirname(file)}" is not a folder`);
  const release = lock(file);
  try {
    removeStaleTemporaries(file);
    if (!existsSync(file)) return { state: undefined, release };
    try {
      return { state: readState(readFileSync(file, "utf8")), release };
    } catch (error) {
      if (error instanceof SyntaxError) throw new Error(`data file "${file}" is not valid JSON: ${error.message}`);
      if (error instanceof ShapeError) throw new Error(`data file "${file}": ${error.message}`);
      throw error;
    }
  } catch (error) {
    release();
    throw error;
  }
}

/** Replaces the file with this text: written to a temporary file first, then renamed over it (atomic on one file system). */
export function writeDataFile(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text);
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
