/** How the index searches: the query made ready once, each entry ranked, the best kept. */
import { aliasKey, MAX_ADDRESS_LENGTH, shortUrlKey } from "../addresses";
import { MIXED_ALIAS, MIXED_DESCRIPTION, MIXED_LONG_URL, MIXED_TITLE, mixedOf, type Entry } from "./packed-link";

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

/** A query made ready once for every entry. */
export interface TableQuery {
  text: string;
  shortKey: string | undefined;
  alias: string;
  words: Array<{ text: string; pattern: RegExp }>;
}

export function tableQuery(query: string): TableQuery {
  const text = query.slice(0, MAX_ADDRESS_LENGTH).trim().toLowerCase();
  const words = text
    .split(/\s+/)
    .filter((word) => word !== "")
    .slice(0, MAX_QUERY_WORDS)
    .map((word) => ({ text: word, pattern: new RegExp(word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "i") }));
  return { text, shortKey: text.includes(".") ? shortUrlKey(text) : undefined, alias: aliasKey(text), words };
}

/**
 * The words every link that matches `query` holds in the text `rankEntry` searches, for the trigram
 * filter to find such links; undefined when a link may match without them: an empty query, or an
 * alias the table's map cannot look up as it is. Exact matches of a short URL or an alias are looked
 * up apart; a long URL equal to the query holds its words. A word in a short-URL prefix's path is
 * left out: every link of that prefix holds it.
 */
export function filterWords(query: TableQuery, prefixPaths: readonly string[]): string[] | undefined {
  if (query.text === "" || aliasKey(query.alias) !== query.alias) return undefined;
  return query.words.filter((word) => !prefixPaths.some((path) => path.includes(word.text))).map((word) => word.text);
}

/** Where `word` is in `field` (-1: nowhere), case-insensitively. */
const find = (field: string, mixed: boolean, word: { text: string; pattern: RegExp }) => (mixed ? field.search(word.pattern) : field.indexOf(word.text));

/**
 * How well `entry` matches (0: not at all). Every word must appear in one of the fields.
 * `prefixPaths`: the path of each short-URL prefix of the table; `shortPath`: an entry's short URL path.
 */
export function rankEntry(entry: Entry, query: TableQuery, prefixPaths: readonly string[], shortPath: (entry: Entry) => string): number {
  if (query.text === "") return 1;
  const { alias, longurl } = entry;
  const mixed = mixedOf(entry);
  if (alias.length === query.alias.length && (mixed & MIXED_ALIAS ? alias.toLowerCase() : alias) === query.alias) return RANK.alias;
  if (longurl.length === query.text.length && (mixed & MIXED_LONG_URL ? longurl.toLowerCase() : longurl) === query.text) return RANK.longUrl;
  const prefixPath = typeof entry.short === "number" ? prefixPaths[entry.short]! : undefined;
  let score = 0;
  for (const word of query.words) {
    let wordScore = 0;
    const inAlias = find(alias, (mixed & MIXED_ALIAS) !== 0, word);
    if (inAlias === 0) wordScore = RANK.aliasStart;
    else if (inAlias > 0) wordScore = RANK.alias_;
    if (find(entry.title, (mixed & MIXED_TITLE) !== 0, word) !== -1) wordScore += RANK.title;
    const inPath = prefixPath === undefined ? shortPath(entry).includes(word.text) : inAlias !== -1 || prefixPath.includes(word.text);
    if (inPath) wordScore += RANK.shortUrlText;
    if (find(longurl, (mixed & MIXED_LONG_URL) !== 0, word) !== -1) wordScore += RANK.longUrlText;
    if (entry.description !== "" && find(entry.description, (mixed & MIXED_DESCRIPTION) !== 0, word) !== -1) wordScore += RANK.description;
    if (wordScore === 0) return 0;
    score += wordScore;
  }
  return score;
}

export interface Scored {
  score: number;
  entry: Entry;
}

/** Keeps the best `limit`, best first (newest first among equals); answers the worst kept when there are that many. */
export function keepBest(best: Scored[], limit: number): Scored | undefined {
  best.sort((a, b) => b.score - a.score || b.entry.id - a.entry.id);
  if (best.length > limit) best.length = limit;
  return best.length === limit ? best[limit - 1] : undefined;
}
