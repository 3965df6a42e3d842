/** When a rate-limit window ends, as the server says it, and whether to believe it. */
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
