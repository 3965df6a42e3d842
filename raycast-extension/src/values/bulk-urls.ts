/** The most text Shorten Links in Bulk reads: checked before anything else looks at it. */
export const MAX_BULK_TEXT_CHARS = 100_000;
/** The most URLs one run shortens (at 30 requests a minute, about 7 minutes). */
export const MAX_BULK_URLS = 200;

export type BulkUrls = { urls: string[] } | { error: string };

const HTTP_PREFIX = /^https?:\/\//i;
const TRAILING_PUNCTUATION = new Set([".", ",", ";", ":", "!", "?", "'", '"', ">", "]", "}", "*"]);
const LEADING_PUNCTUATION = new Set(["<", "(", "[", "{", "'", '"', "*"]);

/** A URL as written in prose: without the punctuation around it (a closing bracket stays when the URL opened one). */
function trimProse(token: string): string {
  let start = 0;
  let end = token.length;
  while (start < end && LEADING_PUNCTUATION.has(token[start]!)) start += 1;
  while (end > start) {
    const last = token[end - 1]!;
    if (TRAILING_PUNCTUATION.has(last) || (last === ")" && !token.slice(start, end).includes("("))) end -= 1;
    else break;
  }
  return token.slice(start, end);
}

/**
 * The URLs to shorten in a text, in order, each once. One a line: every non-empty line is one
 * (a line that is not a URL is kept, for the client to name). Any other text: every word that
 * starts with http:// or https://. Refuses a text or a count past the caps, before any request.
 */
export function bulkUrls(text: string): BulkUrls {
  if (text.length > MAX_BULK_TEXT_CHARS)
    return {
      error: `The text has ${text.length.toLocaleString("en-US")} characters; at most ${MAX_BULK_TEXT_CHARS.toLocaleString("en-US")} at a time`,
    };
  const lines = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
  const oneALine = lines.every((line) => !/\s/.test(line));
  const found = oneALine
    ? lines
    : text
        .split(/\s+/)
        .map(trimProse)
        .filter((word) => HTTP_PREFIX.test(word));
  const urls = [...new Set(found.filter((url) => url !== ""))];
  if (urls.length === 0) return { error: "Select or copy text with URLs (one a line, or anywhere in the text)" };
  if (urls.length > MAX_BULK_URLS)
    return { error: `Found ${urls.length} URLs; at most ${MAX_BULK_URLS} at a time: select fewer lines` };
  return { urls };
}
