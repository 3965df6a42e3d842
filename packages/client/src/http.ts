import type * as z from "zod/v4";
import {
  AbortedError,
  ApiError,
  AuthenticationError,
  ConnectionError,
  LinkShortError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ResponseError,
  ResponseTooLargeError,
  TimeoutError,
  ValidationError,
} from "./errors";
import { clientOptionIssues, requestOptionIssues } from "./options";
import { RateLimiter, resetOf, sharedLimiter, type Clock, type RateLimitHeadroom } from "./rate-limit";
import { DEFAULT_MAX_PAGES } from "./pagination";
import { readerOf, Rejected } from "./readers";
import { keyRedactor } from "./redact";
import { headerValue, type Sleep, type Transport, type TransportRequest, type TransportResponse } from "./transport";

/** Options every call accepts, overriding the client's. */
export interface RequestOptions {
  /** Per attempt, from its start to the last byte of its answer; also the longest a call waits behind the key's first request. */
  timeoutMs?: number;
  signal?: AbortSignal;
  maxRetries?: number;
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
  /** Pacing from the rate-limit headers; `false` sends at once and fails on a limit answer. */
  rateLimit?: RateLimitOptions | false;
  signal?: AbortSignal;
  /** Epoch milliseconds; injectable for tests. */
  now?: () => number;
  /** A number in [0, 1) for backoff jitter; injectable for tests. */
  random?: () => number;
  userAgent?: string;
}

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
const EXCERPT_LENGTH = 200;
const NEVER_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH"]);
const TIMEOUT_CODES = new Set(["ECONNABORTED", "ETIMEDOUT", "ESOCKETTIMEDOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT"]);

/** The first error code in an error's cause chain (hosts such as n8n wrap the network error). */
function errorCode(error: unknown): string {
  let current = error as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; current && typeof current === "object" && depth < 5; depth += 1) {
    if (typeof current.code === "string" && /^E[A-Z_]+$|^UND_ERR/.test(current.code)) return current.code;
    current = current.cause as typeof current;
  }
  return "";
}

function isSuccess(flag: unknown): boolean {
  return flag === 0 || flag === "0" || flag === false;
}

/** Builds requests, sends them through the transport with pacing and retries, and turns answers into values or errors. */
export class HttpCore {
  readonly baseUrl: string;
  readonly maxPages: number;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly limiter: RateLimiter | undefined;
  private readonly maxRateLimitWaitMs: number;
  private readonly maxBodyBytes: number;
  private readonly transport: Transport;
  private readonly defaults: { timeoutMs: number; maxRetries: number; signal: AbortSignal | undefined };
  // The key lives only in private fields: `util.inspect` and `JSON.stringify` of a client never show it.
  readonly #headers: Record<string, string>;
  readonly #redact: (text: string) => string;

  constructor(options: CoreClientOptions) {
    const issues = clientOptionIssues({ ...options });
    if (issues.length > 0) throw new ValidationError(issues, "LinkShortClient");

    this.baseUrl = options.baseUrl.replace(/\/+$/, "").replace(/\/api$/, "");
    this.transport = options.transport;
    this.clock = { now: options.now ?? Date.now, sleep: options.sleep };
    this.random = options.random ?? Math.random;
    const rateLimit = options.rateLimit === false ? undefined : (options.rateLimit ?? {});
    this.limiter = rateLimit ? (rateLimit.limiter ?? sharedLimiter(this.baseUrl, options.apiKey)) : undefined;
    this.maxRateLimitWaitMs = rateLimit?.maxWaitMs ?? DEFAULT_MAX_RATE_LIMIT_WAIT_MS;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
    this.defaults = {
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      signal: options.signal,
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
    const transportRequest = this.buildRequest(request, timeoutMs, signal);
    let retries = 0;
    let rateLimitWaitedMs = 0;
    let rateLimitAnswers = 0;

    for (;;) {
      if (signal?.aborted) throw new AbortedError();
      if (this.limiter && !this.limiter.tryAcquire(this.clock.now())) {
        rateLimitWaitedMs += await this.limiter.acquire(this.clock, {
          maxWaitMs: this.maxRateLimitWaitMs - rateLimitWaitedMs,
          timeoutMs,
          tooLong: (waitMs) => this.pacingTooLong(waitMs),
          timedOut: () => new TimeoutError(timeoutMs),
          signal,
          afterLimitAnswer: rateLimitAnswers > 0,
        });
      }
      let body: unknown;
      try {
        const response = await this.send(transportRequest);
        body = this.parse(response);
      } catch (error) {
        if (error instanceof RateLimitError) {
          rateLimitAnswers += 1;
          const until = this.limitLiftsAt(error);
          if (!this.limiter || rateLimitAnswers > MAX_RATE_LIMIT_ANSWERS || rateLimitWaitedMs + (until - this.clock.now()) > this.maxRateLimitWaitMs) throw error;
          this.limiter.blockUntil(until);
          continue;
        }
        if (retries < maxRetries && this.isRetryable(error, request.method)) {
          await this.clock.sleep(this.backoffMs(retries), signal);
          retries += 1;
          continue;
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
      if (typeof response.body === "string" && response.body.length > request.maxBodyBytes) throw new ResponseTooLargeError(response.status, request.maxBodyBytes);
      return response;
    } catch (error) {
      throw this.asClientError(error, request);
    } finally {
      this.limiter?.release();
    }
  }

  /** Any failure of the transport as the client's error: its own classes pass, others are classified by their code. */
  private asClientError(error: unknown, request: TransportRequest): LinkShortError {
    if (error instanceof LinkShortError) {
      if (error instanceof ConnectionError) return new ConnectionError(this.redact(error.message), error.mayHaveReachedServer);
      return error;
    }
    if (request.signal?.aborted) return new AbortedError();
    const code = errorCode(error);
    if (TIMEOUT_CODES.has(code)) return new TimeoutError(request.timeoutMs);
    const message = error instanceof Error ? error.message : String(error);
    return new ConnectionError(this.redact(`Could not reach the server${code ? ` (${code})` : ""}: ${message}`), !NEVER_SENT_CODES.has(code));
  }

  /** Turns an answer into the envelope's body, or throws the error it carries. */
  private parse(response: TransportResponse): unknown {
    const { status } = response;
    const text = typeof response.body === "string" ? response.body : "";
    if (status === 429) {
      throw this.rateLimitError("Too many requests (HTTP 429)", status, headerValue(response.headers, "retry-after"), response);
    }
    if (!/\S/.test(text)) throw new ResponseError(`The server sent an empty answer (HTTP ${status})`, status, "");
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      const html = /^\s*</.test(text);
      throw new ResponseError(
        html ? `The server sent an HTML page instead of JSON (HTTP ${status})` : `The server sent malformed JSON (HTTP ${status})`,
        status,
        this.excerpt(text),
      );
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      throw new ResponseError(`The server's answer is not a JSON object (HTTP ${status})`, status, this.excerpt(text));
    }
    const envelope = body as Record<string, unknown>;
    if (!("error" in envelope)) {
      throw new ResponseError(`The server's answer has no "error" key (HTTP ${status})`, status, this.excerpt(text));
    }
    if (isSuccess(envelope.error) && status < 400) return envelope;

    const message = this.redact(typeof envelope.message === "string" && envelope.message ? envelope.message : `The server reported an error (HTTP ${status})`);
    if (envelope.error === 429 || envelope.error === "429") {
      throw this.rateLimitError(message, status, envelope["Retry-After"] ?? headerValue(response.headers, "retry-after"), response);
    }
    if (status === 401) throw new AuthenticationError(message, status, envelope.error);
    if (status === 403) {
      throw /api key|activate/i.test(message) ? new AuthenticationError(message, status, envelope.error) : new PermissionError(message, status, envelope.error);
    }
    if (status === 404 || /does not exist|doesn't exist|not found|no such/i.test(message)) {
      throw new NotFoundError(message, status, envelope.error);
    }
    throw new ApiError(message, status, envelope.error);
  }

  private rateLimitError(message: string, status: number, retryAfter: unknown, response: TransportResponse): RateLimitError {
    // The window's reset says when the limit lifts only if the answer says that window is spent: a
    // proxy's 429 that passes on headers of a window with requests left lifts at its Retry-After.
    const windowHasRoom = Number(headerValue(response.headers, "x-ratelimit-remaining")) > 0;
    return new RateLimitError(message, status, this.retryAfterMs(retryAfter), windowHasRoom ? undefined : resetOf(response));
  }

  /** `Retry-After` as seconds (number or string) or an HTTP date. */
  private retryAfterMs(value: unknown): number | undefined {
    if (value === undefined || value === null || value === "") return undefined;
    const seconds = Number(value);
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const date = typeof value === "string" ? Date.parse(value) : Number.NaN;
    return Number.isFinite(date) ? Math.max(0, date - this.clock.now()) : undefined;
  }

  private pacingTooLong(waitMs: number): RateLimitError {
    return new RateLimitError(
      `The rate limit is spent and the next window opens in ${Math.ceil(waitMs / 1000)} s, past the allowed wait of ${Math.round(this.maxRateLimitWaitMs / 1000)} s`,
      0,
      waitMs,
      this.clock.now() + waitMs,
    );
  }

  private isRetryable(error: unknown, method: ApiRequest["method"]): boolean {
    if (method === "POST") return error instanceof ConnectionError && !error.mayHaveReachedServer;
    if (error instanceof ResponseTooLargeError) return false;
    if (error instanceof ConnectionError || error instanceof TimeoutError) return true;
    return (error instanceof ApiError || error instanceof ResponseError) && error.status >= 500;
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
      excerpt = this.excerpt(JSON.stringify(body) ?? "");
    } catch {
      excerpt = "(too deeply nested to show)";
    }
    throw new ResponseError(`${what()} has an unexpected shape${where ? ` (${this.redact(where)})` : ""}`, 200, excerpt);
  }

  private pathOf(request: TransportRequest): string {
    return request.url.slice(this.baseUrl.length).split("?")[0] ?? "";
  }

  private excerpt(text: string): string {
    return this.redact(text.replace(/\s+/g, " ").trim()).slice(0, EXCERPT_LENGTH);
  }
}
