import { isPlausibleReset } from "./rate-window";

/** One field of the input that failed validation, and why. */
export interface FieldIssue {
  field: string;
  message: string;
}

/**
 * What a failure asks of the caller, one word a front end branches on (with `code` for the detail):
 * - `input`: what this call was given; the error names the field. Correct it and call again.
 * - `settings`: the client's settings do not fit the service (a refused key, a base URL that leads to
 *   no API, client options the constructor refused, answers beyond `maxBodyBytes` or `maxPages`):
 *   every call like this one fails alike until they change.
 * - `refused`: the service understood and said no to this request (not found, not permitted, an
 *   alias taken): the same call fails again, other calls may go.
 * - `transient`: no connection, a timeout, a rate limit past the allowed wait, an unreadable answer
 *   from a server that does speak the API: trying again later can work.
 * - `cancelled`: the caller's signal ended the call.
 */
export type ErrorKind = "input" | "settings" | "refused" | "transient" | "cancelled";

/** The stable code of each error class (undici style): front ends branch on it, never on the class. */
export interface ErrorsByCode {
  LINKSHORT_INVALID_INPUT: ValidationError;
  LINKSHORT_API_ERROR: ApiError;
  LINKSHORT_AUTHENTICATION_FAILED: AuthenticationError;
  LINKSHORT_PERMISSION_DENIED: PermissionError;
  LINKSHORT_NOT_FOUND: NotFoundError;
  LINKSHORT_RATE_LIMITED: RateLimitError;
  LINKSHORT_CONNECTION_FAILED: ConnectionError;
  LINKSHORT_TIMEOUT: TimeoutError;
  LINKSHORT_ABORTED: AbortedError;
  LINKSHORT_UNREADABLE_ANSWER: ResponseError;
  LINKSHORT_ANSWER_TOO_LARGE: ResponseTooLargeError;
  LINKSHORT_TOO_MANY_PAGES: TooManyPagesError;
}
export type LinkShortErrorCode = keyof ErrorsByCode;

const CODES: Record<LinkShortErrorCode, true> = {
  LINKSHORT_INVALID_INPUT: true,
  LINKSHORT_API_ERROR: true,
  LINKSHORT_AUTHENTICATION_FAILED: true,
  LINKSHORT_PERMISSION_DENIED: true,
  LINKSHORT_NOT_FOUND: true,
  LINKSHORT_RATE_LIMITED: true,
  LINKSHORT_CONNECTION_FAILED: true,
  LINKSHORT_TIMEOUT: true,
  LINKSHORT_ABORTED: true,
  LINKSHORT_UNREADABLE_ANSWER: true,
  LINKSHORT_ANSWER_TOO_LARGE: true,
  LINKSHORT_TOO_MANY_PAGES: true,
};
const KINDS: Record<ErrorKind, true> = { input: true, settings: true, refused: true, transient: true, cancelled: true };

/**
 * Base class of every error the client throws. Messages never contain the API key. Its `code` and
 * `kind` are what callers branch on: `instanceof` fails silently when two bundled copies of the
 * client meet (each n8n node package, Raycast and MCP bundle their own), `isLinkShortError` does not.
 */
export abstract class LinkShortError extends Error {
  override name = "LinkShortError";
  abstract readonly code: LinkShortErrorCode;
  abstract readonly kind: ErrorKind;
}

/**
 * Whether `error` is an error of any copy of the client, by its code and kind rather than its
 * prototype; given codes, whether it has one of them (narrowed to those classes).
 */
export function isLinkShortError(error: unknown): error is LinkShortError;
export function isLinkShortError<Code extends LinkShortErrorCode>(error: unknown, ...codes: Code[]): error is ErrorsByCode[Code];
export function isLinkShortError(error: unknown, ...codes: LinkShortErrorCode[]): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, kind, message } = error as { code?: unknown; kind?: unknown; message?: unknown };
  if (typeof code !== "string" || !Object.hasOwn(CODES, code) || typeof kind !== "string" || !Object.hasOwn(KINDS, kind) || typeof message !== "string")
    return false;
  return codes.length === 0 || codes.includes(code as LinkShortErrorCode);
}

/**
 * Whether one item's failure ends a run of the same call over many items (shorten these URLs):
 * when every later item would meet it too. A refused key or base URL, no connection, a rate limit
 * past the wait, a cancelled call, a key not permitted this endpoint, or an error that is not the
 * client's (a fault of the host) end it; bad input for one item, or the service refusing that one
 * (an alias taken, a domain not found), does not.
 */
export function stopsBulkRun(error: unknown): boolean {
  if (!isLinkShortError(error)) return true;
  if (error.code === "LINKSHORT_PERMISSION_DENIED") return true;
  return error.kind !== "input" && error.kind !== "refused";
}

/** Bad input, caught before any request is sent. */
export class ValidationError extends LinkShortError {
  override name = "ValidationError";
  readonly code = "LINKSHORT_INVALID_INPUT";
  readonly issues: readonly FieldIssue[];

  constructor(
    issues: readonly FieldIssue[],
    operation?: string,
    /** `settings` for the client's own options (refused by its constructor), `input` for a call's. */
    readonly kind: "input" | "settings" = "input",
  ) {
    const list = issues.map((issue) => `${issue.field}: ${issue.message}`).join("; ");
    super(`${operation ? `${operation}: ` : ""}invalid input: ${list}`);
    this.issues = issues;
  }

  /** The names of the fields that failed, in order. */
  get fields(): string[] {
    return this.issues.map((issue) => issue.field);
  }
}

/** The server answered with a non-zero `error` in its JSON envelope. */
export class ApiError extends LinkShortError {
  override name = "ApiError";
  readonly code: "LINKSHORT_API_ERROR" | "LINKSHORT_AUTHENTICATION_FAILED" | "LINKSHORT_PERMISSION_DENIED" | "LINKSHORT_NOT_FOUND" | "LINKSHORT_RATE_LIMITED" =
    "LINKSHORT_API_ERROR";
  readonly kind: ErrorKind = "refused";
  constructor(
    message: string,
    /** HTTP status of the answer (deployed servers answer most failures with 200). */
    readonly status: number,
    /** The envelope's `error` value, as the server sent it. */
    readonly envelopeError: unknown = 1,
  ) {
    super(message);
  }
}

/** Missing, wrong or disabled API key (HTTP 401/403). */
export class AuthenticationError extends ApiError {
  override name = "AuthenticationError";
  override readonly code = "LINKSHORT_AUTHENTICATION_FAILED";
  override readonly kind = "settings";
}

/** The key is valid but may not use this endpoint (admin-only or plan-gated). */
export class PermissionError extends ApiError {
  override name = "PermissionError";
  override readonly code = "LINKSHORT_PERMISSION_DENIED";
}

/** The resource does not exist, or does not belong to the key's user. */
export class NotFoundError extends ApiError {
  override name = "NotFoundError";
  override readonly code = "LINKSHORT_NOT_FOUND";
}

/** The rate limit was exceeded and waiting it out was not allowed or not enough. */
export class RateLimitError extends ApiError {
  override name = "RateLimitError";
  override readonly code = "LINKSHORT_RATE_LIMITED";
  override readonly kind = "transient";
  constructor(
    message: string,
    status: number,
    /** How long the server asked to wait, in milliseconds, when it said. */
    readonly retryAfterMs: number | undefined,
    /** When the spent window ends (epoch milliseconds), when the server said (absent when its headers show requests left). */
    readonly resetAt: number | undefined,
  ) {
    super(message, status, 429);
  }

  /**
   * When the limit lifts (epoch ms), as the client reads the answer: the spent window's reset when
   * it is plausible, else `now` plus the `Retry-After` (which may say "now" or earlier); undefined
   * when the server said neither. The client's own waits and a front end's "retry after" use this.
   */
  liftsAt(now: number): number | undefined {
    if (isPlausibleReset(this.resetAt, now)) return this.resetAt;
    return this.retryAfterMs === undefined ? undefined : now + this.retryAfterMs;
  }
}

/** The request could not be delivered or its answer not received. */
export class ConnectionError extends LinkShortError {
  override name = "ConnectionError";
  readonly code = "LINKSHORT_CONNECTION_FAILED";
  readonly kind = "transient";
  constructor(
    message: string,
    /**
     * False only when the request certainly never reached the server (refused connection,
     * unknown host): such a create may be retried without risk of a duplicate.
     */
    readonly mayHaveReachedServer = true,
    /** The network error's code (`ENOTFOUND`, `ECONNREFUSED`, ...), for a front end's advice; empty when there was none. */
    readonly networkCode = "",
  ) {
    super(message);
  }
}

/** No complete answer arrived within the timeout. */
export class TimeoutError extends LinkShortError {
  override name = "TimeoutError";
  readonly code = "LINKSHORT_TIMEOUT";
  readonly kind = "transient";
  constructor(
    readonly timeoutMs: number,
    /** The call's `deadline` ended it (an attempt cut short, or no time left to send or retry), not an attempt's own timeout. */
    readonly deadlinePassed = false,
  ) {
    super(deadlinePassed ? "The call's deadline passed before it had an answer" : `The request timed out after ${timeoutMs} ms`);
  }
}

/** The caller's signal aborted the request. */
export class AbortedError extends LinkShortError {
  override name = "AbortedError";
  readonly code = "LINKSHORT_ABORTED";
  readonly kind = "cancelled";
  constructor() {
    super("The request was aborted");
  }
}

/** The answer was not the JSON the API promises: HTML page, empty body, malformed JSON or an unexpected shape. */
export class ResponseError extends LinkShortError {
  override name = "ResponseError";
  readonly code: "LINKSHORT_UNREADABLE_ANSWER" | "LINKSHORT_ANSWER_TOO_LARGE" = "LINKSHORT_UNREADABLE_ANSWER";
  /** "No such page" (404, 405) where the API should be means the base URL leads elsewhere; an error page or a garbled answer can pass. */
  readonly kind: ErrorKind;
  constructor(
    message: string,
    readonly status: number,
    /** The first characters of the body, with the API key removed. */
    readonly excerpt: string,
  ) {
    super(message);
    this.kind = status === 404 || status === 405 ? "settings" : "transient";
  }
}

/** The answer was larger than the client's `maxBodyBytes`: reading stopped there, and it is never retried. */
export class ResponseTooLargeError extends ResponseError {
  override name = "ResponseTooLargeError";
  override readonly code = "LINKSHORT_ANSWER_TOO_LARGE";
  override readonly kind = "settings";
  constructor(
    status: number,
    readonly maxBodyBytes: number,
  ) {
    super(`The server's answer is larger than maxBodyBytes (${maxBodyBytes} bytes); reading stopped there (HTTP ${status})`, status, "");
  }
}

/** Reading every page of a list stopped at the client's `maxPages`: the server claims more pages than a walk may read. */
export class TooManyPagesError extends LinkShortError {
  override name = "TooManyPagesError";
  readonly code = "LINKSHORT_TOO_MANY_PAGES";
  readonly kind = "settings";
  constructor(
    readonly maxPages: number,
    /** How many pages the server claimed (`maxpage`). */
    readonly claimedPages: number,
  ) {
    super(`Stopped reading the list after ${maxPages} pages (maxPages) while the server claims ${claimedPages}; raise maxPages to read further`);
  }
}
