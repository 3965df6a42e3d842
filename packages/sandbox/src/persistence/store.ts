import { createHash, timingSafeEqual } from "node:crypto";
import type { LinkRecord } from "../model/link-record";
import { errorText } from "../values";
import { DataFile } from "./data-file";
import type { JournalEntry } from "./journal";
import { LinkLookups } from "./link-lookups";
import { emptyState, type State, type UserRecord } from "./state";
import { readState } from "./state-check";

const sha256 = (text: string) => createHash("sha256").update(text).digest();

/** A change that could not be written to the data file; the state is back to the last saved one. */
export class SaveError extends Error {}

/** Collections journaled whole when they change: small in any account, unlike links. */
const SMALL_COLLECTIONS = ["users", "domains", "splash", "overlays", "pixels", "qrs", "plans", "sso"] as const;
type SmallCollection = (typeof SMALL_COLLECTIONS)[number];

/** The journal is folded into a new snapshot once it grows past this share of the snapshot (and past 1 MiB). */
const COMPACT_SHARE = 0.5;
const COMPACT_MIN_BYTES = 1024 * 1024;

type LinkChange =
  | { kind: "added"; link: LinkRecord }
  | { kind: "changed"; link: LinkRecord; before: LinkRecord }
  | { kind: "removed"; link: LinkRecord; position: number };

/**
 * The sandbox's data, in memory, optionally kept in a data file across restarts. With a file,
 * every change is written before it is answered (`commit`), so a kill -9 loses nothing
 * acknowledged. Links change through `addLink`, `changingLink` and `removeLink`, so that a change
 * is journaled as the records it touched; the other collections are small and are journaled whole
 * when they change.
 */
export class Store {
  state: State;
  private keyIndex = new Map<string, UserRecord>();
  private readonly linkLookups = new LinkLookups();
  private readonly dataFile: DataFile | undefined;
  /** What the data file holds of each small collection and of the id counters, as JSON text: what a failed save rolls back to. */
  private saved = new Map<string, string>();
  /** The links array the data file's snapshot and journal describe; another array (replaced whole) is saved as a new snapshot. */
  private savedLinks: LinkRecord[] | undefined;
  private pending: LinkChange[] = [];
  private compaction: NodeJS.Immediate | undefined;

  constructor(private readonly file?: string) {
    const opened = file ? DataFile.open(file) : undefined;
    this.dataFile = opened?.file;
    this.state = { ...emptyState(), ...opened?.state };
    this.reindex();
  }

  get isNew(): boolean {
    return this.state.users.length === 0;
  }

  nextId(kind: keyof State): number {
    const id = (this.state.nextId[kind] ?? 0) + 1;
    this.state.nextId[kind] = id;
    return id;
  }

  reindex(): void {
    this.keyIndex = new Map(this.state.users.map((user) => [sha256(user.apiKey).toString("hex"), user]));
  }

  linkById(id: number): LinkRecord | undefined {
    this.linkLookups.ensure(this.state.links);
    return this.linkLookups.byIdOf(id);
  }

  /** Links whose alias is this one in any case. */
  linksByAlias(alias: string): readonly LinkRecord[] {
    this.linkLookups.ensure(this.state.links);
    return this.linkLookups.byAliasOf(alias);
  }

  linksByUrl(url: string): readonly LinkRecord[] {
    this.linkLookups.ensure(this.state.links);
    return this.linkLookups.byUrlOf(url);
  }

  /** A user's links, newest first (read only: change links through the store). */
  linksOf(userId: number): readonly LinkRecord[] {
    this.linkLookups.ensure(this.state.links);
    return this.linkLookups.ownedBy(userId, this.state.links);
  }

  addLink(link: LinkRecord): void {
    this.linkLookups.ensure(this.state.links);
    this.state.links.push(link);
    this.linkLookups.added(link);
    this.pending.push({ kind: "added", link });
  }

  /** Call before changing a link in place (fields or statistics): the change is journaled, and undone if it cannot be saved. */
  changingLink(link: LinkRecord): void {
    this.linkLookups.ensure(this.state.links);
    this.pending.push({ kind: "changed", link, before: structuredClone(link) });
  }

  removeLink(link: LinkRecord): void {
    this.linkLookups.ensure(this.state.links);
    const position = this.state.links.indexOf(link);
    if (position < 0) return;
    this.state.links.splice(position, 1);
    this.linkLookups.removed(link);
    this.pending.push({ kind: "removed", link, position });
  }

  /**
   * The user whose key this is. Keys are compared as SHA-256 digests with `timingSafeEqual`, so the
   * time taken does not depend on how much of a guessed key is right.
   */
  userByKey(key: string): UserRecord | undefined {
    const digest = sha256(key);
    const candidate = this.keyIndex.get(digest.toString("hex"));
    if (!candidate) return undefined;
    return timingSafeEqual(sha256(candidate.apiKey), digest) ? candidate : undefined;
  }

  /**
   * Saves what changed since the last commit (nothing without a data file): one journal line, or
   * a new snapshot when the links were replaced whole. When that fails, the changes are undone
   * and a SaveError says why: the change must then not be acknowledged.
   */
  commit(): void {
    const changes = this.pending;
    this.pending = [];
    for (const change of changes) if (change.kind === "changed") this.linkLookups.changed(change.link, change.before);
    if (!this.dataFile) return;
    try {
      if (this.state.links !== this.savedLinks) {
        this.snapshot();
        return;
      }
      const entry: JournalEntry = {};
      const texts = new Map<string, string>();
      for (const name of [...SMALL_COLLECTIONS, "nextId"] as const) {
        const text = JSON.stringify(this.state[name]);
        if (text === this.saved.get(name)) continue;
        texts.set(name, text);
        if (name === "nextId") entry.nextId = this.state.nextId;
        else (entry.small ??= {})[name] = this.state[name];
      }
      const put = new Map<number, LinkRecord>();
      const del = new Set<number>();
      for (const change of changes) {
        if (change.kind === "removed") {
          put.delete(change.link.id);
          del.add(change.link.id);
        } else {
          put.set(change.link.id, change.link);
          del.delete(change.link.id);
        }
      }
      if (put.size > 0 || del.size > 0) entry.links = { ...(put.size > 0 ? { put: [...put.values()] } : {}), ...(del.size > 0 ? { del: [...del] } : {}) };
      if (texts.size === 0 && !entry.links) return;
      this.dataFile.append(entry);
      for (const [name, text] of texts) this.saved.set(name, text);
      this.scheduleCompaction();
    } catch (error) {
      this.undo(changes);
      const reason = errorText(error);
      throw new SaveError(
        this.savedLinks === undefined
          ? `data file "${this.file}" cannot be written: ${reason}`
          : `The change could not be saved to the data file (${reason}); nothing was changed.`,
      );
    }
  }

  /** Writes the whole state as a new snapshot (folding the journal into it). */
  private snapshot(): void {
    this.dataFile!.writeSnapshot(this.state);
    this.savedLinks = this.state.links;
    this.saved = new Map([...SMALL_COLLECTIONS, "nextId"].map((name) => [name, JSON.stringify(this.state[name as SmallCollection | "nextId"])]));
  }

  /** Compaction runs after the answer that grew the journal, never inside a request. */
  private scheduleCompaction(): void {
    const file = this.dataFile!;
    if (this.compaction || file.journalBytes < Math.max(COMPACT_MIN_BYTES, file.snapshotBytes * COMPACT_SHARE)) return;
    this.compaction = setImmediate(() => {
      this.compaction = undefined;
      try {
        this.commit();
        this.snapshot();
      } catch (error) {
        console.error(`linkshort-sandbox: ${errorText(error)}`);
      }
    });
  }

  /** Puts back what the failed commit held: links in reverse order, small collections and counters as last saved. */
  private undo(changes: LinkChange[]): void {
    if (this.savedLinks === undefined) return;
    for (const change of [...changes].reverse()) {
      if (change.kind === "added") {
        const position = this.state.links.lastIndexOf(change.link);
        if (position >= 0) this.state.links.splice(position, 1);
      } else if (change.kind === "removed") this.state.links.splice(Math.min(change.position, this.state.links.length), 0, change.link);
      else Object.assign(change.link, change.before);
    }
    for (const [name, text] of this.saved) {
      if (JSON.stringify(this.state[name as SmallCollection | "nextId"]) === text) continue;
      const parsed = readState(`{"${name}":${text}}`);
      (this.state as unknown as Record<string, unknown>)[name] = (parsed as Record<string, unknown>)[name];
    }
    // The link lookups are rebuilt from scratch at their next use.
    this.linkLookups.ensure([]);
    this.reindex();
  }

  /** Why the data file no longer takes changes, if it does not. */
  get saveStopped(): string | undefined {
    return this.dataFile?.stopped;
  }

  /** Saves everything (changes made to `state` directly included) as a new snapshot, and releases the data file for another sandbox. */
  close(): void {
    if (this.compaction) clearImmediate(this.compaction);
    try {
      if (this.dataFile && !this.dataFile.stopped) {
        this.commit();
        this.snapshot();
      }
    } finally {
      this.dataFile?.close();
    }
  }

  /** Releases the data file without saving (a sandbox that failed to start). */
  abandon(): void {
    if (this.compaction) clearImmediate(this.compaction);
    this.dataFile?.close();
  }
}
