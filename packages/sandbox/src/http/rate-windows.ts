import { createHash } from "node:crypto";

/** Request counts per key and window. Bounded: at most `maxKeys` keys, stored as digests, the oldest dropped first. */
export class RateWindows {
  private counts = new Map<string, { windowEnd: number; used: number }>();
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxKeys = 10_000,
  ) {}

  get size(): number {
    return this.counts.size;
  }

  /** Counts a request of this key; windows are aligned to multiples of the window length. */
  hit(key: string, now: number): { headers: Record<string, string>; exceeded: boolean; retryAfter: number } {
    const windowEnd = (Math.floor(now / this.windowMs) + 1) * this.windowMs;
    // A digest keeps each entry small whatever the header's length.
    const digest = createHash("sha256").update(key).digest("base64");
    let entry = this.counts.get(digest);
    if (!entry || entry.windowEnd !== windowEnd) {
      this.counts.delete(digest);
      if (this.counts.size >= this.maxKeys) this.prune(now);
      entry = { windowEnd, used: 0 };
      this.counts.set(digest, entry);
    }
    entry.used += 1;
    return {
      headers: {
        "X-RateLimit-Limit": String(this.limit),
        "X-RateLimit-Remaining": String(Math.max(0, this.limit - entry.used)),
        "X-RateLimit-Reset": String(Math.ceil(windowEnd / 1000)),
      },
      exceeded: entry.used > this.limit,
      retryAfter: Math.max(1, Math.ceil((windowEnd - now) / 1000)),
    };
  }

  /** Drops ended windows; if that is not enough, the oldest tenth of the keys (Map order is insertion order). */
  private prune(now: number): void {
    for (const [key, entry] of this.counts) if (entry.windowEnd <= now) this.counts.delete(key);
    if (this.counts.size < this.maxKeys) return;
    let excess = this.counts.size - Math.floor(this.maxKeys * 0.9);
    for (const key of this.counts.keys()) {
      if (excess-- <= 0) break;
      this.counts.delete(key);
    }
  }
}
