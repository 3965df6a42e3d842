/**
 * The view's page: a tool result rendered as DOM, every text set as text, never as markup. What the
 * tool sent is rendered as it is (`ViewData`); the readers below only keep a malformed message
 * (the host forwards whatever arrives) from breaking the page.
 */
import { VIEW_CHART_META_KEY, type SeriesViewData, type StatisticsViewData, type ViewData } from "../contract";

/** A message's value as the type it should have: each field may be anything. */
type Untrusted<T> = { [K in keyof T]?: unknown };

const format = new Intl.NumberFormat("en-US");

const list = (value: unknown): Array<Record<string, unknown>> =>
  Array.isArray(value) ? value.filter((item): item is Record<string, unknown> => item !== null && typeof item === "object") : [];
const number = (value: unknown): number => (typeof value === "number" && isFinite(value) && value > 0 ? value : 0);
const textOf = (value: unknown): string => (typeof value === "string" ? value : "");
const share = (value: number, total: number): number => Math.round((value / total) * 1000) / 10;

export function element<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

type Mode = "count" | "share";

/** The view in `root`: what the host last showed it, in counts or in shares of the total. */
export class StatisticsPage {
  private shown: unknown = null;
  private mode: Mode = "count";

  constructor(private readonly root: HTMLElement) {}

  /** Renders a tool result (`CallToolResult`) as the host sent it. */
  show(result: unknown): void {
    this.shown = result;
    this.render();
  }

  /** A line of status in place of everything else. */
  status(text: string): void {
    this.root.textContent = "";
    this.root.appendChild(element("p", "status", text));
  }

  render(): void {
    const result = this.shown as { isError?: unknown; _meta?: Record<string, unknown>; content?: unknown } | null;
    const view = result && !result.isError && result._meta && (result._meta[VIEW_CHART_META_KEY] as Untrusted<ViewData> | undefined);
    this.root.textContent = "";
    if (view && view.kind === "series") return this.renderSeries(view);
    if (view && view.kind === "statistics") return this.renderStatistics(view);
    const first: unknown = result && Array.isArray(result.content) && result.content[0];
    const text = first && typeof first === "object" ? (first as { text?: unknown }).text : undefined;
    this.root.appendChild(element("p", "status", typeof text === "string" ? text.slice(0, 500) : "No statistics in this answer."));
  }

  private amount(value: number, total: number): string {
    if (this.mode === "share") return total > 0 ? `${share(value, total)}%` : "0%";
    return format.format(value);
  }

  private row(label: string, value: number, max: number, total: number, unique: boolean): HTMLLIElement {
    const item = element("li");
    const hint = `${label}: ${format.format(value)}${total > 0 ? ` (${share(value, total)}%)` : ""}`;
    const name = element("span", "label", label);
    name.title = hint;
    item.appendChild(name);
    const track = element("span", "track");
    track.title = hint;
    const bar = element("span", unique ? "bar unique" : "bar");
    bar.style.width = `${max > 0 && value > 0 ? Math.max((value / max) * 100, 1) : 0}%`;
    track.appendChild(bar);
    item.appendChild(track);
    item.appendChild(element("span", "count", this.amount(value, total)));
    return item;
  }

  private totalsLine(parts: Array<number | string>): void {
    const totals = element("p", "totals");
    for (const part of parts) totals.appendChild(typeof part === "number" ? element("b", "", format.format(part)) : document.createTextNode(part));
    this.root.appendChild(totals);
  }

  /** Clicks over time: the chart the client drew (SVG, as an image: it runs nothing, loads nothing), the total and what the history says. */
  private renderSeries(view: Untrusted<SeriesViewData>): void {
    const rows = list(view.rows);
    const total = number(view.total);
    this.root.appendChild(element("h1", "title", textOf(view.title)));
    this.totalsLine([total, ` clicks \u00b7 ${textOf(view.timeZone)}`]);
    if (typeof view.svg === "string" && view.svg.indexOf("<svg") === 0) {
      const image = element("img", "chart");
      image.alt = textOf(view.description);
      image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(view.svg)}`;
      this.root.appendChild(image);
    }
    const links = element("ol");
    for (const item of rows) links.appendChild(this.row(textOf(item.label), number(item.count), number(rows[0]!.count), total, false));
    this.root.appendChild(links);
    for (const note of Array.isArray(view.notes) ? (view.notes as unknown[]) : []) this.root.appendChild(element("p", "status", textOf(note)));
  }

  /** A link's or QR code's statistics: the totals, then each of the client's lists as bars, most first. */
  private renderStatistics(view: Untrusted<StatisticsViewData>): void {
    const scans = view.unit === "scans";
    const clicks = number(view.clicks);
    const unique = number(view.uniqueClicks);
    const most = Math.max(clicks, unique);
    this.root.appendChild(element("h1", "title", textOf(view.title)));
    this.totalsLine([clicks, ` ${scans ? "scans" : "clicks"} \u00b7 `, unique, " unique"]);
    if (view.empty === true) {
      this.root.appendChild(element("p", "empty", scans ? "No scans yet." : "No clicks yet."));
      return;
    }
    this.root.appendChild(this.toolbar());
    const overview = element("ol", "overview");
    overview.appendChild(this.row(scans ? "Scans" : "Clicks", clicks, most, most, false));
    overview.appendChild(this.row("Unique", unique, most, most, true));
    this.root.appendChild(overview);
    for (const section of list(view.sections)) {
      const rows = list(section.rows);
      if (rows.length === 0) continue;
      const box = element("details");
      box.open = true;
      box.appendChild(element("summary", "", textOf(section.title)));
      const items = element("ol");
      const sum = rows.reduce((total, item) => total + number(item.count), 0);
      for (const item of rows) items.appendChild(this.row(textOf(item.label), number(item.count), number(rows[0]!.count), Math.max(clicks, sum), false));
      box.appendChild(items);
      this.root.appendChild(box);
    }
  }

  /** Counts or shares: a press renders the same result again the other way. */
  private toolbar(): HTMLDivElement {
    const toolbar = element("div", "toolbar");
    const choices: Array<[Mode, string]> = [
      ["count", "Counts"],
      ["share", "Share"],
    ];
    for (const [mode, label] of choices) {
      const button = element("button", "", label);
      button.type = "button";
      button.setAttribute("aria-pressed", String(this.mode === mode));
      button.addEventListener("click", () => {
        this.mode = mode;
        this.render();
      });
      toolbar.appendChild(button);
    }
    return toolbar;
  }
}
