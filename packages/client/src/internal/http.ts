import type * as z from "zod/v4";
import { clientErrorOf, envelopeOf, excerptOf } from "./answers";
import { AbortedError, isLinkShortError, RateLimitError, ResponseError, ResponseTooLargeError, TimeoutError, ValidationError } from "../errors";
import { trimTrailingSlashes } from "../addresses";
import { accountId } from "../account-id";
import { sleepUnlessAborted } from "./abortable-wait";
import { clientOptionIssues, requestOptionIssues, type CoreClientOptions, type RequestOptions } from "./options";
import { sharedLimiter } from "./limiter-registry";
import type { Clock, RateLimiter, RateLimitHeadroom } from "./rate-limit";
import { DEFAULT_MAX_PAGES } from "../pagination";
import { readerOf, Rejected } from "./readers";
import { keyRedactor } from "./redact";
import type { Transport, TransportRequest, TransportResponse } from "../transport";

export interface ApiRequest {
  method: TransportRequest["method"];
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: object;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_MAX_RATE_LIMIT_WAIT_MS = 120_000;
const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;
const MAX_RATE_LIMIT_ANSWERS = 20;
/** The least wait after a limit answer, however soon the server says to retry: no storm of tries. */
const MIN_RATE_LIMIT_WAIT_MS = 100;
/** The wait after a limit answer that names no time, or "retry now" (0 or less) and no reset ahead. */
const UNKNOWN_RATE_LIMIT_WAIT_MS = 1_000;
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 8_000;

/** Builds requests, sends them through the transport with pacing and retries, and turns answers into values or errors. */
export class HttpCore {
  readonly baseUrl: string;
  readonly maxPages: number;
  /** Names this client's account (base URL and key) without holding the key: what is remembered per account is kept under it. */
  readonly account: string;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly limiter: RateLimiter | undefined;
  private readonly maxRateLimitWaitMs: number;
  private readonly maxBodyBytes: number;
  private readonly transport: Transport;
  private readonly defaults: { timeoutMs: number; maxRetries: number; signal: AbortSignal | undefined; deadline: number | undefined };
  // The key lives only in private fields: `util.inspect` and `JSON.stringify` of a client never show it.
  readonly #headers: Record<string, string>;
  readonly #redact: (text: string) => string;

  constructor(options: CoreClientOptions) {
    const issues = clientOptionIssues({ ...options });
    if (issues.length > 0) throw new ValidationError(issues, "LinkShortClient", "settings");

    this.baseUrl = trimTrailingSlashes(options.baseUrl).replace(/\/api$/, "");
    this.transport = options.transport;
    this.clock = { now: options.now ?? Date.now, sleep: options.sleep };
    this.random = options.random ?? Math.random;
    this.account = accountId(this.baseUrl, options.apiKey);
    const rateLimit = options.rateLimit === false ? undefined : (options.rateLimit ?? {});
    this.limiter = rateLimit ? (rateLimit.limiter ?? sharedLimiter(this.account)) : undefined;
    this.maxRateLimitWaitMs = rateLimit?.maxWaitMs ?? DEFAULT_MAX_RATE_LIMIT_WAIT_MS;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
    this.defaults = {
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      signal: options.signal,
      deadline: options.deadline,
    };
    this.#redact = keyRedactor(options.apiKey);
    this.#headers = {
      ...(options.transportAuthenticates ? {} : { Authorization: `Bearer ${options.apiKey}` }),
      Accept: "application/json",
      "User-Agent": options.userAgent ?? "linkshort-client",
    };
  }

  /** The key's rate-limit window as far as this client's limiter knows; undefined without pacing or before any answer. */
  rateLimitHeadroom(): RateLimitHeadroom | undefined {
    return this.limiter?.headroom(this.clock.now());
  }

  /** Removes the API key, in every form a server may echo it in (see `keyRedactor`), from any text that may reach a message or a log. */
  redact(text: string): string {
    return this.#redact(text);
  }

  async request<S extends z.ZodType>(request: ApiRequest, schema: S, requestOptions?: RequestOptions): Promise<z.output<S>> {
    const optionIssues = requestOptionIssues(requestOptions, "options.");
    if (optionIssues.length > 0) throw new ValidationError(optionIssues, `${request.method} ${request.path}`);
    const signal = requestOptions?.signal ?? this.defaults.signal;
    const maxRetries = requestOptions?.maxRetries ?? this.defaults.maxRetries;
    const timeoutMs = requestOptions?.timeoutMs ?? this.defaults.timeoutMs;
    const maxRateLimitWaitMs = requestOptions?.maxRateLimitWaitMs ?? this.maxRateLimitWaitMs;
    const deadline = requestOptions?.deadline ?? this.defaults.deadline;
    /** What is left of the call's deadline (unbounded without one). */
    const leftMs = () => (deadline === undefined ? Number.POSITIVE_INFINITY : deadline - this.clock.now());
    const transportRequest = this.buildRequest(request, timeoutMs, signal);
    let retries = 0;
    let rateLimitWaitedMs = 0;
    let rateLimitAnswers = 0;

    for (;;) {
      if (signal?.aborted) throw new AbortedError();
      if (leftMs() <= 0) throw new TimeoutError(timeoutMs, true);
      if (this.limiter && !this.limiter.tryAcquire(this.clock.now())) {
        rateLimitWaitedMs += await this.limiter.acquire(this.clock, {
          maxWaitMs: Math.max(0, Math.min(maxRateLimitWaitMs - rateLimitWaitedMs, leftMs())),
          timeoutMs: Math.max(1, Math.min(timeoutMs, leftMs())),
          tooLong: (waitMs) => this.pacingTooLong(waitMs, maxRateLimitWaitMs),
          timedOut: () => new TimeoutError(timeoutMs),
          signal,
          afterLimitAnswer: rateLimitAnswers > 0,
        });
      }
      let body: unknown;
      const attemptMs = Math.min(timeoutMs, leftMs());
      if (attemptMs <= 0) throw new TimeoutError(timeoutMs, true);
      try {
        const response = await this.send(attemptMs < timeoutMs ? { ...transportRequest, timeoutMs: Math.max(1, Math.floor(attemptMs)) } : transportRequest);
        body = envelopeOf(response, this.#redact, this.clock.now());
      } catch (error) {
        // An attempt cut short to what was left of the deadline: the deadline ended the call.
        // (By code: a host's transport may throw the errors of its own copy of the client.)
        if (isLinkShortError(error, "LINKSHORT_TIMEOUT") && attemptMs < timeoutMs) throw new TimeoutError(timeoutMs, true);
        if (isLinkShortError(error, "LINKSHORT_RATE_LIMITED")) {
          rateLimitAnswers += 1;
          const until = this.limitLiftsAt(error);
          if (
            !this.limiter ||
            rateLimitAnswers > MAX_RATE_LIMIT_ANSWERS ||
            rateLimitWaitedMs + (until - this.clock.now()) > maxRateLimitWaitMs ||
            until - this.clock.now() >= leftMs()
          )
            throw error;
          this.limiter.blockUntil(until);
          continue;
        }
        if (retries < maxRetries && this.isRetryable(error, request.method)) {
          const backoffMs = this.backoffMs(retries);
          // A retry whose backoff ends at or past the deadline could not be answered in time.
          if (backoffMs < leftMs()) {
            await sleepUnlessAborted(this.clock.sleep, backoffMs, signal);
            retries += 1;
            continue;
          }
        }
        throw error;
      }
      return this.shape(body, schema, transportRequest);
    }
  }

  private buildRequest(request: ApiRequest, timeoutMs: number, signal: AbortSignal | undefined): TransportRequest {
    const query = request.query
      ? Object.entries(request.query)
          .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
          .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
          .join("&")
      : "";
    const headers = request.body === undefined ? this.#headers : { ...this.#headers, "Content-Type": "application/json" };
    return {
      method: request.method,
      url: `${this.baseUrl}${request.path}${query ? `?${query}` : ""}`,
      headers,
      ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
      timeoutMs,
      maxBodyBytes: this.maxBodyBytes,
      ...(signal ? { signal } : {}),
    };
  }

  /**
   * When to try again after a limit answer: the window's reset as the server states it
   * (`X-RateLimit-Reset`, when plausible), else its `Retry-After`, never sooner than a minimum. Waking
   * at the reset itself, not at a rounded-up Retry-After, is what lets processes that share a key
   * (and no memory) share its windows: none wakes late to find the window taken by the others.
   */
  private limitLiftsAt(error: RateLimitError): number {
    const now = this.clock.now();
    const stated = error.liftsAt(now);
    const liftsAt = stated === undefined || stated <= now ? now + UNKNOWN_RATE_LIMIT_WAIT_MS : stated;
    return Math.max(liftsAt, now + MIN_RATE_LIMIT_WAIT_MS);
  }

  private async send(request: TransportRequest): Promise<TransportResponse> {
    try {
      const response = await this.transport(request);
      this.limiter?.observe(response, this.clock.now());
      // A transport that cannot stop reading at the cap (a host's HTTP helper) still gets it enforced here.
      if (typeof response.body === "string" && response.body.length > request.maxBodyBytes)
        throw new ResponseTooLargeError(response.status, request.maxBodyBytes);
      return response;
    } catch (error) {
      throw clientErrorOf(error, request, this.#redact);
    } finally {
      this.limiter?.release();
    }
  }

  private pacingTooLong(waitMs: number, maxWaitMs: number): RateLimitError {
    return new RateLimitError(
      `The rate limit is spent and the next window opens in ${Math.ceil(waitMs / 1000)} s, past the allowed wait of ${Math.round(maxWaitMs / 1000)} s`,
      0,
      waitMs,
      this.clock.now() + waitMs,
    );
  }

  private isRetryable(error: unknown, method: ApiRequest["method"]): boolean {
    if (method === "POST") return isLinkShortError(error, "LINKSHORT_CONNECTION_FAILED") && !error.mayHaveReachedServer;
    if (isLinkShortError(error, "LINKSHORT_CONNECTION_FAILED", "LINKSHORT_TIMEOUT")) return true;
    const answered = isLinkShortError(
      error,
      "LINKSHORT_API_ERROR",
      "LINKSHORT_AUTHENTICATION_FAILED",
      "LINKSHORT_PERMISSION_DENIED",
      "LINKSHORT_NOT_FOUND",
      "LINKSHORT_UNREADABLE_ANSWER",
    );
    return answered && error.status >= 500;
  }

  private backoffMs(retry: number): number {
    const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** retry);
    return Math.round(ceiling / 2 + this.random() * (ceiling / 2));
  }

  private shape<S extends z.ZodType>(body: unknown, schema: S, request: TransportRequest): z.output<S> {
    const read = readerOf(schema);
    if (read) {
      try {
        const value = read(body);
        if (!(value instanceof Rejected)) return value as z.output<S>;
      } catch {
        // zod below reads it again and says what is wrong.
      }
    }
    const what = () => `The answer to ${request.method} ${this.pathOf(request)}`;
    let result: ReturnType<S["safeParse"]>;
    try {
      result = schema.safeParse(body) as ReturnType<S["safeParse"]>;
    } catch {
      throw new ResponseError(`${what()} could not be read`, 200, "");
    }
    if (result.success) return result.data as z.output<S>;
    // Describing the answer can itself fail on pathological input (say, JSON nested 100,000 deep).
    let where = "";
    let excerpt = "";
    try {
      where = result.error.issues
        .slice(0, 3)
        .map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`)
        .join("; ");
      excerpt = excerptOf(JSON.stringify(body) ?? "", this.#redact);
    } catch {
      excerpt = "(too deeply nested to show)";
    }
    throw new ResponseError(`${what()} has an unexpected shape${where ? ` (${this.redact(where)})` : ""}`, 200, excerpt);
  }

  private pathOf(request: TransportRequest): string {
    return request.url.slice(this.baseUrl.length).split("?")[0] ?? "";
  }
}
