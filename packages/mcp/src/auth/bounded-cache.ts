/**
 * "Keep N, let the oldest go", once for the MCP server: a cache of at most `max` entries, the least
 * recently used let go first (a `get` or a `set` counts as a use; a `peek` does not), each entry
 * living `ttlMs` after it was set when that is given. Written here rather than taken from a
 * package: the library's bundle requires no dependency beyond its own list (test/bundle.test.ts),
 * and a cache of 200,000 sign-in rows should cost memory only as it fills.
 */
export interface BoundedCacheOptions<K, V> {
  max: number;
  /** How long an entry lives after it was set, in ms; until it is let go when not given. */
  ttlMs?: number;
  /** The clock of `ttlMs`, in epoch ms (tests move it). */
  now?: () => number;
  /** Told of each entry let go to keep the bound (not of those deleted, replaced or expired). */
  onEvict?: (value: V, key: K) => void;
}

interface Entry<V> {
  value: V;
  expiresAt: number;
}

export class BoundedCache<K, V> {
  /** Least recently used first. */
  readonly #entries = new Map<K, Entry<V>>();
  readonly #now: () => number;

  constructor(private readonly options: BoundedCacheOptions<K, V>) {
    this.#now = options.now ?? Date.now;
  }

  /** The value, counted as a use (it becomes the most recently used). */
  get(key: K): V | undefined {
    const entry = this.#live(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  /** The value, without counting as a use. */
  peek(key: K): V | undefined {
    return this.#live(key)?.value;
  }

  has(key: K): boolean {
    return this.#live(key) !== undefined;
  }

  /** Sets `key` as the most recently used entry, then lets the least recently used go while there are more than `max`. */
  set(key: K, value: V): this {
    this.#entries.delete(key);
    this.#entries.set(key, { value, expiresAt: this.options.ttlMs === undefined ? Infinity : this.#now() + this.options.ttlMs });
    while (this.#entries.size > this.options.max) {
      const [oldest, evicted] = this.#entries.entries().next().value!;
      this.#entries.delete(oldest);
      this.options.onEvict?.(evicted.value, oldest);
    }
    return this;
  }

  delete(key: K): boolean {
    return this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }

  /** The entries kept, expired ones not yet looked at included. */
  get size(): number {
    return this.#entries.size;
  }

  #live(key: K): Entry<V> | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined || entry.expiresAt > this.#now()) return entry;
    this.#entries.delete(key);
    return undefined;
  }
}
