/**
 * Addresses, one rule for every front end: what an http(s) URL is, and how a short link's address
 * is compared (scheme, query, fragment, trailing slashes and case do not matter, visits being
 * case-insensitive; the host and the path do). Every function here is linear in its input, and
 * each comparison caps it first: addresses come from workflows, forms and models.
 */

/** Longer text is not an address anyone pasted: it is cut here before any parsing. */
export const MAX_ADDRESS_LENGTH = 4_096;

/** Whether `value` is an absolute http or https URL with a host (a base URL, a link's destination). */
export function isHttpUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** `text` without the slashes it ends with, in one pass from the end (no backtracking regex). */
export function trimTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 47) end -= 1;
  return end === text.length ? text : text.slice(0, end);
}

/** The host and path of an address, lower-cased, with no scheme, query, fragment or trailing slash; undefined when it is not one. */
export function shortUrlKey(address: string): string | undefined {
  const text = address.slice(0, MAX_ADDRESS_LENGTH).trim();
  if (text === "") return undefined;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]{0,20}:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    return undefined;
  }
  if (url.hostname === "") return undefined;
  return `${url.host}${trimTrailingSlashes(url.pathname)}`.toLowerCase();
}

/** The alias a short URL ends with (the last segment of its path), as written; "" when its path is empty. Linear, with no cap: the alias is at the end. */
export function aliasFromShortUrl(shortUrl: string): string {
  const end = shortUrl.search(/[?#]/);
  const withoutQuery = end === -1 ? shortUrl : shortUrl.slice(0, end);
  const scheme = withoutQuery.indexOf("://");
  const pathStart = withoutQuery.indexOf("/", scheme === -1 ? 0 : scheme + 3);
  if (pathStart === -1) return "";
  const path = trimTrailingSlashes(withoutQuery.slice(pathStart));
  return path.slice(path.lastIndexOf("/") + 1);
}

/** A QR code's address as `shortUrlKey` writes it, also when given its image (`.png`, `.svg`). */
export function qrCodeUrlKey(address: string): string | undefined {
  const key = shortUrlKey(address);
  return key?.replace(/\.(png|svg)$/, "");
}

/** An alias as aliases are compared: visits are case-insensitive, and a leading slash is not part of it. */
export function aliasKey(alias: string): string {
  return alias.slice(0, MAX_ADDRESS_LENGTH).trim().replace(/^\/+/, "").toLowerCase();
}

export const sameAlias = (a: string, b: string) => aliasKey(a) === aliasKey(b);
