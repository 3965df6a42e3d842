/**
 * The rate-limit window, the one reader of the server's `X-RateLimit-*` headers and of reset
 * times: what an answer says of its window, when a window ends and whether to believe it, and how
 * far through a window a moment is. The limiter, the answers' errors and the index's sweep ask here.
 */
import { headerValue, type TransportResponse } from "./transport";

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

/**
 * Whether an answer names a window that had ended by `now` (an answer read late, on a loaded
 * machine): it says nothing of the current window, and it is no sign of a server without rate headers.
 */
export function namesEndedWindow(response: Pick<TransportResponse, "headers">, now: number): boolean {
  const resetAt = resetOf(response);
  return resetAt !== undefined && resetAt <= now && headerValue(response.headers, "x-ratelimit-remaining") !== undefined;
}

/** What one answer says of its window. */
export interface WindowWord {
  /** The window's cap; undefined when the answer does not say it. */
  limit: number | undefined;
  /** Requests the window still allows, as the server counted when it answered. */
  remaining: number;
  /** When the window ends (epoch ms), a plausible reset. */
  resetAt: number;
}

/** An answer's word on its window; undefined when it gives no count of requests left or no believable reset. */
export function windowOf(response: Pick<TransportResponse, "headers">, now: number): WindowWord | undefined {
  const remainingHeader = headerValue(response.headers, "x-ratelimit-remaining");
  const remaining = Number(remainingHeader);
  const resetAt = resetOf(response);
  if (!Number.isFinite(remaining) || remainingHeader === undefined || !isPlausibleReset(resetAt, now)) return undefined;
  const limit = Number(headerValue(response.headers, "x-ratelimit-limit"));
  return { limit: Number.isFinite(limit) && limit > 0 ? limit : undefined, remaining, resetAt };
}

/**
 * When a limit answer's window lifts, as its headers say: the reset, only if the answer says that
 * window is spent. A proxy's 429 that passes on headers of a window with requests left lifts at its
 * Retry-After instead.
 */
export function spentWindowResetOf(response: Pick<TransportResponse, "headers">): number | undefined {
  const windowHasRoom = Number(headerValue(response.headers, "x-ratelimit-remaining")) > 0;
  return windowHasRoom ? undefined : resetOf(response);
}

/** Whether the window that ends at `resetAt` has ended by `now` (false when its end is unknown). */
export function windowEnded(resetAt: number | undefined, now: number): boolean {
  return resetAt !== undefined && now >= resetAt;
}

/** How much of a window, followed from `startedAt` to its reset, has passed by `now`: from 0 to 1. */
export function windowPassed(startedAt: number, resetAt: number, now: number): number {
  return Math.min(1, Math.max(0, (now - startedAt) / (resetAt - startedAt)));
}

/** The moment `part` of `whole` of a window, followed from `startedAt` to its reset, has passed. */
export function momentInWindow(startedAt: number, resetAt: number, part: number, whole: number): number {
  return startedAt + ((resetAt - startedAt) * part) / whole;
}
