import { clickChart, type ChartStatistics } from "@linkshort/client/core";

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
  });
  return `![${altText(chart.description)}](data:image/png;base64,${Buffer.from(chart.png()).toString("base64")})`;
}
