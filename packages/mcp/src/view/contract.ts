/**
 * What the server sends the statistics view (MCP Apps), and where: a tool computes `ViewData` with
 * the client's readers and puts it in the result's `_meta` under `VIEW_CHART_META_KEY`, which the
 * host forwards and models do not read; the view only renders it. No imports: the server and the
 * view's browser bundle both read this file.
 */

/** Where a result's `_meta` carries what the view shows (`ViewData`). */
export const VIEW_CHART_META_KEY = "linkshort/chart";

/** A row of the statistics view: a label as the client cleaned it, and its count. */
export interface ViewRow {
  label: string;
  count: number;
}

/** What the statistics view shows of a link's or QR code's statistics: the client's reading of them (`readStatistics`). */
export interface StatisticsViewData {
  kind: "statistics";
  title: string;
  unit: "clicks" | "scans";
  clicks: number;
  uniqueClicks: number;
  /** The client's four lists, in its order and with its titles; a list with no entry has no row. */
  sections: Array<{ title: string; rows: ViewRow[] }>;
  empty: boolean;
}

/** What the statistics view shows of clicks over time: the chart the client drew (SVG with real text), and the lines beside it. */
export interface SeriesViewData {
  kind: "series";
  title: string;
  total: number;
  timeZone: string;
  /** The chart the client drew and its description; absent when no link gained clicks in the period. */
  svg?: string;
  description?: string;
  /** The top links, for an answer of top links; none for one link. */
  rows: ViewRow[];
  notes: string[];
}

/** Everything the statistics view shows, computed by the tools from the client's readers; the view only renders it. */
export type ViewData = StatisticsViewData | SeriesViewData;
