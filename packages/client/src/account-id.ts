/**
 * Which account a client speaks for, one rule for every registry and store: the base URL as the
 * client sends requests to it (scheme and host in lower case, no default port, no trailing slash
 * or `/api`), and a digest of the API key. The key itself is never part of it.
 */
import { createHash } from "node:crypto";
import { trimTrailingSlashes } from "./addresses";

/** A base URL as accounts are told apart: `https://X/`, `https://x` and `https://x/api` are one service. */
export function accountBaseUrl(baseUrl: string): string {
  const trimmed = trimTrailingSlashes(baseUrl.trim());
  try {
    const url = new URL(trimmed);
    const path = trimTrailingSlashes(url.pathname).replace(/\/api$/i, "");
    return `${url.protocol}//${url.host}${path}`;
  } catch {
    return trimmed.toLowerCase();
  }
}

/** The account of a base URL and API key: `<base URL> <first 32 hex digits of the key's SHA-256>`. */
export function accountId(baseUrl: string, apiKey: string): string {
  return `${accountBaseUrl(baseUrl)} ${createHash("sha256").update(apiKey).digest("hex").slice(0, 32)}`;
}
