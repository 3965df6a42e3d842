/**
 * The checks of the client's own options, made when a client is made and when a call is given
 * options: a bad one is a `ValidationError` naming it, before anything is sent.
 */
import { isHttpUrl } from "../addresses";
import type { FieldIssue } from "../errors";
import type { RateLimiter } from "./rate-limit";
import type { Sleep, Transport } from "../transport";

/** Node's timers hold at most this many milliseconds; anything longer would fire at once. */
export const MAX_TIMEOUT_MS = 2_147_483_647;
export const MAX_RETRIES = 10;
/** Longer values are refused before any pattern reads them (a base URL's trailing slashes are trimmed by one). */
export const MAX_BASE_URL_LENGTH = 2048;
export const MAX_API_KEY_LENGTH = 1024;

/** Visible Latin-1 text with inner spaces: what an HTTP header value may carry, and nothing that ends a line. */
const HEADER_TEXT = /^[\x21-\x7e\x80-\xff](?:[\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?$/;

type Check = (value: unknown) => string | undefined;

const positiveMs: Check = (value) =>
  typeof value === "number" && value > 0 && value <= MAX_TIMEOUT_MS ? undefined : `must be a number of milliseconds above 0 and at most ${MAX_TIMEOUT_MS}`;
const waitMs: Check = (value) =>
  typeof value === "number" && value >= 0 && value <= MAX_TIMEOUT_MS ? undefined : `must be a number of milliseconds from 0 to ${MAX_TIMEOUT_MS}`;
const retries: Check = (value) =>
  Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_RETRIES ? undefined : `must be a whole number from 0 to ${MAX_RETRIES}`;
const count =
  (unit: string): Check =>
  (value) =>
    Number.isSafeInteger(value) && (value as number) > 0 ? undefined : `must be a positive whole number of ${unit}`;
const abortSignal: Check = (value) =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as AbortSignal).aborted === "boolean" &&
  typeof (value as AbortSignal).addEventListener === "function"
    ? undefined
    : "must be an AbortSignal";
const epochMs: Check = (value) =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? undefined : "must be a time in milliseconds since 1970 (the client's `now`)";
const fn: Check = (value) => (typeof value === "function" ? undefined : "must be a function");
const headerText: Check = (value) =>
  typeof value === "string" && HEADER_TEXT.test(value) ? undefined : "must be text of printable Latin-1 characters, without line breaks or surrounding spaces";

function check(issues: FieldIssue[], field: string, value: unknown, rule: Check): void {
  if (value === undefined) return;
  const message = rule(value);
  if (message) issues.push({ field, message });
}

/** The problems of the options every call accepts (`timeoutMs`, `maxRetries`, `signal`, `maxRateLimitWaitMs`, `deadline`), each named `prefix + field`. */
export function requestOptionIssues(options: unknown, prefix = ""): FieldIssue[] {
  if (options === undefined) return [];
  if (typeof options !== "object" || options === null) return [{ field: prefix.replace(/\.$/, "") || "options", message: "must be an object" }];
  const { timeoutMs, maxRetries, signal, maxRateLimitWaitMs, deadline } = options as Record<string, unknown>;
  const issues: FieldIssue[] = [];
  check(issues, `${prefix}timeoutMs`, timeoutMs, positiveMs);
  check(issues, `${prefix}maxRateLimitWaitMs`, maxRateLimitWaitMs, waitMs);
  check(issues, `${prefix}maxRetries`, maxRetries, retries);
  check(issues, `${prefix}signal`, signal, abortSignal);
  check(issues, `${prefix}deadline`, deadline, epochMs);
  return issues;
}

/** The problems of a client's options, each named as the option is. */
export function clientOptionIssues(options: Record<string, unknown>): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (typeof options.baseUrl === "string" && options.baseUrl.length > MAX_BASE_URL_LENGTH)
    issues.push({ field: "baseUrl", message: `must be at most ${MAX_BASE_URL_LENGTH} characters` });
  else if (typeof options.baseUrl !== "string" || !isHttpUrl(options.baseUrl)) issues.push({ field: "baseUrl", message: "must be a valid http or https URL" });
  if (typeof options.apiKey !== "string" || options.apiKey.trim() === "") issues.push({ field: "apiKey", message: "is required" });
  else if (options.apiKey.length > MAX_API_KEY_LENGTH) issues.push({ field: "apiKey", message: `must be at most ${MAX_API_KEY_LENGTH} characters` });
  else check(issues, "apiKey", options.apiKey, headerText);
  if (typeof options.transport !== "function") issues.push({ field: "transport", message: "must be a function" });
  if (typeof options.sleep !== "function") issues.push({ field: "sleep", message: "must be a function" });
  issues.push(...requestOptionIssues(options));
  check(issues, "maxBodyBytes", options.maxBodyBytes, count("bytes"));
  check(issues, "maxPages", options.maxPages, count("pages"));
  check(issues, "now", options.now, fn);
  check(issues, "random", options.random, fn);
  check(issues, "userAgent", options.userAgent, headerText);
  check(issues, "transportAuthenticates", options.transportAuthenticates, (value) => (typeof value === "boolean" ? undefined : "must be true or false"));
  const { rateLimit } = options;
  if (rateLimit !== undefined && rateLimit !== false) {
    if (typeof rateLimit !== "object" || rateLimit === null) issues.push({ field: "rateLimit", message: "must be false or an object" });
    else {
      const { maxWaitMs, limiter } = rateLimit as Record<string, unknown>;
      check(issues, "rateLimit.maxWaitMs", maxWaitMs, waitMs);
      check(issues, "rateLimit.limiter", limiter, (value) =>
        typeof value === "object" && value !== null && typeof (value as { tryAcquire?: unknown }).tryAcquire === "function"
          ? undefined
          : "must be a RateLimiter",
      );
    }
  }
  return issues;
}

export interface RequestOptions {
  /** Per attempt, from its start to the last byte of its answer; also the longest a call waits behind the key's first request. */
  timeoutMs?: number;
  signal?: AbortSignal;
  maxRetries?: number;
  /**
   * Longest this call may wait for the rate limit (default: the client's `rateLimit.maxWaitMs`).
   * 0 never waits: when the key's window is spent the call fails at once with `RateLimitError`,
   * nothing sent, so that a caller with a deadline of its own (a poll) can stop and go on later.
   */
  maxRateLimitWaitMs?: number;
  /**
   * When the call must be over, retries and waits included (milliseconds since 1970 by the client's
   * `now`): each attempt's timeout is cut to what is left, no wait or retry starts that would end past
   * it, and a call with no time left fails with `TimeoutError` (`deadlinePassed`) before sending. For a
   * caller that must answer by a time of its own (a trigger's poll budget), without a timer.
   */
  deadline?: number;
}

export interface RateLimitOptions {
  /** Longest total time one call may wait for the rate limit before it fails with `RateLimitError`. Default 120 s. */
  maxWaitMs?: number;
  /** The limiter to pace with; by default one shared by every client of the same base URL and key. */
  limiter?: RateLimiter;
}

export interface CoreClientOptions {
  /** The service's address, e.g. `https://short.example.com` (a trailing `/api` is accepted). */
  baseUrl: string;
  apiKey: string;
  transport: Transport;
  /**
   * The transport adds the credential itself (n8n's HTTP helper does, from the node's credential):
   * requests then carry no Authorization header. The key still names the rate-limit window and is
   * redacted from every message.
   */
  transportAuthenticates?: boolean;
  sleep: Sleep;
  /** Per attempt, from its start to the last byte of its answer. Default 30 s. */
  timeoutMs?: number;
  /** Retries of GET, PUT and DELETE after connection errors, timeouts and 5xx. Default 2, at most 10. */
  maxRetries?: number;
  /** The largest answer read; a larger one fails with `ResponseTooLargeError` and is not retried. Default 32 MiB. */
  maxBodyBytes?: number;
  /** The most pages one walk of a list (`for await`, `toArray`) reads before failing with `TooManyPagesError`. Default 10,000. */
  maxPages?: number;
  /** When every call of this client must be over (see `RequestOptions.deadline`): for a client made for one bounded piece of work. */
  deadline?: number;
  /** Pacing from the rate-limit headers; `false` sends at once and fails on a limit answer. */
  rateLimit?: RateLimitOptions | false;
  signal?: AbortSignal;
  /** Epoch milliseconds; injectable for tests. */
  now?: () => number;
  /** A number in [0, 1) for backoff jitter; injectable for tests. */
  random?: () => number;
  userAgent?: string;
}
