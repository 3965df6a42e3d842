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
/** The longest label or title kept from the server, before the layout cuts it to its column. */
export const MAX_TEXT = 80;
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
  return code <= 0x1f || (code >= 0x7f && code <= 0x9f) || (code >= 0x200b && code <= 0x200f) || (code >= 0x2028 && code <= 0x202e) || (code >= 0x2060 && code <= 0x2069) || code === 0xfeff;
}

/**
 * A name from the server as plain text of at most `MAX_TEXT` characters, never a broken surrogate
 * pair; composed (NFC), so that "u" with a combining diaeresis is drawn as the "ü" it shows as.
 */
export function cleanText(value: string): string {
  const prefix = (value.length > MAX_TEXT * 2 ? value.slice(0, MAX_TEXT * 2) : value).normalize("NFC");
  let visible = "";
  for (let index = 0; index < prefix.length; index += 1) visible += isInvisible(prefix.charCodeAt(index)) ? " " : prefix.charAt(index);
  let text = visible.replace(/\s+/g, " ").trim();
  if (text.length > MAX_TEXT) text = text.slice(0, MAX_TEXT);
  const last = text.charCodeAt(text.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) text = text.slice(0, -1);
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
}

/** Referrers are URLs: the scheme and `www.` say nothing a reader needs in a narrow column. */
function referrerLabel(name: string): string {
  return name.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "").replace(/^www\./i, "");
}

/** The `limit` largest entries of a map, largest first (ties by name), in one pass over it. */
function topRows(map: unknown, limit: number, label: (name: string) => string): ChartRow[] {
  if (typeof map !== "object" || map === null || Array.isArray(map)) return [];
  const top: Array<{ name: string; count: number }> = [];
  const record = map as Record<string, unknown>;
  for (const name of Object.keys(record)) {
    const count = chartCount(record[name]);
    if (count === 0) continue;
    if (top.length === limit) {
      const smallest = top[limit - 1]!;
      if (count < smallest.count || (count === smallest.count && name >= smallest.name)) continue;
      top.pop();
    }
    let index = top.length;
    while (index > 0 && (top[index - 1]!.count < count || (top[index - 1]!.count === count && top[index - 1]!.name > name))) index -= 1;
    top.splice(index, 0, { name, count });
  }
  return top.map(({ name, count }) => ({ label: label(cleanText(name)) || "(none)", count }));
}

export const SECTION_TITLES = { topCountries: "Top countries", topReferrers: "Top referrers", topBrowsers: "Top browsers", topOs: "Top OS" } as const;

export function chartModel(stats: ChartStatistics, title: string): ChartModel {
  const safe: ChartStatistics = typeof stats === "object" && stats !== null ? stats : {};
  const sections: ChartSection[] = (Object.keys(SECTION_TITLES) as Array<keyof typeof SECTION_TITLES>).map((key) => ({
    title: SECTION_TITLES[key],
    rows: topRows(safe[key], ROWS_PER_SECTION, key === "topReferrers" ? referrerLabel : (name) => name),
  }));
  const clicks = chartCount(safe.clicks);
  const uniqueClicks = chartCount(safe.uniqueClicks);
  return {
    title: cleanText(typeof title === "string" ? title : ""),
    clicks,
    uniqueClicks,
    sections,
    empty: clicks === 0 && uniqueClicks === 0 && sections.every((section) => section.rows.length === 0),
  };
}
