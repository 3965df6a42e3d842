import { isPlausibleReset } from "./rate-window";

/** One field of the input that failed validation, and why. */
export interface FieldIssue {
  field: string;
  message: string;
}

/** Base class of every error the client throws. Messages never contain the API key. */
export class LinkShortError extends Error {
  override name = "LinkShortError";
}

/** Bad input, caught before any request is sent. */
export class ValidationError extends LinkShortError {
  override name = "ValidationError";
  readonly issues: readonly FieldIssue[];

  constructor(issues: readonly FieldIssue[], operation?: string) {
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
  constructor(
    message: string,
    /** HTTP status of the answer (deployed servers answer most failures with 200). */
    readonly status: number,
    /** The envelope's `error` value, as the server sent it. */
    readonly code: unknown = 1,
  ) {
    super(message);
  }
}

/** Missing, wrong or disabled API key (HTTP 401/403). */
export class AuthenticationError extends ApiError {
  override name = "AuthenticationError";
}

/** The key is valid but may not use this endpoint (admin-only or plan-gated). */
export class PermissionError extends ApiError {
  override name = "PermissionError";
}

/** The resource does not exist, or does not belong to the key's user. */
export class NotFoundError extends ApiError {
  override name = "NotFoundError";
}

/** The rate limit was exceeded and waiting it out was not allowed or not enough. */
export class RateLimitError extends ApiError {
  override name = "RateLimitError";
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
  constructor(
    message: string,
    /**
     * False only when the request certainly never reached the server (refused connection,
     * unknown host): such a create may be retried without risk of a duplicate.
     */
    readonly mayHaveReachedServer = true,
    /** The network error's code (`ENOTFOUND`, `ECONNREFUSED`, ...), for a front end's advice; empty when there was none. */
    readonly code = "",
  ) {
    super(message);
  }
}

/** No complete answer arrived within the timeout. */
export class TimeoutError extends LinkShortError {
  override name = "TimeoutError";
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
  constructor() {
    super("The request was aborted");
  }
}

/** The answer was not the JSON the API promises: HTML page, empty body, malformed JSON or an unexpected shape. */
export class ResponseError extends LinkShortError {
  override name = "ResponseError";
  constructor(
    message: string,
    readonly status: number,
    /** The first characters of the body, with the API key removed. */
    readonly excerpt: string,
  ) {
    super(message);
  }
}

/** The answer was larger than the client's `maxBodyBytes`: reading stopped there, and it is never retried. */
export class ResponseTooLargeError extends ResponseError {
  override name = "ResponseTooLargeError";
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
  constructor(
    readonly maxPages: number,
    /** How many pages the server claimed (`maxpage`). */
    readonly claimedPages: number,
  ) {
    super(`Stopped reading the list after ${maxPages} pages (maxPages) while the server claims ${claimedPages}; raise maxPages to read further`);
  }
}
