/**
 * Where the table keeps its entries: each in a numbered slot (a freed slot is taken again), found
 * by id and by alias through typed hash tables (`slot-hash.ts`), with the trigram filter of their
 * text under the same numbers (`trigram-filter.ts`).
 */
import { aliasKey, MAX_ADDRESS_LENGTH } from "../addresses";
import type { Entry } from "./packed-link";
import { numberHash, SlotHash, textHash } from "./slot-hash";
import { TrigramFilter } from "./trigram-filter";

export class LinkSlots {
  readonly #slots: Array<Entry | undefined> = [];
  readonly #free: number[] = [];
  readonly #byId = new SlotHash((slot) => numberHash(this.#slots[slot]!.id));
  /** By alias as `aliasKey` writes it (one link per domain may share one). */
  readonly #byAlias = new SlotHash((slot) => aliasHash(this.#slots[slot]!.alias));
  readonly #filter: TrigramFilter | undefined;
  /** The texts of an entry the filter files (what `rankEntry` searches in). */
  readonly #searchedTexts: (entry: Entry) => string[];
  #size = 0;
  #wantedId = 0;
  readonly #isWanted = (slot: number) => this.#slots[slot]!.id === this.#wantedId;

  constructor(filtered: boolean, searchedTexts: (entry: Entry) => string[]) {
    this.#filter = filtered ? new TrigramFilter() : undefined;
    this.#searchedTexts = searchedTexts;
  }

  get size(): number {
    return this.#size;
  }

  get(id: number): Entry | undefined {
    const slot = this.#slotOf(id);
    return slot === undefined ? undefined : this.#slots[slot];
  }

  *entries(): IterableIterator<Entry> {
    for (const entry of this.#slots) if (entry) yield entry;
  }

  /** The entries whose alias is `key` as `aliasKey` writes it, lowest id first. */
  withAlias(key: string): Entry[] {
    const found: Entry[] = [];
    this.#byAlias.each(textHash(key), (slot) => {
      const entry = this.#slots[slot]!;
      if (aliasKey(entry.alias) === key) found.push(entry);
    });
    return found.sort((a, b) => a.id - b.id);
  }

  /** Keeps `entry` in its link's slot (or a free one), filed again where its alias or text changed. */
  set(entry: Entry): void {
    const slot = this.#slotOf(entry.id);
    if (slot === undefined) return this.#add(entry);
    const known = this.#slots[slot]!;
    // The alias table finds a slot by its entry's alias: the slot leaves it before its entry changes.
    if (known.alias !== entry.alias) this.#byAlias.remove(slot);
    this.#slots[slot] = entry;
    if (known.alias !== entry.alias) this.#byAlias.add(slot);
    if (sameText(known, entry)) return;
    this.#filter?.remove(slot);
    this.#filter?.add(slot, this.#searchedTexts(entry));
  }

  #add(entry: Entry): void {
    const slot = this.#free.pop() ?? this.#slots.length;
    this.#slots[slot] = entry;
    this.#size += 1;
    this.#byId.add(slot);
    this.#byAlias.add(slot);
    this.#filter?.add(slot, this.#searchedTexts(entry));
    if (this.#filter?.due(this.#size)) this.#refile(this.#filter);
  }

  delete(id: number): Entry | undefined {
    const slot = this.#slotOf(id);
    if (slot === undefined) return undefined;
    const entry = this.#slots[slot]!;
    this.#byId.remove(slot);
    this.#byAlias.remove(slot);
    this.#filter?.remove(slot);
    this.#slots[slot] = undefined;
    this.#free.push(slot);
    this.#size -= 1;
    return entry;
  }

  /**
   * Calls `visit` with every entry that may hold all of `words` (every entry when they say nothing:
   * `words` undefined, no filter, or no trigram in them) and with each of `also`, once each.
   */
  eachCandidate(words: readonly string[] | undefined, also: readonly Entry[], visit: (entry: Entry) => void): void {
    const slices = this.#filter && words ? this.#filter.slicesOf(words) : [];
    if (slices.length === 0) {
      for (const entry of this.#slots) if (entry) visit(entry);
      return;
    }
    const alsoSlots = also.map((entry) => this.#slotOf(entry.id)!);
    this.#filter!.candidates(slices, alsoSlots, (slot) => visit(this.#slots[slot]!));
  }

  #slotOf(id: number): number | undefined {
    this.#wantedId = id;
    return this.#byId.find(numberHash(id), this.#isWanted);
  }

  /** The filter learns again which trigrams are common, and every entry is filed again. */
  #refile(filter: TrigramFilter): void {
    const slots = this.#slots.flatMap((entry, slot) => (entry ? [slot] : []));
    filter.relearn(slots.length, (at) => this.#searchedTexts(this.#slots[slots[at]!]!));
    for (const slot of slots) filter.add(slot, this.#searchedTexts(this.#slots[slot]!));
  }
}

/** `textHash(aliasKey(alias))`, without making the key when the alias is one already (ASCII, no space or slash to trim). */
function aliasHash(alias: string): number {
  const last = alias.length - 1;
  if (last < 0 || last >= MAX_ADDRESS_LENGTH || alias.charCodeAt(0) === 47 || alias.charCodeAt(0) <= 32 || alias.charCodeAt(last) <= 32)
    return textHash(aliasKey(alias));
  let hash = 0x811c9dc5;
  for (let at = 0; at <= last; at += 1) {
    const unit = alias.charCodeAt(at);
    if (unit >= 127) return textHash(aliasKey(alias));
    hash = Math.imul(hash ^ (unit >= 65 && unit <= 90 ? unit + 32 : unit), 0x01000193);
  }
  return hash ^ (hash >>> 15);
}

function sameText(a: Entry, b: Entry): boolean {
  return a.alias === b.alias && a.short === b.short && a.longurl === b.longurl && a.title === b.title && a.description === b.description;
}
