import { Agent, request, type Dispatcher } from "undici";
import { AbortedError, ResponseTooLargeError, TimeoutError } from "./errors";
import type { Sleep, Transport } from "./transport";

let defaultAgent: Agent | undefined;

/** A transport over undici's `request`, with keep-alive connections shared by the process. */
export function undiciTransport(dispatcher?: Dispatcher): Transport {
  return async ({ method, url, headers, body, timeoutMs, maxBodyBytes, signal }) => {
    dispatcher ??= defaultAgent ??= new Agent({ keepAliveTimeout: 10_000 });
    // undici's header and body timeouts bound the wait for headers and the silence between chunks;
    // this deadline bounds the whole request, so that a body dripped byte by byte cannot outlast it.
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), timeoutMs);
    const onAbort = () => deadline.abort();
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const response = await request(url, {
        method,
        headers,
        body,
        dispatcher,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: deadline.signal,
      });
      const text = await readText(response, maxBodyBytes);
      return { status: response.statusCode, headers: response.headers, body: text };
    } catch (error) {
      if (signal?.aborted) throw new AbortedError();
      if (deadline.signal.aborted) throw new TimeoutError(timeoutMs);
      // undici's errors carry codes (UND_ERR_HEADERS_TIMEOUT, ECONNREFUSED, ...): the client classifies them.
      throw error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  };
}

/** The body as text, reading no more than `maxBodyBytes`: past it the connection is dropped. */
async function readText(response: Dispatcher.ResponseData, maxBodyBytes: number): Promise<string> {
  const declared = Number(response.headers["content-length"]);
  if (Number.isFinite(declared) && response.headers["content-length"] !== undefined) {
    if (declared <= maxBodyBytes) return response.body.text();
    response.body.destroy();
    throw new ResponseTooLargeError(response.statusCode, maxBodyBytes);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBodyBytes) {
      response.body.destroy();
      throw new ResponseTooLargeError(response.statusCode, maxBodyBytes);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
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
