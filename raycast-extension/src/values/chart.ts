import { deflateSync } from "node:zlib";
import { chartSeriesOf, type ClickSeries } from "@linkshort/client/core";
import { clickChart, seriesChart, type ChartStatistics } from "@linkshort/client/charts";

/**
 * The chart's width in pixels: a list's detail pane in Raycast's narrowest window is about 450
 * points wide with its margins, so 400 is never cropped, and the pixel font stays at its size.
 */
export const DETAIL_CHART_WIDTH = 400;

/** Markdown's image syntax breaks on brackets and parentheses: the alt text keeps neither. */
function altText(text: string): string {
  const flat = text
    .replace(/[[\]()\\`*_<>]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return flat.length > 300 ? `${flat.slice(0, 299)}…` : flat;
}

/** The statistics as a chart image in markdown, in the colours of Raycast's appearance (`environment.appearance`). */
export function chartMarkdown(
  stats: ChartStatistics,
  options: { title: string; unit: "clicks" | "scans"; appearance: "light" | "dark" },
): string {
  const chart = clickChart(stats, {
    title: options.title,
    unit: options.unit,
    width: DETAIL_CHART_WIDTH,
    theme: options.appearance,
    deflate: deflateSync,
  });
  return `![${altText(chart.description)}](data:image/png;base64,${Buffer.from(chart.png()).toString("base64")})`;
}

const when = (at: number, timeZone: string) =>
  new Date(at).toLocaleString("en-GB", {
    timeZone,
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
  });

/**
 * A link's last 7 days as a chart in markdown, then what it is measured from: since when the
 * extension has samples of the link (no data before), or that it has none yet. SVG, which Raycast
 * renders with its own fonts, so that labels are real text in any script.
 */
export function weekMarkdown(series: ClickSeries, options: { appearance: "light" | "dark" }): string {
  if (series.firstSampleAt === null) {
    return "**Last 7 days:** no data yet. Recent Links (in the menu bar) records clicks over time while it runs.";
  }
  const chart = seriesChart(chartSeriesOf(series), {
    title: "Last 7 days",
    width: DETAIL_CHART_WIDTH,
    theme: options.appearance,
  });
  const image = `![${altText(chart.description)}](data:image/svg+xml;base64,${Buffer.from(chart.svg()).toString("base64")})`;
  const since =
    series.firstSampleAt > series.start
      ? `Counted since ${when(series.firstSampleAt, series.timeZone)}, when Recent Links first sampled this link: no data before.`
      : "Counted from Recent Links' samples.";
  const measured = chart.description.replace(/^Last 7 days: /, "");
  return `${image}\n\n${since} ${measured.charAt(0).toUpperCase()}${measured.slice(1)}.`;
}
