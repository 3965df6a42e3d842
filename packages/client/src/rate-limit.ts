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
  /** When the probe in flight will have its answer at the latest (its own deadline). */
  private probeDeadline = 0;
  private headersAbsent = false;
  /** The current hold comes from a limit answer: answers of the same window that were counted earlier do not lift it. */
  private blocked = false;
  private wakeProbeWaiters: Array<() => void> = [];

  /** Milliseconds added after a reset before requests leave again, for clock granularity. */
  constructor(private readonly resetMarginMs = 20) {}

  /** Counts a request as in flight if it may leave at once (the common case, with no promise); false otherwise. */
  tryAcquire(now: number): boolean {
    if (this.resetAt !== undefined && now >= this.resetAt) return false;
    if (!this.headersAbsent && (this.remaining === undefined || this.remaining <= 0)) return false;
    if (this.remaining !== undefined) this.remaining -= 1;
    this.inFlight += 1;
    return true;
  }

  /**
   * Waits until a request may leave and counts it as in flight. Returns the time spent waiting.
   * Throws `wait.tooLong(ms)`'s error when the next window's wait would exceed what is left of
   * `wait.maxWaitMs`, and `wait.timedOut()`'s when the probe would keep it waiting past `wait.timeoutMs`.
   */
  async acquire(clock: Clock, wait: AcquireWait): Promise<number> {
    const started = clock.now();
    for (;;) {
      const now = clock.now();
      if (this.resetAt !== undefined && now >= this.resetAt) {
        this.remaining = this.limit;
        this.resetAt = undefined;
        this.blocked = false;
      }
      if (this.headersAbsent || (this.remaining !== undefined && this.remaining > 0)) {
        if (this.remaining !== undefined) this.remaining -= 1;
        this.inFlight += 1;
        return now - started;
      }
      if (this.remaining === undefined) {
        if (!this.probing) {
          this.probing = true;
          this.probeDeadline = now + wait.timeoutMs;
          this.inFlight += 1;
          return now - started;
        }
        await this.waitForProbe(clock, now + wait.timeoutMs, wait.timedOut);
        continue;
      }
      // A call that already met a limit answer wakes a millisecond before the others: it lost a
      // window to other processes once, and goes first in the next.
      const sleepMs = (this.resetAt ?? now + 1000) + this.resetMarginMs - (wait.afterLimitAnswer ? 1 : 0) - now;
      if (now - started + sleepMs > wait.maxWaitMs) throw wait.tooLong(sleepMs);
      await clock.sleep(sleepMs, wait.signal);
    }
  }

  /**
   * Waits for the probe's answer. A probe that may outlast this call's own deadline (it was sent
   * with a longer timeout) is raced with a sleep to that deadline: a call never waits behind
   * another longer than its own timeout, and then fails with nothing sent.
   */
  private async waitForProbe(clock: Clock, deadline: number, timedOut: () => Error): Promise<void> {
    const woken = new Promise<void>((resolve) => this.wakeProbeWaiters.push(resolve));
    if (this.probeDeadline <= deadline) return woken;
    const budget = deadline - clock.now();
    const stopSleeping = new AbortController();
    const expired = clock.sleep(budget, stopSleeping.signal).then(
      () => true,
      () => false,
    );
    const expiredFirst = await Promise.race([woken.then(() => false), expired]);
    stopSleeping.abort();
    if (expiredFirst) throw timedOut();
  }

  /**
   * What the current window still allows as far as this limiter knows, for callers that keep
   * their own share of it (the link index's sweep). Undefined while nothing is known (no answer
   * yet, or a server that sends no rate headers).
   */
  headroom(now: number): RateLimitHeadroom | undefined {
    if (this.headersAbsent || this.limit === undefined || this.remaining === undefined) return undefined;
    if (this.resetAt !== undefined && now >= this.resetAt) return { limit: this.limit, remaining: this.limit, resetAt: undefined };
    return { limit: this.limit, remaining: Math.max(0, this.remaining), resetAt: this.resetAt };
  }

  /** Records an answer's headers (call before `release`). */
  observe(response: Pick<TransportResponse, "headers">, now: number): void {
    const limit = Number(headerValue(response.headers, "x-ratelimit-limit"));
    const remaining = Number(headerValue(response.headers, "x-ratelimit-remaining"));
    const resetAt = resetOf(response);
    if (!Number.isFinite(remaining) || headerValue(response.headers, "x-ratelimit-remaining") === undefined || !isPlausibleReset(resetAt, now)) {
      if (this.limit === undefined && this.remaining === undefined) this.headersAbsent = true;
      return;
    }
    this.headersAbsent = false;
    if (Number.isFinite(limit) && limit > 0) this.limit = limit;
    if (this.blocked && this.resetAt !== undefined && resetAt <= this.resetAt) return;
    this.blocked = false;
    const uncounted = Math.max(0, this.inFlight - 1);
    const allowed = Math.max(0, remaining - uncounted);
    if (resetAt === this.resetAt || (this.resetAt === undefined && this.remaining !== undefined)) {
      // The same window as what is known (or the one the local estimate is counting down): the lower count wins.
      this.remaining = Math.min(this.remaining ?? allowed, allowed);
    } else {
      // A new window, or the server correcting an earlier word: the latest answer wins.
      this.remaining = allowed;
    }
    this.resetAt = resetAt;
  }

  /** The server said the limit is spent: hold every request until `until` (epoch ms), its most specific word on when. */
  blockUntil(until: number): void {
    this.remaining = 0;
    this.resetAt = until;
    this.headersAbsent = false;
    this.blocked = true;
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

export interface RateLimitHeadroom {
  /** The window's cap. */
  limit: number;
  /** Requests the window still allows, less those in flight. */
  remaining: number;
  /** When the window ends (epoch ms); undefined when that window has already ended. */
  resetAt: number | undefined;
}

export interface AcquireWait {
  /** What is left of the call's allowed wait for the rate limit. */
  maxWaitMs: number;
  /** The call's timeout: the longest it waits for the probe's answer. */
  timeoutMs: number;
  tooLong: (waitMs: number) => Error;
  timedOut: () => Error;
  signal?: AbortSignal;
  /** The call is trying again after a limit answer. */
  afterLimitAnswer?: boolean;
}

/**
 * The longest a window may plausibly last (the API's is one minute). A reset further away is not
 * believed: a server that sends it in milliseconds, say, would otherwise stop every call of the key
 * for the life of the process.
 */
export const MAX_PLAUSIBLE_RESET_MS = 5 * 60_000;

/** `X-RateLimit-Reset` as epoch ms, as the server sent it (a Unix time in seconds); undefined when absent or not a time. */
export function resetOf(response: Pick<TransportResponse, "headers">): number | undefined {
  const seconds = Number(headerValue(response.headers, "x-ratelimit-reset"));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}

/**
 * Whether a reset names a moment in the plausible future. A late answer from a window that has
 * already ended says nothing about the current one.
 */
export function isPlausibleReset(resetAt: number | undefined, now: number): resetAt is number {
  return resetAt !== undefined && resetAt > now && resetAt - now <= MAX_PLAUSIBLE_RESET_MS;
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
