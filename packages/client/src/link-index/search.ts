import { aliasKey, MAX_ADDRESS_LENGTH, shortUrlKey } from "./short-url";

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
const MAX_QUERY_WORDS = 8;

/** Ranks, highest first. Exact matches of what identifies a link come before any text match. */
const RANK = {
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

export interface SearchEntry {
  link: IndexedLink;
  alias: string;
  shortKey: string | undefined;
  /** The short URL's path: its host is the same for most links, and matching words in it would be noise (a port of "8010" matching "10"). */
  shortPath: string;
  longUrl: string;
  title: string;
  description: string;
}

export function searchEntry(link: IndexedLink): SearchEntry {
  const shortKey = shortUrlKey(link.shorturl);
  return {
    link,
    alias: aliasKey(link.alias),
    shortKey,
    shortPath: shortKey === undefined || !shortKey.includes("/") ? "" : shortKey.slice(shortKey.indexOf("/") + 1),
    longUrl: link.longurl.toLowerCase(),
    title: link.title.toLowerCase(),
    description: link.description.toLowerCase(),
  };
}

/** A query made ready once for every entry: its exact forms and its words. */
export interface PreparedQuery {
  text: string;
  shortKey: string | undefined;
  alias: string;
  words: string[];
}

export function prepareQuery(query: string): PreparedQuery {
  const text = query.slice(0, MAX_ADDRESS_LENGTH).trim().toLowerCase();
  const words = text.split(/\s+/).filter((word) => word !== "").slice(0, MAX_QUERY_WORDS);
  return { text, shortKey: text.includes(".") ? shortUrlKey(text) : undefined, alias: aliasKey(text), words };
}

/** How well `entry` matches `query` (0: not at all). Every word must appear in one of the fields. */
export function rank(entry: SearchEntry, query: PreparedQuery): number {
  if (query.text === "") return 1;
  if (query.shortKey !== undefined && entry.shortKey === query.shortKey) return RANK.shortUrl;
  if (entry.alias === query.alias) return RANK.alias;
  if (entry.longUrl === query.text) return RANK.longUrl;
  let score = 0;
  for (const word of query.words) {
    let wordScore = 0;
    if (entry.alias.startsWith(word)) wordScore = RANK.aliasStart;
    else if (entry.alias.includes(word)) wordScore = RANK.alias_;
    if (entry.title.includes(word)) wordScore += RANK.title;
    if (entry.shortPath.includes(word)) wordScore += RANK.shortUrlText;
    if (entry.longUrl.includes(word)) wordScore += RANK.longUrlText;
    if (entry.description.includes(word)) wordScore += RANK.description;
    if (wordScore === 0) return 0;
    score += wordScore;
  }
  return score;
}
