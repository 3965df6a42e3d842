import { getPreferenceValues } from "@raycast/api";
import { LinkShortClient, TimeoutError, type Transport } from "@linkshort/client/core";

export interface Preferences {
  baseUrl: string;
  apiKey: string;
  defaultDomain?: string;
  primaryAction?: "copy" | "paste";
}

/**
 * The client over Raycast's built-in fetch: the core client with no undici, so that a command's
 * bundle stays small. Network errors are classified by the client from their cause's code.
 */
const fetchTransport: Transport = async ({ method, url, headers, body, timeoutMs, signal }) => {
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
    return { status: response.status, headers: responseHeaders, body: await response.text() };
  } catch (error) {
    if (timeout.aborted && !signal?.aborted) throw new TimeoutError(timeoutMs);
    throw error;
  }
};

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
