/** A link as the index keeps it: the list item's fields, with `clicks` as of the read that saw it. */
export interface IndexedLink {
  id: number;
  alias: string;
  shorturl: string;
  longurl: string;
  title: string;
  description: string;
  date: string | null;
  clicks: number;
}

/** The words of a query that count; more are ignored (a pasted paragraph is not a search). */
export const MAX_QUERY_WORDS = 8;

/** Ranks, highest first. Exact matches of what identifies a link come before any text match. */
export const RANK = {
  shortUrl: 1_000_000,
  alias: 900_000,
  longUrl: 800_000,
  aliasStart: 3_000,
  alias_: 2_000,
  title: 1_000,
  shortUrlText: 500,
  longUrlText: 300,
  description: 100,
} as const;
