import { Agent, request, type Dispatcher } from "undici";
import { AbortedError, ResponseTooLargeError, TimeoutError } from "./errors";
import type { Sleep, Transport } from "./transport";

let defaultAgent: Agent | undefined;

/**
 * Ends answers whose deadline has passed while their body is still arriving. One coarse timer for
 * every request in flight, not one per request: a timer and an abort controller per request would
 * cost more than the rest of the client on loopback.
 */
class BodyDeadlines {
  private readonly bodies = new Map<Dispatcher.ResponseData["body"], { deadline: number; timeoutMs: number }>();
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly tickMs: number) {}

  watch(body: Dispatcher.ResponseData["body"], deadline: number, timeoutMs: number): void {
    this.bodies.set(body, { deadline, timeoutMs });
    this.timer ??= setInterval(() => this.sweep(), this.tickMs).unref();
  }

  unwatch(body: Dispatcher.ResponseData["body"]): void {
    this.bodies.delete(body);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [body, { deadline, timeoutMs }] of this.bodies) {
      if (now >= deadline) {
        this.bodies.delete(body);
        body.destroy(new TimeoutError(timeoutMs));
      }
    }
    if (this.bodies.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}

const bodyDeadlines = new BodyDeadlines(50);

/** A transport over undici's `request`, with keep-alive connections shared by the process. */
export function undiciTransport(dispatcher?: Dispatcher): Transport {
  return async ({ method, url, headers, body, timeoutMs, maxBodyBytes, signal }) => {
    dispatcher ??= defaultAgent ??= new Agent({ keepAliveTimeout: 10_000 });
    const deadline = Date.now() + timeoutMs;
    try {
      // undici's headers timeout bounds the wait for the headers; the body's deadline is watched
      // above, so that a body dripped byte by byte cannot outlast the request's timeout.
      const response = await request(url, {
        method,
        headers,
        body,
        dispatcher,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        ...(signal ? { signal } : {}),
      });
      bodyDeadlines.watch(response.body, deadline, timeoutMs);
      try {
        const text = await readText(response, maxBodyBytes);
        return { status: response.statusCode, headers: response.headers, body: text };
      } finally {
        bodyDeadlines.unwatch(response.body);
      }
    } catch (error) {
      if (signal?.aborted) throw new AbortedError();
      // undici's errors carry codes (UND_ERR_HEADERS_TIMEOUT, ECONNREFUSED, ...): the client classifies them.
      throw error;
    }
  };
}

/** The body as text, reading no more than `maxBodyBytes`: past it the connection is dropped. */
function readText(response: Dispatcher.ResponseData, maxBodyBytes: number): Promise<string> {
  const { body, headers, statusCode } = response;
  const declared = headers["content-length"];
  if (declared !== undefined && Number(declared) <= maxBodyBytes) return body.text();
  if (Number(declared) > maxBodyBytes) {
    body.destroy();
    return Promise.reject(new ResponseTooLargeError(statusCode, maxBodyBytes));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        body.destroy();
        reject(new ResponseTooLargeError(statusCode, maxBodyBytes));
      } else chunks.push(chunk);
    });
    body.on("end", () => resolve(chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8")));
    body.on("error", reject);
  });
}

/** Sleep on Node's timers, cut short by an abort. */
export const nodeSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortedError());
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError());
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
