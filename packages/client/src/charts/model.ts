/**
 * What a chart shows, read from statistics that are never trusted: counts may be numeric
 * strings, negative, absurd or not numbers at all; maps may hold thousands of names of any
 * length. Everything here takes time linear in the number of names and looks at no more than
 * a bounded prefix of each name.
 */

/** Statistics as the API sends them for a link or a QR code (the client's `Statistics` fits). */
export interface ChartStatistics {
  clicks?: unknown;
  uniqueClicks?: unknown;
  topCountries?: unknown;
  topReferrers?: unknown;
  topBrowsers?: unknown;
  topOs?: unknown;
}

export interface ChartRow {
  label: string;
  count: number;
}

export interface ChartSection {
  title: string;
  rows: ChartRow[];
}

export interface ChartModel {
  title: string;
  clicks: number;
  uniqueClicks: number;
  sections: ChartSection[];
  /** No click and no name in any list: the chart says "no clicks yet" rather than drawing empty bars. */
  empty: boolean;
}

/** Bars per list: the API's "top" lists are short, and a chart of more would not be read. */
export const ROWS_PER_SECTION = 5;
/** The longest label or title kept from the server, ellipsis included; the layout may cut it further to its column. */
export const MAX_TEXT = 60;
/** Counts above this are drawn as this (no service counts a quadrillion clicks). */
const MAX_COUNT = 1e15;

/** A count the chart can draw: a finite number or decimal string, at least 0; anything else is 0. */
export function chartCount(value: unknown): number {
  let number = Number.NaN;
  if (typeof value === "number") number = value;
  else if (typeof value === "string" && value.length <= 32 && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) number = Number(value);
  if (!Number.isFinite(number) || number <= 0) return 0;
  return Math.min(Math.round(number), MAX_COUNT);
}

/** C0 and C1 controls, the bidirectional overrides and isolates, zero-width characters and the BOM. */
function isInvisible(code: number): boolean {
  return (
    code <= 0x1f ||
    (code >= 0x7f && code <= 0x9f) ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x2028 && code <= 0x202e) ||
    (code >= 0x2060 && code <= 0x2069) ||
    code === 0xfeff
  );
}

const wellFormed = (text: string) => text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");

/**
 * A name from the server as a label: plain text (invisible characters as spaces, runs of space as
 * one) of at most `MAX_TEXT` characters, ending in an ellipsis when cut, never a broken surrogate
 * pair; composed (NFC), so that "u" with a combining diaeresis is drawn as the "ü" it shows as.
 * Every front end shows a name from the statistics as this.
 */
export function cleanLabel(value: string): string {
  // Only a bounded prefix is looked at: a 1 MB name costs what a short one does.
  const cut = value.length > MAX_TEXT * 4;
  let prefix = cut ? value.slice(0, MAX_TEXT * 4) : value;
  if (cut && /[\ud800-\udbff]$/.test(prefix)) prefix = prefix.slice(0, -1);
  prefix = prefix.normalize("NFC");
  let visible = "";
  for (let index = 0; index < prefix.length; index += 1) visible += isInvisible(prefix.charCodeAt(index)) ? " " : prefix.charAt(index);
  const text = visible.replace(/\s+/g, " ").trim();
  const characters = Array.from(text);
  if (!cut && characters.length <= MAX_TEXT) return wellFormed(text);
  return `${wellFormed(
    characters
      .slice(0, MAX_TEXT - 1)
      .join("")
      .trimEnd(),
  )}\u2026`;
}

/** The four top lists of statistics, in the order every front end shows them, each with its one title. */
export const STATISTICS_LISTS = [
  { key: "topCountries", title: "Top countries" },
  { key: "topReferrers", title: "Top referrers" },
  { key: "topBrowsers", title: "Top browsers" },
  { key: "topOs", title: "Top OS" },
] as const;

export type StatisticsListKey = (typeof STATISTICS_LISTS)[number]["key"];

/** One entry of a top list: the name as the server sent it, the label a person is shown, and its count (above 0). */
export interface StatisticsEntry {
  name: string;
  label: string;
  count: number;
}

export interface StatisticsList {
  key: StatisticsListKey;
  title: string;
  entries: StatisticsEntry[];
}

/** Statistics as every front end reads them (`readStatistics`). */
export interface StatisticsReading {
  clicks: number;
  uniqueClicks: number;
  /** The four lists in `STATISTICS_LISTS` order, each most first; a list the server left out or sent broken is empty. */
  lists: StatisticsList[];
  /** No click and no name in any list. */
  empty: boolean;
}

export interface ReadStatisticsOptions {
  /** How many entries of each list, most first (default 5, as the chart draws); `Infinity` for all. */
  top?: number;
}

/** Referrers are URLs: the scheme and `www.` say nothing a reader needs in a narrow column. */
function referrerLabel(name: string): string {
  return name.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "").replace(/^www\./i, "");
}

interface Ranked {
  name: string;
  count: number;
}

/**
 * The one order of a top list: the larger count first; equal counts by name as sent, in UTF-16
 * code unit order, which is the same on every host and in every locale (a collator is not).
 */
function ranksBefore(name: string, count: number, other: Ranked): boolean {
  return count > other.count || (count === other.count && name < other.name);
}

/** The `top` first entries of a map in the one order, in one pass over it (a sort when all are asked for). */
function topEntries(map: unknown, top: number, label: (name: string) => string): StatisticsEntry[] {
  if (typeof map !== "object" || map === null || Array.isArray(map)) return [];
  const record = map as Record<string, unknown>;
  const kept: Ranked[] = [];
  for (const name of Object.keys(record)) {
    const count = chartCount(record[name]);
    if (count === 0) continue;
    if (!Number.isFinite(top)) {
      kept.push({ name, count });
      continue;
    }
    if (kept.length >= top) {
      if (top < 1 || !ranksBefore(name, count, kept[kept.length - 1]!)) continue;
      kept.pop();
    }
    let index = kept.length;
    while (index > 0 && ranksBefore(name, count, kept[index - 1]!)) index -= 1;
    kept.splice(index, 0, { name, count });
  }
  if (!Number.isFinite(top)) kept.sort((a, b) => (ranksBefore(a.name, a.count, b) ? -1 : ranksBefore(b.name, b.count, a) ? 1 : 0));
  return kept.map(({ name, count }) => ({ name, label: label(cleanLabel(name)) || "(none)", count }));
}

/**
 * Statistics of a link or a QR code as every front end shows them: the totals, and each top list
 * most first with one rule for ties, its one title and each name's label (`cleanLabel`; a
 * referrer without its scheme and `www.`). Read defensively: string, negative or missing counts
 * count 0 (and entries of 0 are left out), a list that is not a map is empty, and a map of any size
 * is read in time linear in its names when `top` is small.
 */
export function readStatistics(stats: unknown, options: ReadStatisticsOptions = {}): StatisticsReading {
  const safe = (typeof stats === "object" && stats !== null ? stats : {}) as ChartStatistics;
  const top = options.top === undefined || Number.isNaN(options.top) ? ROWS_PER_SECTION : Math.max(0, Math.floor(options.top));
  const lists = STATISTICS_LISTS.map(({ key, title }) => ({
    key,
    title,
    entries: topEntries(safe[key], top, key === "topReferrers" ? (name) => referrerLabel(name) : (name) => name),
  }));
  const clicks = chartCount(safe.clicks);
  const uniqueClicks = chartCount(safe.uniqueClicks);
  return { clicks, uniqueClicks, lists, empty: clicks === 0 && uniqueClicks === 0 && lists.every((list) => list.entries.length === 0) };
}

export function chartModel(stats: ChartStatistics, title: string): ChartModel {
  const { clicks, uniqueClicks, lists, empty } = readStatistics(stats);
  return {
    title: cleanLabel(typeof title === "string" ? title : ""),
    clicks,
    uniqueClicks,
    sections: lists.map((list) => ({ title: list.title, rows: list.entries })),
    empty,
  };
}
