import { timestampParts } from "../resources/fields";

/**
 * A link as the table keeps it, packed small: n8n keeps up to 8 accounts in a worker, and an
 * account may hold 100,000 links. No lower-cased copies (mixed-case fields are searched with a
 * case-insensitive pattern), the short URL kept as a shared prefix and the alias, the date as
 * seconds, the walk's generation and the case bits in one number.
 */

/** Which fields hold capital letters (searched with a case-insensitive pattern, not `indexOf`). */
export const MIXED_ALIAS = 1;
export const MIXED_LONG_URL = 2;
export const MIXED_TITLE = 4;
export const MIXED_DESCRIPTION = 8;

export interface Entry {
  id: number;
  alias: string;
  /** The index of the short URL's prefix (it is prefix + alias), or the whole short URL when it is not so made. */
  short: number | string;
  longurl: string;
  title: string;
  description: string;
  /** Seconds since 1970 read as UTC when the date is `YYYY-MM-DD HH:MM:SS`, else as given. */
  date: number | string | null;
  clicks: number;
  /** The generation of the walk that last saw it, times 16, plus the MIXED_ bits: one number, not two. */
  seenAndMixed: number;
}

export const seenOf = (entry: Entry) => Math.floor(entry.seenAndMixed / 16);
export const mixedOf = (entry: Entry) => entry.seenAndMixed & 15;

const hasCapitals = (text: string) => text !== text.toLowerCase();

/** `seen` and the MIXED_ bits of `link`'s fields, packed as `seenAndMixed` keeps them. */
export function seenAndMixedOf(link: { seen: number; alias: string; longurl: string; title: string; description: string }): number {
  return (
    link.seen * 16 +
    ((hasCapitals(link.alias) ? MIXED_ALIAS : 0) |
      (hasCapitals(link.longurl) ? MIXED_LONG_URL : 0) |
      (hasCapitals(link.title) ? MIXED_TITLE : 0) |
      (hasCapitals(link.description) ? MIXED_DESCRIPTION : 0))
  );
}

export function packDate(date: string | null): number | string | null {
  const parts = date === null ? null : timestampParts(date);
  if (!parts) return date;
  const [year, month, day, hour, minute, second] = parts;
  const seconds = Date.UTC(year, month - 1, day, hour, minute, second) / 1000;
  return unpackDate(seconds) === date ? seconds : date;
}

export function unpackDate(date: number | string | null): string | null {
  return typeof date === "number" ? new Date(date * 1000).toISOString().slice(0, 19).replace("T", " ") : date;
}
