import type { Sleep, TransportResponse } from "./transport";
import { headerValue } from "./transport";

export interface Clock {
  now: () => number;
  sleep: Sleep;
}

/**
 * Client-side pacing for one API key, from the server's `X-RateLimit-*` headers.
 *
 * It keeps an estimate of how many requests the current window still allows, lowered as requests
 * leave and corrected by each answer (minus the requests still in flight, which the server has not
 * counted yet). When the estimate reaches zero, requests wait for the window's reset. While nothing
 * is known yet, one request goes first and the others wait for its headers, so that a burst larger
 * than the limit never starts blind.
 */
export class RateLimiter {
  private limit: number | undefined;
  private remaining: number | undefined;
  private resetAt: number | undefined;
  private inFlight = 0;
  private probing = false;
  private headersAbsent = false;
  private wakeProbeWaiters: Array<() => void> = [];

  /** Milliseconds added after a reset before requests leave again, for clock granularity. */
  constructor(private readonly resetMarginMs = 20) {}

  /**
   * Waits until a request may leave and counts it as in flight. Returns the time spent waiting.
   * Throws `tooLong(wait)`'s error when the next wait would exceed what is left of `maxWaitMs`.
   */
  /** Counts a request as in flight if it may leave at once (the common case, with no promise); false otherwise. */
  tryAcquire(now: number): boolean {
    if (this.resetAt !== undefined && now >= this.resetAt) return false;
    if (!this.headersAbsent && (this.remaining === undefined || this.remaining <= 0)) return false;
    if (this.remaining !== undefined) this.remaining -= 1;
    this.inFlight += 1;
    return true;
  }

  async acquire(clock: Clock, maxWaitMs: number, tooLong: (waitMs: number) => Error, signal?: AbortSignal): Promise<number> {
    const started = clock.now();
    for (;;) {
      const now = clock.now();
      if (this.resetAt !== undefined && now >= this.resetAt) {
        this.remaining = this.limit;
        this.resetAt = undefined;
      }
      if (this.headersAbsent || (this.remaining !== undefined && this.remaining > 0)) {
        if (this.remaining !== undefined) this.remaining -= 1;
        this.inFlight += 1;
        return now - started;
      }
      if (this.remaining === undefined) {
        if (!this.probing) {
          this.probing = true;
          this.inFlight += 1;
          return now - started;
        }
        await new Promise<void>((resolve) => this.wakeProbeWaiters.push(resolve));
        continue;
      }
      const wait = (this.resetAt ?? now + 1000) + this.resetMarginMs - now;
      if (now - started + wait > maxWaitMs) throw tooLong(wait);
      await clock.sleep(wait, signal);
    }
  }

  /** Records an answer's headers (call before `release`). */
  observe(response: Pick<TransportResponse, "headers">, now: number): void {
    const limit = Number(headerValue(response.headers, "x-ratelimit-limit"));
    const remaining = Number(headerValue(response.headers, "x-ratelimit-remaining"));
    const reset = Number(headerValue(response.headers, "x-ratelimit-reset"));
    if (!Number.isFinite(remaining) || !Number.isFinite(reset) || headerValue(response.headers, "x-ratelimit-remaining") === undefined) {
      if (this.limit === undefined && this.remaining === undefined) this.headersAbsent = true;
      return;
    }
    this.headersAbsent = false;
    if (Number.isFinite(limit) && limit > 0) this.limit = limit;
    const resetAt = reset * 1000;
    // A late answer from a window that has already ended says nothing about the current one.
    if (resetAt <= now) return;
    const uncounted = Math.max(0, this.inFlight - 1);
    const allowed = Math.max(0, remaining - uncounted);
    if (this.resetAt === undefined || resetAt > this.resetAt) {
      const sameLocalWindow = this.resetAt === undefined && this.remaining !== undefined;
      this.remaining = sameLocalWindow ? Math.min(this.remaining ?? allowed, allowed) : allowed;
      this.resetAt = resetAt;
    } else if (resetAt === this.resetAt) {
      this.remaining = Math.min(this.remaining ?? allowed, allowed);
    }
  }

  /** The server said the limit is spent: hold every request until `until` (epoch ms), its most specific word on when. */
  blockUntil(until: number): void {
    this.remaining = 0;
    this.resetAt = until;
    this.headersAbsent = false;
  }

  /** Marks a request as answered (or failed). */
  release(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (this.probing) {
      this.probing = false;
      const waiters = this.wakeProbeWaiters;
      this.wakeProbeWaiters = [];
      for (const wake of waiters) wake();
    }
  }
}

const limiters = new Map<string, RateLimiter>();

/** The limiter shared by every client of one base URL and API key in this process. */
export function sharedLimiter(baseUrl: string, apiKey: string): RateLimiter {
  const key = `${baseUrl}\n${apiKey}`;
  let limiter = limiters.get(key);
  if (!limiter) {
    limiter = new RateLimiter();
    limiters.set(key, limiter);
  }
  return limiter;
}
