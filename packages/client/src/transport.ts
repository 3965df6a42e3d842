/** What the client hands to a transport: one HTTP request, fully built. */
export interface TransportRequest {
  method: "GET" | "POST" | "PUT" | "DELETE";
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** The transport must give up after this long, counted to the answer's last byte, and throw a `TimeoutError`. */
  timeoutMs: number;
  /** The transport should stop reading an answer larger than this and throw a `ResponseTooLargeError` (the client checks it again). */
  maxBodyBytes: number;
  signal?: AbortSignal;
}

/** What a transport gives back: any HTTP status (it must not throw on 4xx/5xx) and the raw body. */
export interface TransportResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * Sends one request. May throw the client's `TimeoutError`, `AbortedError` or `ConnectionError`;
 * any other error is classified by the first `code` in its cause chain (`ETIMEDOUT` and the like
 * are timeouts, `ECONNREFUSED` and the like never reached the server, the rest may have).
 */
export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

/** Waits `ms` milliseconds; rejects early if the signal aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export function headerValue(headers: TransportResponse["headers"], name: string): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
