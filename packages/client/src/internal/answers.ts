/**
 * What the transport gave, as the client's value or error: one place for the envelope's rules
 * (what deployed servers really send) and for which failure is which error class.
 */
import {
  AbortedError,
  type LinkShortError,
  ApiError,
  AuthenticationError,
  ConnectionError,
  isLinkShortError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ResponseError,
  TimeoutError,
} from "../errors";
import { spentWindowResetOf } from "../rate-window";
import { headerValue, type TransportRequest, type TransportResponse } from "../transport";

type Redact = (text: string) => string;

const EXCERPT_LENGTH = 200;
/** Read before redaction, so that a key that starts inside the excerpt is whole in what is redacted, in any encoding. */
const EXCERPT_MARGIN = 4_096;
const NEVER_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH"]);
const TIMEOUT_CODES = new Set(["ECONNABORTED", "ETIMEDOUT", "ESOCKETTIMEDOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT"]);

/** The first error code in an error's cause chain (hosts such as n8n wrap the network error). */
function errorCode(error: unknown): string {
  let current = error as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; current && typeof current === "object" && depth < 5; depth += 1) {
    if (typeof current.code === "string" && current.code.length < 64 && /^E[A-Z_]+$|^UND_ERR/.test(current.code)) return current.code;
    current = current.cause as typeof current;
  }
  return "";
}

/** Deployed servers say success with `0`, `"0"` or `false`. */
function isSuccess(flag: unknown): boolean {
  return flag === 0 || flag === "0" || flag === false;
}

/** The start of an answer for an error message: one line, at most EXCERPT_LENGTH characters, no key. */
export function excerptOf(text: string, redact: Redact): string {
  return redact(
    text
      .slice(0, EXCERPT_LENGTH + EXCERPT_MARGIN)
      .replace(/\s+/g, " ")
      .trim(),
  ).slice(0, EXCERPT_LENGTH);
}

/** Any failure of the transport as the client's error: its own classes pass, others are classified by their code. */
export function clientErrorOf(error: unknown, request: TransportRequest, redact: Redact): LinkShortError {
  // Recognised by code: a host's transport may throw the errors of its own copy of the client.
  if (isLinkShortError(error)) {
    if (isLinkShortError(error, "LINKSHORT_CONNECTION_FAILED"))
      return new ConnectionError(redact(error.message), error.mayHaveReachedServer, error.networkCode);
    return error;
  }
  if (request.signal?.aborted) return new AbortedError();
  const code = errorCode(error);
  if (TIMEOUT_CODES.has(code)) return new TimeoutError(request.timeoutMs);
  const message = error instanceof Error ? error.message : String(error);
  return new ConnectionError(redact(`Could not reach the server${code ? ` (${code})` : ""}: ${message}`), !NEVER_SENT_CODES.has(code), code);
}

/** `Retry-After` as milliseconds, from seconds (number or string) or an HTTP date. */
function retryAfterMs(value: unknown, now: number): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = typeof value === "string" ? Date.parse(value.slice(0, 64)) : Number.NaN;
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

function rateLimitError(message: string, status: number, retryAfter: unknown, response: TransportResponse, now: number): RateLimitError {
  return new RateLimitError(message, status, retryAfterMs(retryAfter, now), spentWindowResetOf(response));
}

/**
 * An answer's envelope on success; otherwise the error it carries: HTTP 429 or `error: 429` a
 * `RateLimitError`, 401 and 403 with a key message an `AuthenticationError`, other 403s a
 * `PermissionError`, 404 or a "does not exist" message a `NotFoundError`, any other failure an
 * `ApiError`, and what is not an envelope at all (empty, HTML, malformed) a `ResponseError`.
 */
export function envelopeOf(response: TransportResponse, redact: Redact, now: number): Record<string, unknown> {
  const { status } = response;
  const text = typeof response.body === "string" ? response.body : "";
  if (status === 429) throw rateLimitError("Too many requests (HTTP 429)", status, headerValue(response.headers, "retry-after"), response, now);
  if (!/\S/.test(text)) throw new ResponseError(`The server sent an empty answer (HTTP ${status})`, status, "");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const html = /^\s*</.test(text.slice(0, EXCERPT_MARGIN));
    throw new ResponseError(
      html ? `The server sent an HTML page instead of JSON (HTTP ${status})` : `The server sent malformed JSON (HTTP ${status})`,
      status,
      excerptOf(text, redact),
    );
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ResponseError(`The server's answer is not a JSON object (HTTP ${status})`, status, excerptOf(text, redact));
  }
  const envelope = body as Record<string, unknown>;
  if (!("error" in envelope)) throw new ResponseError(`The server's answer has no "error" key (HTTP ${status})`, status, excerptOf(text, redact));
  if (isSuccess(envelope.error) && status < 400) return envelope;

  const message = redact(typeof envelope.message === "string" && envelope.message ? envelope.message : `The server reported an error (HTTP ${status})`);
  if (envelope.error === 429 || envelope.error === "429") {
    throw rateLimitError(message, status, envelope["Retry-After"] ?? headerValue(response.headers, "retry-after"), response, now);
  }
  if (status === 401) throw new AuthenticationError(message, status, envelope.error);
  const shown = message.slice(0, 1_000);
  if (status === 403) {
    throw /api key|activate/i.test(shown) ? new AuthenticationError(message, status, envelope.error) : new PermissionError(message, status, envelope.error);
  }
  if (status === 404 || /does not exist|doesn't exist|not found|no such/i.test(shown)) throw new NotFoundError(message, status, envelope.error);
  throw new ApiError(message, status, envelope.error);
}
