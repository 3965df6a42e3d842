/**
 * Slots found by a 32-bit hash of their key, in one typed array (open addressing, linear probing,
 * at most half full): 8 to 16 bytes a link where a Map takes about 36. Keys are not kept: the
 * caller checks each slot found against its entry, and gives a slot's hash again when the table
 * grows or closes a gap (so a slot is removed before its entry changes its key).
 */
export class SlotHash {
  /** Slot + 1 in each cell; 0: empty. */
  #table = new Int32Array(64);
  #size = 0;
  readonly #hashOf: (slot: number) => number;

  constructor(hashOf: (slot: number) => number) {
    this.#hashOf = hashOf;
  }

  add(slot: number): void {
    if ((this.#size + 1) * 2 > this.#table.length) {
      const old = this.#table;
      this.#table = new Int32Array(old.length * 2);
      for (const cell of old) if (cell !== 0) this.#place(cell - 1);
    }
    this.#place(slot);
    this.#size += 1;
  }

  /** Calls `visit` with every slot filed under `hash`, and perhaps others. */
  each(hash: number, visit: (slot: number) => void): void {
    const table = this.#table;
    const mask = table.length - 1;
    for (let at = hash & mask; table[at] !== 0; at = (at + 1) & mask) visit(table[at]! - 1);
  }

  /** The first slot filed under `hash` that `matches`, if any. */
  find(hash: number, matches: (slot: number) => boolean): number | undefined {
    const table = this.#table;
    const mask = table.length - 1;
    for (let at = hash & mask; table[at] !== 0; at = (at + 1) & mask) if (matches(table[at]! - 1)) return table[at]! - 1;
    return undefined;
  }

  remove(slot: number): void {
    const table = this.#table;
    const mask = table.length - 1;
    let gap = this.#hashOf(slot) & mask;
    while (table[gap] !== slot + 1) {
      if (table[gap] === 0) return;
      gap = (gap + 1) & mask;
    }
    // Closes the gap: a later cell of the run moves back into it unless its own hash places it after the gap.
    for (let next = (gap + 1) & mask; table[next] !== 0; next = (next + 1) & mask) {
      const home = this.#hashOf(table[next]! - 1) & mask;
      if (((next - home) & mask) >= ((next - gap) & mask)) {
        table[gap] = table[next]!;
        gap = next;
      }
    }
    table[gap] = 0;
    this.#size -= 1;
  }

  #place(slot: number): void {
    const table = this.#table;
    const mask = table.length - 1;
    let at = this.#hashOf(slot) & mask;
    while (table[at] !== 0) at = (at + 1) & mask;
    table[at] = slot + 1;
  }
}

/** A 32-bit hash of a number (a link id), spread over every bit. */
export function numberHash(value: number): number {
  let hash = Math.imul(value % 0x100000000 ^ Math.floor(value / 0x100000000), 0x9e3779b1);
  hash ^= hash >>> 16;
  return Math.imul(hash, 0x85ebca6b) ^ (hash >>> 13);
}

/** FNV-1a of a text's code units. */
export function textHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let at = 0; at < text.length; at += 1) hash = Math.imul(hash ^ text.charCodeAt(at), 0x01000193);
  return hash ^ (hash >>> 15);
}
