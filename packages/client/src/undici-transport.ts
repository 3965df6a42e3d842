import { Agent, request, type Dispatcher } from "undici";
import { AbortedError } from "./errors";
import type { Sleep, Transport } from "./transport";


let defaultAgent: Agent | undefined;

/** A transport over undici's `request`, with keep-alive connections shared by the process. */
export function undiciTransport(dispatcher?: Dispatcher): Transport {
  return async ({ method, url, headers, body, timeoutMs, signal }) => {
    dispatcher ??= defaultAgent ??= new Agent({ keepAliveTimeout: 10_000 });
    try {
      // undici's own header and body timeouts run on its shared timers: no timer or abort
      // controller of our own per request, which would cost more than the rest of the client.
      const response = await request(url, {
        method,
        headers,
        body,
        dispatcher,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        ...(signal ? { signal } : {}),
      });
      const text = await response.body.text();
      return { status: response.statusCode, headers: response.headers, body: text };
    } catch (error) {
      if (signal?.aborted) throw new AbortedError();
      // undici's errors carry codes (UND_ERR_HEADERS_TIMEOUT, ECONNREFUSED, ...): the client classifies them.
      throw error;
    }
  };
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
