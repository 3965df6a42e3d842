import { getPreferenceValues } from "@raycast/api";
import { getChosenAccount, type Account, type AccountPreferences } from "./accounts";
import { LinkShortClient, ResponseTooLargeError, TimeoutError, type Transport } from "@linkshort/client/core";
import { LRUCache } from "lru-cache";

export interface Preferences extends AccountPreferences {
  defaultDomain?: string;
  primaryAction?: "copy" | "paste";
  reuseExisting?: boolean;
}

/**
 * The client over Raycast's built-in fetch: the core client with no undici, so that a command's
 * bundle stays small. Network errors are classified by the client from their cause's code. The
 * deadline covers the whole request, body included; the body is read as it arrives and the read
 * is cancelled (closing the connection) once it passes `maxBodyBytes`.
 */
const fetchTransport: Transport = async ({ method, url, headers, body, timeoutMs, maxBodyBytes, signal }) => {
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, {
      method,
      headers,
      body,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    const responseHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => (responseHeaders[name] = value));
    return { status: response.status, headers: responseHeaders, body: await readCapped(response, maxBodyBytes) };
  } catch (error) {
    if (timeout.aborted && !signal?.aborted) throw new TimeoutError(timeoutMs);
    throw error;
  }
};

async function readCapped(response: Response, maxBodyBytes: number): Promise<string> {
  if (!response.body) return "";
  if (Number(response.headers.get("content-length")) > maxBodyBytes) {
    await response.body.cancel();
    throw new ResponseTooLargeError(response.status, maxBodyBytes);
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > maxBodyBytes) {
      await reader.cancel();
      throw new ResponseTooLargeError(response.status, maxBodyBytes);
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** Waits `ms`, or less when `signal` aborts (a closed command stops waiting). */
export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", aborted);
    };
    const aborted = () => {
      done();
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      done();
      resolve();
    }, ms);
    signal?.addEventListener("abort", aborted, { once: true });
  });

/** Clients by service and key, in this process; a few at most (accounts, and keys changed in the preferences). */
const MAX_CLIENTS = 8;
const clients = new LRUCache<string, LinkShortClient>({ max: MAX_CLIENTS });

/** The client for an account (the chosen one by default): one per service and key. */
export function getClient(account: Account = getChosenAccount()): LinkShortClient {
  const key = `${account.baseUrl}\n${account.apiKey}`;
  let client = clients.peek(key);
  if (!client) {
    client = new LinkShortClient({
      baseUrl: account.baseUrl,
      apiKey: account.apiKey,
      transport: fetchTransport,
      sleep,
      userAgent: "linkshort-raycast",
      timeoutMs: 15_000,
    });
    clients.set(key, client);
  }
  return client;
}

export function getPreferences(): Preferences {
  return getPreferenceValues<Preferences>();
}
