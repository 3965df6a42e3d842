/**
 * Which links may hold a query's words, without reading every link: a bit-sliced signature of each
 * link's trigrams (each trigram sets 2 of 256 slices; a slice is one bit a link, in blocks of
 * 4,096 links). A link holding a word has every slice of the word's trigrams; a link that has them
 * all may still not hold it (`rankEntry` decides), so the filter never drops a match. 32 bytes a
 * link, whatever its length: postings of every trigram would cost more than the links themselves.
 */

const SLICES = 256;
const BLOCK = 4096;
const WORDS_A_SLICE = BLOCK / 32;

const foldedBeyondAscii = new Map<number, number>();

function upperUnit(unit: number): number {
  const upper = String.fromCharCode(unit).toUpperCase();
  if (upper.length !== 1) return unit;
  const folded = upper.charCodeAt(0);
  return unit >= 128 && folded < 128 ? unit : folded;
}

/**
 * One key for every code unit search may take as equal: itself (`indexOf` on a field without
 * capitals), the same unit in a case-insensitive pattern (which compares units as upper case, and
 * never a non-ASCII unit with an ASCII one), and the unit `toLowerCase` gives it (a query equal to
 * a lower-cased long URL). -1 for a surrogate: case maps beyond the BMP change them, so a trigram
 * holding one is never used.
 */
export function foldUnit(unit: number): number {
  if (unit < 128) return unit >= 97 && unit <= 122 ? unit - 32 : unit;
  if (unit >= 0xd800 && unit <= 0xdfff) return -1;
  let folded = foldedBeyondAscii.get(unit);
  if (folded === undefined) {
    const lower = String.fromCharCode(unit).toLowerCase();
    folded = upperUnit(lower.length === 1 ? lower.charCodeAt(0) : unit);
    foldedBeyondAscii.set(unit, folded);
  }
  return folded;
}

function trigramHash(a: number, b: number, c: number): number {
  let hash = Math.imul((a << 16) ^ b ^ Math.imul(c, 0x9e3779b1), 0x85ebca6b);
  hash ^= hash >>> 15;
  hash = Math.imul(hash, 0xc2b2ae35);
  return hash ^ (hash >>> 13);
}

/** Calls `slice` with the two slices of each trigram of `text`, folded. */
function eachSlice(text: string, slice: (index: number) => void): void {
  let first = -1;
  let second = -1;
  for (let at = 0; at < text.length; at += 1) {
    const third = foldUnit(text.charCodeAt(at));
    if (first >= 0 && second >= 0 && third >= 0) {
      const hash = trigramHash(first, second, third);
      slice(hash & (SLICES - 1));
      slice((hash >>> 8) & (SLICES - 1));
    }
    first = second;
    second = third;
  }
}

/** The slices a link holding every one of `words` has (words under 3 units say nothing). */
export function slicesOf(words: readonly string[]): number[] {
  const slices = new Set<number>();
  for (const word of words) eachSlice(word, (index) => slices.add(index));
  return [...slices];
}

export class TrigramFilter {
  readonly #blocks: Uint32Array[] = [];
  readonly #kept = new Uint32Array(WORDS_A_SLICE);

  /** Records the trigrams of `texts` for `slot` (whose signature is empty: new, or cleared by `remove`). */
  add(slot: number, texts: readonly string[]): void {
    const blockIndex = Math.floor(slot / BLOCK);
    while (this.#blocks.length <= blockIndex) this.#blocks.push(new Uint32Array(SLICES * WORDS_A_SLICE));
    const block = this.#blocks[blockIndex]!;
    const word = (slot % BLOCK) >>> 5;
    const bit = 1 << (slot & 31);
    for (const text of texts) eachSlice(text, (index) => (block[index * WORDS_A_SLICE + word]! |= bit));
  }

  remove(slot: number): void {
    const block = this.#blocks[Math.floor(slot / BLOCK)];
    if (!block) return;
    const word = (slot % BLOCK) >>> 5;
    const keep = ~(1 << (slot & 31));
    for (let index = 0; index < SLICES; index += 1) block[index * WORDS_A_SLICE + word]! &= keep;
  }

  /** Calls `visit` once with each slot that has every one of `slices` (at least one) or is in `also`, ascending. */
  candidates(slices: readonly number[], also: readonly number[], visit: (slot: number) => void): void {
    const kept = this.#kept;
    for (let blockIndex = 0; blockIndex < this.#blocks.length; blockIndex += 1) {
      const block = this.#blocks[blockIndex]!;
      const first = slices[0]! * WORDS_A_SLICE;
      kept.set(block.subarray(first, first + WORDS_A_SLICE));
      for (let next = 1; next < slices.length; next += 1) {
        const start = slices[next]! * WORDS_A_SLICE;
        for (let word = 0; word < WORDS_A_SLICE; word += 1) kept[word]! &= block[start + word]!;
      }
      for (const slot of also) if (Math.floor(slot / BLOCK) === blockIndex) kept[(slot % BLOCK) >>> 5]! |= 1 << (slot & 31);
      for (let word = 0; word < WORDS_A_SLICE; word += 1) {
        let bits = kept[word]!;
        while (bits !== 0) {
          const lowest = bits & -bits;
          visit(blockIndex * BLOCK + word * 32 + (31 - Math.clz32(lowest)));
          bits ^= lowest;
        }
      }
    }
  }
}
