/**
 * A click series as a bar chart, as SVG and PNG, from the same layout as the statistics chart: a
 * bar per bucket (measured buckets in the bar colour, spread or partial ones lighter), a gap drawn
 * as a gap (a pale column with no bar), no data left empty, and the period's total on top.
 */
import type { ClickSeries } from "../click-history/series";
import { drawPng, drawSvg, type ClickChart, type Theme } from "./draw";
import { CELL, DEFAULT_WIDTH, fitText, formatCount, MAX_WIDTH, MIN_WIDTH, TEXT_HEIGHT, type ColourName, type Layout, type Shape } from "./layout";

export interface SeriesChartOptions {
  /** The line on top, such as the short URL; cut to fit. */
  title?: string;
  theme?: Theme;
  /** The width in pixels, 320 to 1600 (default 640). */
  width?: number;
}

const PAD = 16;
const PLOT_HEIGHT = 160;
const LINE = TEXT_HEIGHT + 10;

/** A moment as the series' zone writes it: `2026-11-01 00:00`. */
function localTime(ms: number, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" })
      .formatToParts(new Date(ms))
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

function describe(series: ClickSeries, title: string): string {
  const count = (quality: string) => series.buckets.filter((bucket) => bucket.quality === quality).length;
  const total = series.total === null ? "no clicks sampled" : `${formatCount(series.total)} clicks`;
  const unplaced = series.unplaced.reduce((sum, span) => sum + span.clicks, 0);
  return (
    `${title ? `${title}: ` : ""}${total} by ${series.granularity} from ${localTime(series.start, series.timeZone)} to ${localTime(series.end, series.timeZone)} (${series.timeZone}); ` +
    `${count("exact")} ${series.granularity}s measured, ${count("spread") + count("partial")} estimated or partial, ${count("gap")} in gaps${unplaced > 0 ? ` (${formatCount(unplaced)} clicks not placed in time)` : ""}`
  );
}

function layoutSeries(series: ClickSeries, title: string, requestedWidth: number): Layout {
  const width = Math.max(MIN_WIDTH, Math.min(MAX_WIDTH, Math.round(Number.isFinite(requestedWidth) ? requestedWidth : DEFAULT_WIDTH)));
  const cells = Math.floor((width - 2 * PAD) / CELL);
  const shapes: Shape[] = [];
  let y = PAD;
  if (title) {
    shapes.push({ kind: "text", x: PAD, y, text: fitText(title, cells), colour: "text", align: "start" });
    y += LINE;
  }
  const total = series.total === null ? "No clicks sampled" : `${formatCount(series.total)} clicks`;
  shapes.push({ kind: "text", x: PAD, y, text: fitText(`${total} (${series.timeZone})`, cells), colour: "text", align: "start" });
  y += LINE;
  const plotTop = y;
  const plotWidth = width - 2 * PAD;
  const slots = Math.max(1, series.buckets.length);
  const max = Math.max(1, ...series.buckets.map((bucket) => bucket.clicks ?? 0));
  series.buckets.forEach((bucket, index) => {
    const left = PAD + Math.floor((index * plotWidth) / slots);
    const right = PAD + Math.floor(((index + 1) * plotWidth) / slots);
    const barWidth = Math.max(1, right - left - (right - left > 3 ? 1 : 0));
    if (bucket.quality === "gap") {
      shapes.push({ kind: "rect", x: left, y: plotTop, width: barWidth, height: PLOT_HEIGHT, colour: "track" });
      return;
    }
    if (bucket.clicks === null || bucket.clicks === 0) return;
    const height = Math.max(2, Math.round((PLOT_HEIGHT * bucket.clicks) / max));
    const colour: ColourName = bucket.quality === "exact" ? "bar" : "unique";
    shapes.push({ kind: "rect", x: left, y: plotTop + PLOT_HEIGHT - height, width: barWidth, height, colour });
  });
  shapes.push({ kind: "rect", x: PAD, y: plotTop + PLOT_HEIGHT, width: plotWidth, height: 2, colour: "frame" });
  y = plotTop + PLOT_HEIGHT + 8;
  const [from, to] = [localTime(series.start, series.timeZone), localTime(series.end, series.timeZone)];
  const half = Math.floor(cells / 2);
  shapes.push({ kind: "text", x: PAD, y, text: fitText(from, half), colour: "muted", align: "start" });
  shapes.push({ kind: "text", x: width - PAD, y, text: fitText(to, cells - half - 1), colour: "muted", align: "end" });
  y += LINE;
  shapes.push({ kind: "text", x: PAD, y, text: fitText(`max ${formatCount(max)} a ${series.granularity}; light: estimated, pale: gap`, cells), colour: "muted", align: "start" });
  return { width, height: y + LINE - 10 + PAD, shapes };
}

/** The chart of a click series: a bar per bucket, gaps drawn as gaps, the period's total on top. */
export function seriesChart(series: ClickSeries, options: SeriesChartOptions = {}): ClickChart {
  const theme: Theme = options.theme === "dark" ? "dark" : "light";
  const title = options.title ?? "";
  const layout = layoutSeries(series, title, options.width ?? DEFAULT_WIDTH);
  const description = describe(series, title);
  return { width: layout.width, height: layout.height, description, svg: () => drawSvg(layout, theme, description), png: () => drawPng(layout, theme) };
}
