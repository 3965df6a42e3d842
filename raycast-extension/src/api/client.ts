import { getPreferenceValues } from "@raycast/api";
import { LinkShortClient, ResponseTooLargeError, TimeoutError, type Transport } from "@linkshort/client/core";

export interface Preferences {
  baseUrl: string;
  apiKey: string;
  defaultDomain?: string;
  primaryAction?: "copy" | "paste";
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

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

let cached: { key: string; client: LinkShortClient } | undefined;

/** The client for the user's preferences (one per service and key). */
export function getClient(): LinkShortClient {
  const { baseUrl, apiKey } = getPreferenceValues<Preferences>();
  const key = `${baseUrl}\n${apiKey}`;
  if (cached?.key !== key) {
    cached = {
      key,
      client: new LinkShortClient({
        baseUrl: baseUrl.trim(),
        apiKey,
        transport: fetchTransport,
        sleep,
        userAgent: "linkshort-raycast",
        timeoutMs: 15_000,
      }),
    };
  }
  return cached.client;
}

export function getPreferences(): Preferences {
  return getPreferenceValues<Preferences>();
}
