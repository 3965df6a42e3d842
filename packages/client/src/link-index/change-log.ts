/**
 * Persistence diffing: every write to the index's links goes through here, which notes what
 * changed since the last save, so that a save hands the store only that (a store that can write
 * only the change does: its cost grows with the change). Saves run one at a time, in order.
 */
import type { LinkTable } from "./link-table";
import type { IndexChanges, IndexMeta, LinkIndexStore, StoredIndex, StoredLink } from "./store";

export class ChangeLog {
  readonly links: LinkTable;
  readonly #store: LinkIndexStore;
  #upserted = new Set<number>();
  #deleted = new Set<number>();
  /** The store holds what is not this index's: the next save replaces it. */
  #resetStore = false;
  #savedMeta = "";
  #saving: Promise<void> = Promise.resolve();

  constructor(store: LinkIndexStore, links: LinkTable) {
    this.#store = store;
    this.links = links;
  }

  load(): Promise<StoredIndex | undefined> {
    return this.#store.load();
  }

  /** What was just loaded from the store is saved already. */
  loaded(): void {
    this.#upserted.clear();
  }

  /** What the store holds is not this index's (another account, or damaged): the next save replaces all of it. */
  replaceStore(): void {
    this.#resetStore = true;
  }

  put(link: StoredLink): void {
    this.links.put(link);
    this.#upserted.add(link.id);
    this.#deleted.delete(link.id);
  }

  drop(id: number): void {
    if (!this.links.drop(id)) return;
    this.#upserted.delete(id);
    this.#deleted.add(id);
  }

  setSeen(id: number, seen: number): void {
    this.links.setSeen(id, seen);
    this.#upserted.add(id);
  }

  /** Hands what changed since the last save to the store. */
  save(meta: IndexMeta): Promise<void> {
    if (this.#upserted.size === 0 && this.#deleted.size === 0 && !this.#resetStore && JSON.stringify(meta) === this.#savedMeta) return this.#saving;
    const changes: IndexChanges = {
      meta: structuredClone(meta),
      upserted: [...this.#upserted].flatMap((id) => this.links.stored(id) ?? []),
      deleted: [...this.#deleted],
      all: () => this.links.all(),
      ...(this.#resetStore ? { reset: true } : {}),
    };
    this.#resetStore = false;
    this.#upserted = new Set();
    this.#deleted = new Set();
    this.#savedMeta = JSON.stringify(changes.meta);
    this.#saving = this.#saving.then(() => this.#store.save(changes)).catch(() => undefined);
    return this.#saving;
  }
}
