/**
 * `@linkshort/client/charts`: a chart of a link's or a QR code's statistics, as SVG and as PNG,
 * drawn with nothing but JavaScript (no browser, no native module, no timer): it runs wherever the
 * core client runs, the n8n node included. No state of its own, so a second copy of it beside the
 * client's entry costs only its bytes.
 *
 * Every name exported here is public surface, listed by test/public-surface.test.ts.
 */
import { drawPng, drawSvg, type ClickChart, type Theme } from "./draw";
import { DEFAULT_WIDTH, formatCount, layoutChart, type Layout } from "./layout";
import { chartModel, type ChartModel, type ChartStatistics } from "./model";
import type { Deflate } from "./png";
import { layoutSeries } from "./series-layout";
import { seriesModel, type ChartSeries, type SeriesModel } from "./series-model";

export type { ChartStatistics } from "./model";
export {
  cleanLabel,
  readStatistics,
  type ReadStatisticsOptions,
  type StatisticsEntry,
  type StatisticsList,
  type StatisticsListKey,
  type StatisticsReading,
} from "./model";
export { CHART_PALETTES, type ClickChart } from "./draw";
export type { Deflate } from "./png";
export type { ChartSeries, SeriesBucket, SeriesGranularity } from "./series-model";

export interface ClickChartOptions {
  /** The line on top, such as the short URL or the QR code's name; cut to fit. */
  title?: string;
  /** Colours for a light or a dark background (default light). */
  theme?: Theme;
  /** The width in pixels, 320 to 1600 (default 640); from 800 the four lists sit in two columns. */
  width?: number;
  /** The word for a visit: "clicks" for links, "scans" for QR codes. */
  unit?: "clicks" | "scans";
  /**
   * The PNG's compression, for hosts that have one: `deflateSync` of `node:zlib`, which the chart
   * calls at level 8. About a quarter of the bytes of the chart's own deflate, which
   * serves hosts that may not import zlib (n8n).
   */
  deflate?: Deflate;
}

function describe(model: ChartModel, unit: "clicks" | "scans"): string {
  const subject = model.title ? `${model.title}: ` : "";
  if (model.empty) return `${subject}no ${unit} yet`;
  const lists = model.sections
    .filter((section) => section.rows.length > 0)
    .map((section) => `${section.title}: ${section.rows.map((row) => `${row.label} ${formatCount(row.count)}`).join(", ")}`);
  return `${subject}${formatCount(model.clicks)} ${unit}, ${formatCount(model.uniqueClicks)} unique${lists.length > 0 ? `. ${lists.join(". ")}` : ""}`;
}

const unitOf = (options: ClickChartOptions): "clicks" | "scans" => (options.unit === "scans" ? "scans" : "clicks");

/** A laid-out chart, drawn either way on demand in the chosen theme. */
function drawn(layout: Layout, options: ClickChartOptions, description: string): ClickChart {
  const theme: Theme = options.theme === "dark" ? "dark" : "light";
  return {
    width: layout.width,
    height: layout.height,
    description,
    svg: () => drawSvg(layout, theme, description),
    png: () => drawPng(layout, theme, options.deflate),
  };
}

/**
 * The chart of `stats` (clicks and unique clicks, then the top countries, referrers, browsers
 * and OS as labelled bars, or "no clicks yet"). Statistics are read defensively: string, negative
 * or missing counts, maps of any size and names of any length give a chart of bounded size in
 * time linear in the input.
 */
export function clickChart(stats: ChartStatistics, options: ClickChartOptions = {}): ClickChart {
  const unit = unitOf(options);
  const model = chartModel(stats, options.title ?? "");
  return drawn(layoutChart(model, options.width ?? DEFAULT_WIDTH, unit), options, describe(model, unit));
}

export interface SeriesChartOptions extends ClickChartOptions {
  /** The language of the default axis labels, such as "en-GB" (the default) or "de". */
  locale?: string;
}

function describeSeries(model: SeriesModel, unit: "clicks" | "scans"): string {
  const subject = model.title ? `${model.title}: ` : "";
  const first = model.bars[0];
  const last = model.bars[model.bars.length - 1];
  if (!first || !last || model.gaps === model.bars.length) return `${subject}no data for this period`;
  const plural = (count: number) => `${count} ${model.granularity}${count === 1 ? "" : "s"}`;
  const notes = [
    `${formatCount(model.total)} ${unit} from ${first.label} to ${last.label}, by ${model.granularity}, at most ${formatCount(model.peak)} in one`,
    ...(model.gaps > 0 ? [`${plural(model.gaps)} with no data`] : []),
    ...(model.spread > 0 ? [`${plural(model.spread)} spread over a sampling gap`] : []),
    ...(model.unplaced > 0 ? [`${formatCount(model.unplaced)} ${unit} gained while nothing sampled, in no ${model.granularity}`] : []),
  ];
  return `${subject}${notes.join("; ")}`;
}

/**
 * The chart of a series of clicks over time: a bar per hour, day or month (a gap where there is
 * no data, a lighter bar where a count is spread over a sampling gap) and the period's total.
 * Labels are the buckets' own or their starts in the series' time zone. Throws a
 * `ValidationError` naming the field for a bad series (granularity, time zone, a bucket's start,
 * count or flag) or locale.
 */
export function seriesChart(series: ChartSeries, options: SeriesChartOptions = {}): ClickChart {
  const unit = unitOf(options);
  const model = seriesModel(series, options.title ?? "", options.locale ?? "en-GB");
  return drawn(layoutSeries(model, options.width ?? DEFAULT_WIDTH, unit), options, describeSeries(model, unit));
}
