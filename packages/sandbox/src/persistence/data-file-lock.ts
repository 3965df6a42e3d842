import { randomBytes } from "node:crypto";
import { linkSync, readFileSync, readlinkSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { errorText, isRecord } from "../values";

/**
 * `FILE.lock`: one sandbox per data file, also across containers sharing a volume (where process
 * ids mean nothing to each other). The lock holds a random owner token, the host name, the
 * process id and its pid namespace, and a heartbeat renewed while the sandbox runs; another
 * sandbox takes it over only when it can prove the holder gone.
 */

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

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
export class DataFileLock {
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
        if ((error as NodeJS.ErrnoException).code !== "EEXIST")
          throw new Error(`data file "${this.file}": cannot create the lock file "${this.lockFile}": ${errorText(error)}`);
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
