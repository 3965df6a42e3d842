/**
 * The process's limiters, one per account, under its `accountId` (a digest of the key: the key
 * itself is kept nowhere here). An entry whose window has passed with nothing in flight or
 * waiting is released at the next sweep, so keys used once (100,000 short-lived clients) do not
 * stay for the life of the process; clients hold a handle that finds the entry again, or a new
 * one, so clients of one key still share one limiter after a release.
 */
import { RateLimiter, type AcquireWait, type Clock, type RateLimitHeadroom } from "./rate-limit";
import type { TransportResponse } from "../transport";

const MIN_SWEEP_SIZE = 64;
const SWEEP_EVERY_MS = 60_000;

class LimiterRegistry {
  private readonly limiters = new Map<string, RateLimiter>();
  private sweepAtSize = MIN_SWEEP_SIZE;
  private lastSweep = Number.NEGATIVE_INFINITY;

  /** The limiter of `id`, made (after sweeping idle ones, when due) if there is none. */
  limiterFor(id: string, now: number): RateLimiter {
    const existing = this.limiters.get(id);
    if (existing) return existing;
    if (this.limiters.size >= this.sweepAtSize || now - this.lastSweep >= SWEEP_EVERY_MS) this.sweep(now);
    const limiter = new RateLimiter();
    this.limiters.set(id, limiter);
    return limiter;
  }

  peek(id: string): RateLimiter | undefined {
    return this.limiters.get(id);
  }

  ids(): string[] {
    return [...this.limiters.keys()];
  }

  private sweep(now: number): void {
    for (const [id, limiter] of this.limiters) if (limiter.isIdle(now)) this.limiters.delete(id);
    this.lastSweep = now;
    // Sweeps by size cost O(1) per new entry on average: the next waits for the map to double.
    this.sweepAtSize = Math.max(MIN_SWEEP_SIZE, this.limiters.size * 2);
  }
}

const registry = new LimiterRegistry();

/** A client's handle on its key's shared limiter: every call goes to the registry's current entry for the key. */
class SharedLimiter extends RateLimiter {
  constructor(private readonly id: string) {
    super();
  }

  override tryAcquire(now: number): boolean {
    return registry.limiterFor(this.id, now).tryAcquire(now);
  }

  override acquire(clock: Clock, wait: AcquireWait): Promise<number> {
    return registry.limiterFor(this.id, clock.now()).acquire(clock, wait);
  }

  override observe(response: Pick<TransportResponse, "headers">, now: number): void {
    registry.limiterFor(this.id, now).observe(response, now);
  }

  override blockUntil(until: number): void {
    // Called right after a limit answer, while the request still counts as in flight: the entry exists.
    (registry.peek(this.id) ?? registry.limiterFor(this.id, Number.NEGATIVE_INFINITY)).blockUntil(until);
  }

  override release(): void {
    registry.peek(this.id)?.release();
  }

  override headroom(now: number): RateLimitHeadroom | undefined {
    return registry.peek(this.id)?.headroom(now);
  }

  override sendsNoWindows(): boolean {
    return registry.peek(this.id)?.sendsNoWindows() ?? false;
  }

  override isIdle(now: number): boolean {
    return registry.peek(this.id)?.isIdle(now) ?? true;
  }
}

/** The limiter shared by every client of one account (`accountId`: base URL and key digest) in this process. */
export function sharedLimiter(account: string): RateLimiter {
  return new SharedLimiter(account);
}

/** The ids under which the process keeps shared limiters (for tests: how many, and that no key is among them). */
export function sharedLimiterIds(): string[] {
  return registry.ids();
}
