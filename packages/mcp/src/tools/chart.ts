import { deflateSync } from "node:zlib";
import type { Statistics } from "@linkshort/client";
import type * as ClientCharts from "@linkshort/client/charts";
import type { ImageContent, StatisticsViewData } from "./define";

let charts: Promise<typeof ClientCharts> | undefined;
/** The client's charts (glyphs, layout, PNG encoder), loaded by the first answer that draws one: a stdio start loads none. */
export const loadCharts = (): Promise<typeof ClientCharts> => (charts ??= import("@linkshort/client/charts"));

/** Rows per list in the statistics view, which has room for more than the chart's five. */
export const VIEW_ROWS = 8;

/** A link's or QR code's statistics drawn as a PNG chart (the client's renderer), as MCP image content, when asked for. */
export async function statisticsChart(stats: Statistics, title: string, unit: "clicks" | "scans"): Promise<() => ImageContent> {
  const { clickChart } = await loadCharts();
  return () => ({ data: Buffer.from(clickChart(stats, { title, unit, deflate: deflateSync }).png()).toString("base64"), mimeType: "image/png" });
}

/** The same statistics as the statistics view shows them: the client's reading, which the view only renders. */
export async function statisticsView(stats: unknown, title: string, unit: "clicks" | "scans"): Promise<() => StatisticsViewData> {
  const { cleanLabel, readStatistics } = await loadCharts();
  return () => {
    const { clicks, uniqueClicks, lists, empty } = readStatistics(stats, { top: VIEW_ROWS });
    const sections = lists.map((list) => ({ title: list.title, rows: list.entries.map(({ label, count }) => ({ label, count })) }));
    return { kind: "statistics", title: cleanLabel(title), unit, clicks, uniqueClicks, sections, empty };
  };
}
