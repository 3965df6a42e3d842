/**
 * Failed key checks, bounded: every key the service refuses costs it a failed login from this
 * server's address, and tells the sender whether a key is good. Each client address (the socket's
 * peer, or behind a trusted proxy the one it forwards for; an IPv6 one by its /64:
 * `client-address.ts`) and each sign-in page has a bucket of failures that
 * drains at a steady rate; an attempt is charged before the key is sent on (so that concurrent
 * attempts cannot all pass), given back when it was no failure (a good key, the service out of
 * reach). Past a few failures each refusal is answered later and later; a full bucket is answered
 * 429 with Retry-After without asking the service. A good key goes through again once the bucket
 * has drained below full.
 */
import { BoundedCache } from "./bounded-cache";

export interface FailureBound {
  /** Failures taken at once. */
  burst: number;
  /** Failures taken per minute after the burst (the bucket drains at this rate). */
  perMinute: number;
}

/** Per client address: 10 failures at once, then one every 10 s. */
export const ADDRESS_BOUND: FailureBound = { burst: 10, perMinute: 6 };
/** Per sign-in page (its signed request and cookie, replayed): 5 failures at once, then one a minute. */
export const PAGE_BOUND: FailureBound = { burst: 5, perMinute: 1 };
/** Failures answered at once before the delay starts. */
export const FREE_FAILURES = 3;
/** The first delay, doubled with each further failure up to MAX_DELAY_MS. */
export const FIRST_DELAY_MS = 100;
export const MAX_DELAY_MS = 2_000;
/** Addresses or pages remembered at once (the least recently seen forgotten first), so many addresses cannot grow the table. */
export const MAX_TRACKED = 10_000;

/** The header of a 429 answer past a bound (the one place the server writes it; reading it is the client's). */
export const retryAfterHeader = (seconds: number | undefined): Record<string, string> => (seconds === undefined ? {} : { "Retry-After": String(seconds) });

interface Bucket {
  level: number;
  at: number;
}

export class FailureThrottle {
  readonly #buckets = new BoundedCache<string, Bucket>({ max: MAX_TRACKED });

  constructor(
    private readonly bound: FailureBound,
    private readonly now: () => number = Date.now,
  ) {}

  /** The bucket of `who`, drained to now and made the most recently seen. */
  #bucket(who: string): Bucket {
    const now = this.now();
    const bucket = this.#buckets.peek(who) ?? { level: 0, at: now };
    bucket.level = Math.max(0, bucket.level - ((now - bucket.at) * this.bound.perMinute) / 60_000);
    bucket.at = now;
    this.#buckets.set(who, bucket);
    return bucket;
  }

  /** Charges one attempt of `who`: undefined when it may be checked, else the seconds until one may. */
  charge(who: string): number | undefined {
    const bucket = this.#bucket(who);
    const over = bucket.level + 1 - this.bound.burst;
    if (over > 0) return Math.max(1, Math.ceil((over * 60) / this.bound.perMinute));
    bucket.level += 1;
    return undefined;
  }

  /** Gives back an attempt charged that was no failure. */
  refund(who: string): void {
    const bucket = this.#bucket(who);
    bucket.level = Math.max(0, bucket.level - 1);
  }

  /** How long to hold the answer to a failure of `who` (charged already): nothing for the first few, then doubling. */
  delayMs(who: string): number {
    const failures = Math.ceil(this.#bucket(who).level);
    return failures <= FREE_FAILURES ? 0 : Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (failures - FREE_FAILURES - 1));
  }

  get tracked(): number {
    return this.#buckets.size;
  }
}

/** Refused keys sent in a header, remembered by their SHA-256 (never the key) for a while, so the same wrong key is not sent on again. */
export const REFUSED_KEY_MS = 5 * 60_000;
export const MAX_REFUSED_KEYS = 10_000;

export class RefusedKeys {
  /** By the key's digest, each for REFUSED_KEY_MS; the oldest first. */
  readonly #refused: BoundedCache<string, true>;

  constructor(now: () => number = Date.now) {
    this.#refused = new BoundedCache({ max: MAX_REFUSED_KEYS, ttlMs: REFUSED_KEY_MS, now });
  }

  has(digest: string): boolean {
    return this.#refused.has(digest);
  }

  add(digest: string): void {
    this.#refused.set(digest, true);
  }

  get size(): number {
    return this.#refused.size;
  }
}
