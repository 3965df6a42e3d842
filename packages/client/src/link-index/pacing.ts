import { sleepUnlessAborted } from "../internal/abortable-wait";
import type { RateLimitHeadroom } from "../internal/rate-limit";
import { momentInWindow, windowPassed } from "../rate-window";
import type { Sleep } from "../transport";

/** The sweep's share of each window it may take at once; the rest of its share comes evenly over the window. */
const BURST_SHARE = 1 / 4;

/**
 * How much of the key's rate limit the sweep takes, one window at a time. Calls the user (or an
 * assistant) makes go first: the sweep counts their requests against its own share, spreads its
 * share over the window instead of taking it at the start, and always leaves `reserve` requests.
 */
export class SweepPacer {
  readonly #reserve: number;
  /** Sweep requests sent in the window that ends at `#resetAt`, and when that window was first seen. */
  #resetAt: number | undefined;
  #startedAt = 0;
  #spent = 0;

  constructor(reserve: number) {
    this.#reserve = reserve;
  }

  /** Whether the sweep may send a request now; `share` of the window is the most it takes. */
  mayRead(headroom: RateLimitHeadroom | undefined, share: number, now: number): boolean {
    if (headroom === undefined) return true;
    this.#follow(headroom, now);
    return headroom.remaining > this.#reserve && this.#spent + this.#others(headroom) < this.#allowed(headroom, share, now);
  }

  /** Counts a request the sweep sends. */
  sent(): void {
    this.#spent += 1;
  }

  /** When the sweep may read next (epoch ms): a later moment of this window, or its end. */
  nextReadAt(headroom: RateLimitHeadroom, share: number, now: number): number | undefined {
    const { resetAt } = headroom;
    if (resetAt === undefined) return undefined;
    if (headroom.remaining <= this.#reserve) return resetAt;
    const budget = this.#budget(headroom, share);
    const needed = this.#spent + this.#others(headroom) + 1 - Math.max(1, Math.floor(budget * BURST_SHARE));
    if (needed > budget || resetAt <= this.#startedAt) return resetAt;
    return Math.max(now, Math.min(resetAt, momentInWindow(this.#startedAt, resetAt, needed, budget)));
  }

  #follow(headroom: RateLimitHeadroom, now: number): void {
    if (headroom.resetAt === this.#resetAt) return;
    this.#resetAt = headroom.resetAt;
    this.#startedAt = now;
    this.#spent = 0;
  }

  /** Requests of this window that were not the sweep's (the user's calls, another program using the key). */
  #others(headroom: RateLimitHeadroom): number {
    return Math.max(0, headroom.limit - headroom.remaining - this.#spent);
  }

  #budget(headroom: RateLimitHeadroom, share: number): number {
    return Math.max(1, Math.floor(headroom.limit * share) - this.#reserve);
  }

  /** What the sweep and the others together may have used by now: a quarter at once, the rest as the window passes. */
  #allowed(headroom: RateLimitHeadroom, share: number, now: number): number {
    const budget = this.#budget(headroom, share);
    const burst = Math.max(1, Math.floor(budget * BURST_SHARE));
    const { resetAt } = headroom;
    if (resetAt === undefined || resetAt <= this.#startedAt) return budget;
    const passed = windowPassed(this.#startedAt, resetAt, now);
    return Math.min(budget, burst + Math.floor((budget - burst) * passed));
  }
}

/** A read due at the reset waits this much past it: the server's window must have turned. */
const PAST_RESET_MS = 50;
const MIN_WAIT_MS = 50;

/**
 * The sweep's turns in the key's windows: all but the reserve until the first full sweep is done,
 * `share` of each window after it, and the wait for the next turn.
 */
export class SweepTurns {
  readonly #pacer: SweepPacer;
  readonly #share: number;
  readonly #sleep: Sleep | undefined;
  readonly #now: () => number;

  constructor(options: { reserve: number; share: number; sleep: Sleep | undefined; now: () => number }) {
    this.#pacer = new SweepPacer(options.reserve);
    this.#share = options.share;
    this.#sleep = options.sleep;
    this.#now = options.now;
  }

  /** Whether the sweep may read now; `swept`: a full sweep has finished (the sweep keeps to its share). */
  mayRead(headroom: RateLimitHeadroom | undefined, swept: boolean): boolean {
    return this.#pacer.mayRead(headroom, this.#shareNow(swept), this.#now());
  }

  sent(): void {
    this.#pacer.sent();
  }

  /** Sleeps until the sweep may read again (a later moment of the window, or the next one); false when there is no sleep or no known time. */
  async waitForTurn(headroomNow: () => RateLimitHeadroom | undefined, swept: boolean, signal: AbortSignal | undefined): Promise<boolean> {
    const headroom = headroomNow();
    const at = headroom && this.#pacer.nextReadAt(headroom, this.#shareNow(swept), this.#now());
    if (this.#sleep === undefined || at === undefined) return false;
    await sleepUnlessAborted(this.#sleep, Math.max(MIN_WAIT_MS, at - this.#now() + (at === headroom?.resetAt ? PAST_RESET_MS : 0)), signal);
    return true;
  }

  #shareNow(swept: boolean): number {
    return swept ? this.#share : 1;
  }
}
