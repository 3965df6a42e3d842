/**
 * A chart of a link's or a QR code's statistics, as SVG and as PNG, drawn with nothing but
 * JavaScript (no browser, no native module, no timer): it runs wherever the core client runs,
 * the n8n node included.
 */
import { drawPng, drawSvg, type ClickChart, type Theme } from "./draw";
import { DEFAULT_WIDTH, formatCount, layoutChart } from "./layout";
import { chartModel, type ChartModel, type ChartStatistics } from "./model";

export type { ChartStatistics } from "./model";
export type { ClickChart } from "./draw";
export { seriesChart, type SeriesChartOptions } from "./series-chart";

export interface ClickChartOptions {
  /** The line on top, such as the short URL or the QR code's name; cut to fit. */
  title?: string;
  /** Colours for a light or a dark background (default light). */
  theme?: Theme;
  /** The width in pixels, 320 to 1600 (default 640); from 800 the four lists sit in two columns. */
  width?: number;
  /** The word for a visit: "clicks" for links, "scans" for QR codes. */
  unit?: "clicks" | "scans";
}


function describe(model: ChartModel, unit: "clicks" | "scans"): string {
  const subject = model.title ? `${model.title}: ` : "";
  if (model.empty) return `${subject}no ${unit} yet`;
  const lists = model.sections
    .filter((section) => section.rows.length > 0)
    .map((section) => `${section.title}: ${section.rows.map((row) => `${row.label} ${formatCount(row.count)}`).join(", ")}`);
  return `${subject}${formatCount(model.clicks)} ${unit}, ${formatCount(model.uniqueClicks)} unique${lists.length > 0 ? `. ${lists.join(". ")}` : ""}`;
}

/**
 * The chart of `stats` (clicks and unique clicks, then the top countries, referrers, browsers
 * and OS as labelled bars, or "no clicks yet"). Statistics are read defensively: string, negative
 * or missing counts, maps of any size and names of any length give a chart of bounded size in
 * time linear in the input.
 */
export function clickChart(stats: ChartStatistics, options: ClickChartOptions = {}): ClickChart {
  const unit = options.unit === "scans" ? "scans" : "clicks";
  const theme: Theme = options.theme === "dark" ? "dark" : "light";
  const model = chartModel(stats, options.title ?? "");
  const layout = layoutChart(model, options.width ?? DEFAULT_WIDTH, unit);
  const description = describe(model, unit);
  return {
    width: layout.width,
    height: layout.height,
    description,
    svg: () => drawSvg(layout, theme, description),
    png: () => drawPng(layout, theme),
  };
}
