/**
 * "Keep N, let the oldest go", once for the client: a Map of at most `max` entries, in the order
 * they were last set; setting one past the bound lets the oldest go (and tells `onEvict`). A read
 * does not move an entry: a caller that wants "least recently used" sets what it used again.
 */
export class BoundedMap<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(
    readonly max: number,
    private readonly onEvict?: (value: V, key: K) => void,
  ) {}

  get(key: K): V | undefined {
    return this.#entries.get(key);
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  /** Sets `key` as the newest entry, then lets the oldest go while there are more than `max`. */
  set(key: K, value: V): this {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    while (this.#entries.size > this.max) {
      const [oldest, evicted] = this.#entries.entries().next().value!;
      this.#entries.delete(oldest);
      this.onEvict?.(evicted, oldest);
    }
    return this;
  }

  delete(key: K): boolean {
    return this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The values kept, oldest first. */
  values(): IterableIterator<V> {
    return this.#entries.values();
  }
}
