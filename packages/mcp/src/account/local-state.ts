/**
 * An account's state kept by this process alone: in memory, or the index in a file (`--index-file`)
 * with its click history beside it and, in its folder, the secret that signs the previews that
 * update_links and delete_links confirm (a client may start a server for every call: the next
 * process must take the previous one's preview).
 */
import { FileClickHistoryStore, FileIndexStore, MAX_INDEXED_ACCOUNTS, type LinkShortClient } from "@linkshort/client";
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import { clientFor } from "../config/command-line";
import { AccountIndexes } from "./account-indexes";
import { ServerLinkIndex } from "./server-index";
import type { AccountState } from "./state";

export class LocalAccountState implements AccountState {
  readonly authStore = undefined;
  readonly signInsKeptIn = "sign-ins and each person's links indexed in memory";
  /** Each account's index: at most the client's bound of accounts. */
  readonly #indexes = new AccountIndexes(MAX_INDEXED_ACCOUNTS, (client) => {
    const file = this.indexFile;
    return new ServerLinkIndex(client, file === undefined ? {} : { store: new FileIndexStore(file), historyStore: FileClickHistoryStore.besideIndex(file) });
  });

  #confirmationSecret: Promise<Uint8Array | undefined> | undefined;

  /**
   * `indexFile`: where the index of the one account a CLI serves is kept (never with --sign-in: its
   * people are many accounts). `confirmationSecret`: the environment's, which wins over the file's.
   */
  constructor(
    private readonly indexFile?: string,
    private readonly confirmationSecret?: Uint8Array,
    private readonly say: (text: string) => void = () => undefined,
  ) {}

  get keptIn(): string {
    return this.indexFile === undefined
      ? "in memory; --index-file PATH keeps them"
      : `kept in ${this.indexFile} and ${FileClickHistoryStore.besideIndex(this.indexFile).path}`;
  }

  /** The confirmations' secret: the environment's, else the one kept beside the index file; undefined (each process its own) without either. The sign-in's: each process its own. */
  secret(name: "sign-in" | "request-state"): Promise<Uint8Array | undefined> {
    if (name === "sign-in") return Promise.resolve(undefined);
    if (this.confirmationSecret !== undefined) return Promise.resolve(this.confirmationSecret);
    if (this.indexFile === undefined) return Promise.resolve(undefined);
    const path = besideIndex(this.indexFile, CONFIRMATION_SECRET_FILE);
    // A file that cannot be made or is not safe to trust never stops the server: it signs with a key of its own, and says so.
    return (this.#confirmationSecret ??= keptSecret(path).catch((error: unknown) => {
      this.say(
        `${error instanceof Error ? error.message : String(error)}. Confirmations of update_links and delete_links are signed by this process alone: another process refuses its previews.`,
      );
      return undefined;
    }));
  }

  clientFor(baseUrl: string, apiKey: string, maxWaitSeconds: number): LinkShortClient {
    return clientFor(baseUrl, apiKey, maxWaitSeconds);
  }

  indexFor(client: LinkShortClient): ServerLinkIndex {
    return this.#indexes.indexFor(client);
  }

  forgetClient(client: LinkShortClient): void {
    this.#indexes.forgetClient(client);
  }

  close(): Promise<void> {
    return this.#indexes.stop();
  }
}

/** The file, in the index file's folder, that keeps the confirmations' secret. */
export const CONFIRMATION_SECRET_FILE = "confirmation.secret";
const SECRET_BYTES = 32;

/** `name` in the index file's folder (its path as written, so the library's bundle needs no node:path). */
function besideIndex(indexFile: string, name: string): string {
  const folderEnd = Math.max(indexFile.lastIndexOf("/"), indexFile.lastIndexOf("\\"));
  return `${indexFile.slice(0, folderEnd + 1)}${name}`;
}

/**
 * The secret kept in `path` (hex, readable by its owner only), made at random by the first process
 * that needs it: written whole to a file of its own, then linked into place, which fails when
 * another process was first (its secret is then the one read).
 */
async function keptSecret(path: string): Promise<Uint8Array> {
  const folder = path.slice(0, path.length - CONFIRMATION_SECRET_FILE.length);
  if (folder !== "") await fs.mkdir(folder, { recursive: true, mode: 0o700 });
  const secret = `${randomBytes(SECRET_BYTES).toString("hex")}\n`;
  const draft = `${path}.${process.pid}.${randomBytes(6).toString("hex")}`;
  await fs.writeFile(draft, secret, { mode: 0o600, flag: "wx" });
  try {
    await fs.link(draft, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A file system without hard links (FAT, some network mounts): created exclusively in place instead.
    if (code !== "EEXIST") await fs.writeFile(path, secret, { mode: 0o600, flag: "wx" }).catch(ignoreExisting);
  } finally {
    await fs.unlink(draft);
  }
  await refuseUntrusted(path);
  const text = (await fs.readFile(path, "utf8")).trim();
  if (!/^[0-9a-f]+$/.test(text) || text.length < 2 * SECRET_BYTES)
    throw new Error(`${path} does not hold the secret that signs confirmations (${SECRET_BYTES} bytes in hex): delete it, and a new one is made`);
  return new Uint8Array(Buffer.from(text, "hex"));
}

function ignoreExisting(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
}

/**
 * Whoever wrote the secret can sign confirmations, a person's yes among them: a file that another
 * user could have placed or can read (a link, another owner, any access for group or others) is refused.
 */
async function refuseUntrusted(path: string): Promise<void> {
  const found = await fs.lstat(path);
  const ownUid = typeof process.getuid === "function" ? process.getuid() : undefined;
  const why = !found.isFile()
    ? "is not a plain file"
    : ownUid !== undefined && found.uid !== ownUid
      ? "belongs to another user"
      : process.platform !== "win32" && (found.mode & 0o077) !== 0
        ? "can be read or written by other users"
        : undefined;
  if (why !== undefined) throw new Error(`${path} ${why}, so the secret in it that signs confirmations is not used: delete it, and a new one is made`);
}
