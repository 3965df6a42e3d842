/**
 * Which links may hold a query's words, without reading every link: a bit-sliced signature of each
 * link's trigrams (each trigram sets 2 of 256 slices; a slice is one bit a link, in blocks of
 * 1,024 links: 32 KB at least), trigrams most links hold left out. A link holding a word has every
 * slice of the word's other trigrams; a link that has them all may still not hold it (`rankEntry`
 * decides), so the filter never drops a match. 32 bytes a link, whatever its length: postings of
 * every trigram would take 50 to 100 bytes a link on the bench's links, beside about 340 for the
 * links.
 */

const SLICES = 256;
const BLOCK = 1024;
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

/** Puts the hash of each trigram of `text`, folded, into `into` (after what it holds). */
function trigramHashes(text: string, into: number[]): void {
  let first = -1;
  let second = -1;
  for (let at = 0; at < text.length; at += 1) {
    const third = foldUnit(text.charCodeAt(at));
    if (first >= 0 && second >= 0 && third >= 0) into.push(trigramHash(first, second, third));
    first = second;
    second = third;
  }
}

const firstSlice = (hash: number) => hash & (SLICES - 1);
const secondSlice = (hash: number) => (hash >>> 8) & (SLICES - 1);

/** The filter learns which trigrams most links hold when it holds this many links, then each time it holds 16 times more. */
const FIRST_LEARNING = 1024;
/** Links read to learn them, at most. */
const LEARNING_SAMPLE = 2048;

export class TrigramFilter {
  readonly #blocks: Uint32Array[] = [];
  readonly #kept = new Uint32Array(WORDS_A_SLICE);
  readonly #hashes: number[] = [];
  /**
   * Trigrams half the links or more hold (a site's host, a UTM parameter's name): they would fill
   * the slices others need, and finding them narrows nothing. Neither filed nor asked for.
   */
  #common = new Set<number>();
  /** A bit for each value of a hash's top 16 bits that a common trigram has: most trigrams are told apart without the set. */
  readonly #commonTops = new Uint32Array(2048);
  #learnAt = FIRST_LEARNING;

  /** Whether the filter, holding `size` links, should learn its common trigrams again (`relearn`, then every link added again). */
  due(size: number): boolean {
    return size >= this.#learnAt;
  }

  /** Forgets every link and learns the common trigrams from some of the `size` links (`textsAt`: the texts of the link at 0 to size - 1). */
  relearn(size: number, textsAt: (at: number) => readonly string[]): void {
    const holding = new Map<number, number>();
    const seen = new Set<number>();
    const sampled = Math.min(size, LEARNING_SAMPLE);
    for (let taken = 0; taken < sampled; taken += 1) {
      // Spread by the golden ratio, not by a fixed step: links made in turns (one of each kind) would all fall on one kind.
      const at = sampled === size ? taken : Math.floor(((taken * 0.6180339887498949) % 1) * size);
      seen.clear();
      this.#hashes.length = 0;
      for (const text of textsAt(at)) trigramHashes(text, this.#hashes);
      for (const hash of this.#hashes) seen.add(hash);
      for (const hash of seen) holding.set(hash, (holding.get(hash) ?? 0) + 1);
    }
    this.#common = new Set([...holding].filter(([, links]) => links * 2 >= sampled).map(([hash]) => hash));
    this.#commonTops.fill(0);
    for (const hash of this.#common) this.#commonTops[hash >>> 21]! |= 1 << ((hash >>> 16) & 31);
    for (const block of this.#blocks) block.fill(0);
    this.#learnAt = Math.max(FIRST_LEARNING, size * 16);
  }

  /** The slices a link holding every one of `words` has (words under 3 units, and common trigrams, say nothing). */
  slicesOf(words: readonly string[]): number[] {
    this.#hashes.length = 0;
    for (const word of words) trigramHashes(word, this.#hashes);
    const slices = new Set<number>();
    for (const hash of this.#hashes) {
      if (this.#isCommon(hash)) continue;
      slices.add(firstSlice(hash));
      slices.add(secondSlice(hash));
    }
    return [...slices];
  }

  /** Records the trigrams of `texts` for `slot` (whose signature is empty: new, or cleared by `remove`). */
  add(slot: number, texts: readonly string[]): void {
    const blockIndex = Math.floor(slot / BLOCK);
    while (this.#blocks.length <= blockIndex) this.#blocks.push(new Uint32Array(SLICES * WORDS_A_SLICE));
    const block = this.#blocks[blockIndex]!;
    const word = slot % BLOCK >>> 5;
    const bit = 1 << (slot & 31);
    const hashes = this.#hashes;
    hashes.length = 0;
    for (const text of texts) trigramHashes(text, hashes);
    for (const hash of hashes) {
      if (this.#isCommon(hash)) continue;
      block[firstSlice(hash) * WORDS_A_SLICE + word]! |= bit;
      block[secondSlice(hash) * WORDS_A_SLICE + word]! |= bit;
    }
  }

  #isCommon(hash: number): boolean {
    return (this.#commonTops[hash >>> 21]! & (1 << ((hash >>> 16) & 31))) !== 0 && this.#common.has(hash);
  }

  remove(slot: number): void {
    const block = this.#blocks[Math.floor(slot / BLOCK)];
    if (!block) return;
    const word = slot % BLOCK >>> 5;
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
      for (const slot of also) if (Math.floor(slot / BLOCK) === blockIndex) kept[slot % BLOCK >>> 5]! |= 1 << (slot & 31);
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
