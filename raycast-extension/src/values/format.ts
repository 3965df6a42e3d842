import type { Statistics } from "@linkshort/client/core";
import { readStatistics, type StatisticsListKey } from "@linkshort/client/charts";

/** The label of the most frequent entry of one of the statistics' top lists, as the chart shows it, or undefined. */
export function topLabel(stats: Statistics, list: StatisticsListKey): string | undefined {
  return readStatistics(stats, { top: 1 }).lists.find((entry) => entry.key === list)?.entries[0]?.label;
}

/** Markdown for a link's or QR code's statistics: the chart's lists in the chart's order, titles and labels. */
export function statisticsMarkdown(stats: Statistics): string {
  const { lists } = readStatistics(stats);
  return [
    `**Clicks:** ${stats.clicks} · **Unique:** ${stats.uniqueClicks}`,
    ...lists.map(({ title, entries }) =>
      entries.length === 0
        ? `**${title}:** none yet`
        : `**${title}:** ${entries.map(({ label, count }) => `${label} (${count})`).join(", ")}`,
    ),
  ].join("\n\n");
}

/** "1 click", "1,234 clicks": the count grouped as the rest of the extension writes numbers. */
export function pluralize(count: number, word: string): string {
  return `${count.toLocaleString("en-US")} ${word}${count === 1 ? "" : "s"}`;
}
