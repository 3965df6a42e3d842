import type { Statistics } from "@linkshort/client/core";

/** The top entries of a statistics map, most first. */
export function topEntries(map: Record<string, number>, count = 5): Array<[string, number]> {
  return Object.entries(map)
    .sort((a, b) => b[1] - a[1])
    .slice(0, count);
}

/** Markdown for a link's or QR code's statistics. */
export function statisticsMarkdown(stats: Statistics): string {
  const section = (title: string, map: Record<string, number>) => {
    const rows = topEntries(map);
    return rows.length === 0
      ? `**${title}:** none yet`
      : `**${title}:** ${rows.map(([name, count]) => `${name} (${count})`).join(", ")}`;
  };
  return [
    `**Clicks:** ${stats.clicks} · **Unique:** ${stats.uniqueClicks}`,
    section("Top countries", stats.topCountries),
    section("Referrers", stats.topReferrers),
    section("Browsers", stats.topBrowsers),
    section("Operating systems", stats.topOs),
  ].join("\n\n");
}

export function pluralize(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}
