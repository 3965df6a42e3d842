/**
 * The MCP App (extension `io.modelcontextprotocol/ui`) that get_link and get_qr_code show where the
 * client renders Apps: one self-contained HTML page, built once. It speaks the few messages of the
 * Apps protocol it needs itself (ui/initialize, ui/notifications/initialized, tool-result,
 * host-context-changed, size-changed, resource-teardown) rather than bundling the ext-apps SDK, whose
 * App class brings the MCP SDK and zod into the page.
 *
 * The page reads nothing itself: it renders the `ViewData` (tools/define.ts) that the tool computed with
 * the client's readers (its order of a top list, its section titles, its labels) and put in the result's
 * `_meta`, which the host forwards; its colours are the client's chart palette. It loads nothing and
 * calls nothing (its own CSP says so, with the hashes of its one script and one style sheet), and sets
 * every text as text, never as markup.
 */
import { CHART_PALETTES } from "@linkshort/client/charts";
import { createHash } from "node:crypto";

/** Where a result's `_meta` carries what the view shows (`ViewData`), which models do not read. */
export const VIEW_CHART_META_KEY = "linkshort/chart";

/** The view's colours as CSS variables: the client's chart palette of a theme. */
function colours(theme: "light" | "dark"): string {
  const palette = CHART_PALETTES[theme];
  return `--ls-bg:${palette.background};--ls-fg:${palette.text};--ls-muted:${palette.muted};--ls-track:${palette.track};--ls-bar:${palette.bar};--ls-bar2:${palette.unique};--ls-line:${palette.frame}`;
}

const STYLE = `
:root{color-scheme:light dark;${colours("light")}}
@media (prefers-color-scheme:dark){:root:not([data-theme=light]){${colours("dark")}}}
:root[data-theme=dark]{color-scheme:dark;${colours("dark")}}
:root[data-theme=light]{color-scheme:light}
*{box-sizing:border-box}
html,body{margin:0}
body{background:var(--color-background-primary,var(--ls-bg));color:var(--color-text-primary,var(--ls-fg));font:14px/1.4 var(--font-sans,system-ui,-apple-system,"Segoe UI",sans-serif);padding:12px 14px}
h1{font-size:16px;margin:0 0 4px;overflow-wrap:anywhere}
.totals{margin:0 0 8px;color:var(--color-text-secondary,var(--ls-muted))}
.totals b{color:var(--color-text-primary,var(--ls-fg));font-size:18px}
.toolbar{display:flex;gap:6px;margin:0 0 6px}
.toolbar button{font:inherit;font-size:12px;padding:2px 10px;border-radius:12px;border:1px solid var(--color-border-primary,var(--ls-line));background:transparent;color:inherit;cursor:pointer}
.toolbar button[aria-pressed=true]{background:var(--ls-track);border-color:var(--ls-muted);font-weight:600}
details{border-top:1px solid var(--color-border-primary,var(--ls-line));padding:6px 0}
summary{cursor:pointer;font-weight:600;font-size:13px}
ol{list-style:none;margin:6px 0 0;padding:0;display:grid;grid-template-columns:minmax(0,38%) minmax(40px,1fr) auto;gap:5px 8px;align-items:center}
li{display:contents}
.label{overflow-wrap:anywhere;min-width:0}
.track{background:var(--ls-track);height:12px}
.bar{display:block;background:var(--ls-bar);height:12px}
.bar.unique{background:var(--ls-bar2)}
.count{font-variant-numeric:tabular-nums;text-align:right;white-space:nowrap;color:var(--color-text-secondary,var(--ls-muted))}
.chart{display:block;max-width:100%;height:auto}
.empty,.status{color:var(--color-text-secondary,var(--ls-muted));margin:8px 0}
`;

const SCRIPT = `"use strict";
(function () {
  var root = document.getElementById("view");
  var nextId = 1, pending = {}, lastSize = "", shown = null, mode = "count";
  var format = new Intl.NumberFormat("en-US");

  function send(message) { message.jsonrpc = "2.0"; window.parent.postMessage(message, "*"); }
  function request(method, params) {
    var id = nextId++;
    send({ id: id, method: method, params: params });
    return new Promise(function (resolve, reject) { pending[id] = { resolve: resolve, reject: reject }; });
  }
  function notify(method, params) { send({ method: method, params: params }); }

  // What the tool sent is rendered as it is; these only keep a malformed message from breaking the page.
  function list(value) { return Array.isArray(value) ? value.filter(function (item) { return item !== null && typeof item === "object"; }) : []; }
  function number(value) { return typeof value === "number" && isFinite(value) && value > 0 ? value : 0; }
  function textOf(value) { return typeof value === "string" ? value : ""; }
  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function amount(value, total) {
    if (mode === "share") return total > 0 ? Math.round((value / total) * 1000) / 10 + "%" : "0%";
    return format.format(value);
  }
  function row(label, value, max, total, unique) {
    var item = element("li");
    var hint = label + ": " + format.format(value) + (total > 0 ? " (" + Math.round((value / total) * 1000) / 10 + "%)" : "");
    var name = element("span", "label", label);
    name.title = hint;
    item.appendChild(name);
    var track = element("span", "track");
    track.title = hint;
    var bar = element("span", unique ? "bar unique" : "bar");
    bar.style.width = (max > 0 && value > 0 ? Math.max((value / max) * 100, 1) : 0) + "%";
    track.appendChild(bar);
    item.appendChild(track);
    item.appendChild(element("span", "count", amount(value, total)));
    return item;
  }
  function totalsLine(parts) {
    var totals = element("p", "totals");
    parts.forEach(function (part) { totals.appendChild(typeof part === "number" ? element("b", "", format.format(part)) : document.createTextNode(part)); });
    root.appendChild(totals);
  }
  /** Clicks over time: the chart the client drew (SVG, as an image: it runs nothing, loads nothing), the total and what the history says. */
  function renderSeries(view) {
    var rows = list(view.rows), total = number(view.total);
    root.appendChild(element("h1", "title", textOf(view.title)));
    totalsLine([total, " clicks \\u00b7 " + textOf(view.timeZone)]);
    if (typeof view.svg === "string" && view.svg.indexOf("<svg") === 0) {
      var image = element("img", "chart");
      image.alt = textOf(view.description);
      image.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(view.svg);
      root.appendChild(image);
    }
    var links = element("ol");
    rows.forEach(function (item) { links.appendChild(row(textOf(item.label), number(item.count), number(rows[0].count), total, false)); });
    root.appendChild(links);
    (Array.isArray(view.notes) ? view.notes : []).forEach(function (note) { root.appendChild(element("p", "status", textOf(note))); });
  }
  /** A link's or QR code's statistics: the totals, then each of the client's lists as bars, most first. */
  function renderStatistics(view) {
    var scans = view.unit === "scans", clicks = number(view.clicks), unique = number(view.uniqueClicks), most = Math.max(clicks, unique);
    root.appendChild(element("h1", "title", textOf(view.title)));
    totalsLine([clicks, " " + (scans ? "scans" : "clicks") + " \\u00b7 ", unique, " unique"]);
    if (view.empty === true) {
      root.appendChild(element("p", "empty", scans ? "No scans yet." : "No clicks yet."));
      return;
    }
    var toolbar = element("div", "toolbar");
    [["count", "Counts"], ["share", "Share"]].forEach(function (choice) {
      var button = element("button", "", choice[1]);
      button.type = "button";
      button.setAttribute("aria-pressed", String(mode === choice[0]));
      button.addEventListener("click", function () { mode = choice[0]; render(); });
      toolbar.appendChild(button);
    });
    root.appendChild(toolbar);
    var overview = element("ol", "overview");
    overview.appendChild(row(scans ? "Scans" : "Clicks", clicks, most, most, false));
    overview.appendChild(row("Unique", unique, most, most, true));
    root.appendChild(overview);
    list(view.sections).forEach(function (section) {
      var rows = list(section.rows);
      if (rows.length === 0) return;
      var box = element("details");
      box.open = true;
      box.appendChild(element("summary", "", textOf(section.title)));
      var items = element("ol");
      var sum = rows.reduce(function (total, item) { return total + number(item.count); }, 0);
      rows.forEach(function (item) { items.appendChild(row(textOf(item.label), number(item.count), number(rows[0].count), Math.max(clicks, sum), false)); });
      box.appendChild(items);
      root.appendChild(box);
    });
  }
  function render() {
    var result = shown, view = result && !result.isError && result._meta && result._meta[${JSON.stringify(VIEW_CHART_META_KEY)}];
    root.textContent = "";
    if (view && view.kind === "series") return renderSeries(view);
    if (view && view.kind === "statistics") return renderStatistics(view);
    var first = result && Array.isArray(result.content) && result.content[0];
    root.appendChild(element("p", "status", first && typeof first.text === "string" ? first.text.slice(0, 500) : "No statistics in this answer."));
  }
  var STYLE_VARIABLES = ["--color-background-primary", "--color-text-primary", "--color-text-secondary", "--color-border-primary", "--font-sans"];
  function applyContext(context) {
    if (!context || typeof context !== "object") return;
    if (context.theme === "light" || context.theme === "dark") document.documentElement.setAttribute("data-theme", context.theme);
    var variables = context.styles && context.styles.variables;
    if (variables && typeof variables === "object") {
      STYLE_VARIABLES.forEach(function (name) {
        var value = variables[name];
        if (typeof value === "string" && value.length <= 200) document.documentElement.style.setProperty(name, value);
      });
    }
  }
  function reportSize() {
    var width = Math.ceil(document.documentElement.scrollWidth), height = Math.ceil(document.documentElement.scrollHeight);
    var size = width + "x" + height;
    if (size === lastSize) return;
    lastSize = size;
    notify("ui/notifications/size-changed", { width: width, height: height });
  }

  window.addEventListener("message", function (event) {
    if (event.source !== window.parent) return;
    var message = event.data;
    if (!message || typeof message !== "object" || message.jsonrpc !== "2.0") return;
    if (typeof message.method !== "string") {
      var waiting = pending[message.id];
      if (!waiting) return;
      delete pending[message.id];
      if (message.error) waiting.reject(message.error);
      else waiting.resolve(message.result);
      return;
    }
    var isRequest = message.id !== undefined && message.id !== null;
    switch (message.method) {
      case "ui/notifications/tool-result": shown = message.params; render(); break;
      case "ui/notifications/host-context-changed": applyContext(message.params); break;
      case "ui/notifications/tool-cancelled": shown = { isError: true, content: [{ type: "text", text: "The call was cancelled." }] }; render(); break;
      case "ui/resource-teardown": case "ping": if (isRequest) send({ id: message.id, result: {} }); break;
      default: if (isRequest) send({ id: message.id, error: { code: -32601, message: "Method not found" } });
    }
  });
  request("ui/initialize", {
    protocolVersion: "2026-01-26",
    appInfo: { name: "linkshort-statistics", version: "1.0.0" },
    appCapabilities: { availableDisplayModes: ["inline"] }
  }).then(function (result) {
    applyContext(result && result.hostContext);
    notify("ui/notifications/initialized", {});
    // Sizes only once initialized: nothing but ui/initialize goes before.
    new ResizeObserver(reportSize).observe(document.documentElement);
  }, function () {
    root.textContent = "";
    root.appendChild(element("p", "status", "The host did not start this view."));
  });
})();
`;

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

/** Nothing from elsewhere: no fetch, image, font or frame; only this page's own script and style sheet. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src ${sha256(SCRIPT)}`,
  `style-src ${sha256(STYLE)}`,
  // The server's chart, as an image from the answer itself: an SVG image runs no script and loads nothing.
  "img-src data:",
  "connect-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

export const STATISTICS_VIEW_HTML =
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">` +
  `<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">` +
  `<meta name="viewport" content="width=device-width, initial-scale=1"><title>Click statistics</title>` +
  `<style>${STYLE}</style></head><body><main id="view" aria-live="polite"><p class="status">Waiting for the statistics\u2026</p></main>` +
  `<script>${SCRIPT}</script></body></html>`;
