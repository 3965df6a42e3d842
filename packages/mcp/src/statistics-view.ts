/**
 * The MCP App (extension `io.modelcontextprotocol/ui`) that get_link, get_qr_code and get_clicks_over_time show where the
 * client renders Apps: one self-contained HTML page, built once. It speaks the few messages of the
 * Apps protocol it needs itself (ui/initialize, ui/notifications/initialized, tool-result,
 * host-context-changed, size-changed, resource-teardown) rather than bundling the ext-apps SDK, whose
 * App class brings the MCP SDK and zod into the page.
 *
 * The statistics arrive only as the tool result the host forwards; the page loads nothing and calls
 * nothing (its own CSP says so, with the hashes of its one script and one style sheet). Every name
 * from the server is set as text, never as markup, cut to a bounded length, and read in time linear
 * in the number of names.
 */
import { createHash } from "node:crypto";

const STYLE = `
:root{color-scheme:light dark;--ls-bg:#ffffff;--ls-fg:#1f2328;--ls-muted:#59636e;--ls-track:#eef1f4;--ls-bar:#0969da;--ls-bar2:#54aeff;--ls-line:#d1d9e0}
@media (prefers-color-scheme:dark){:root:not([data-theme=light]){--ls-bg:#0d1117;--ls-fg:#e6edf3;--ls-muted:#9198a1;--ls-track:#21262d;--ls-bar:#4493f8;--ls-bar2:#1f6feb;--ls-line:#3d444d}}
:root[data-theme=dark]{color-scheme:dark;--ls-bg:#0d1117;--ls-fg:#e6edf3;--ls-muted:#9198a1;--ls-track:#21262d;--ls-bar:#4493f8;--ls-bar2:#1f6feb;--ls-line:#3d444d}
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
  var ROWS = 8, LABEL = 60, NAMES = 100000, MAX_COUNT = 1e15;
  var root = document.getElementById("view");
  var nextId = 1, pending = {}, lastSize = "", shown = null, mode = "count";
  var format = new Intl.NumberFormat("en-US");
  var SECTIONS = [["topCountries", "Top countries"], ["topReferrers", "Top referrers"], ["topBrowsers", "Top browsers"], ["topOs", "Top operating systems"]];

  function send(message) { message.jsonrpc = "2.0"; window.parent.postMessage(message, "*"); }
  function request(method, params) {
    var id = nextId++;
    send({ id: id, method: method, params: params });
    return new Promise(function (resolve, reject) { pending[id] = { resolve: resolve, reject: reject }; });
  }
  function notify(method, params) { send({ method: method, params: params }); }

  function count(value) {
    var number = NaN;
    if (typeof value === "number") number = value;
    else if (typeof value === "string" && value.length <= 32 && /^\\s*-?\\d+(\\.\\d+)?\\s*$/.test(value)) number = Number(value);
    if (!isFinite(number) || number <= 0) return 0;
    return Math.min(Math.round(number), MAX_COUNT);
  }
  function clean(value) {
    var text = String(value).slice(0, LABEL * 4).replace(/[\\u0000-\\u001f\\u007f-\\u009f\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2069\\ufeff]/g, "");
    var points = Array.from(text);
    text = points.length > LABEL ? points.slice(0, LABEL - 1).join("") + "\\u2026" : text;
    return text.trim() === "" ? "(none)" : text;
  }
  /** The biggest ROWS counts of a name-to-count map, looking at no more than NAMES names. */
  function top(map) {
    var rows = [];
    if (!map || typeof map !== "object" || Array.isArray(map)) return rows;
    var seen = 0;
    for (var name in map) {
      if (!Object.prototype.hasOwnProperty.call(map, name)) continue;
      if (++seen > NAMES) break;
      var value = count(map[name]);
      if (value === 0 || (rows.length === ROWS && value <= rows[ROWS - 1].count)) continue;
      var at = rows.length;
      while (at > 0 && rows[at - 1].count < value) at--;
      rows.splice(at, 0, { label: name, count: value });
      if (rows.length > ROWS) rows.pop();
    }
    return rows.map(function (row) { return { label: clean(row.label), count: row.count }; });
  }
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
  /** Clicks over time: the chart the client drew (SVG, as an image: it runs nothing, loads nothing) and what the history says. */
  function renderSeries(result, data) {
    var links = data.links.slice(0, 10), chart = result._meta && result._meta["linkshort/chart"], one = data.top !== true && links.length === 1;
    function name(link) { return clean(String(link.shorturl || "Link " + count(link.id)).replace(/^https?:\\/\\//, "")); }
    root.appendChild(element("h1", "title", one ? name(links[0]) : "Top links"));
    var totals = element("p", "totals"), sum = links.reduce(function (total, link) { return total + count(link.total); }, 0);
    totals.appendChild(element("b", "", format.format(sum)));
    totals.appendChild(document.createTextNode(" clicks \\u00b7 " + clean(data.timeZone)));
    root.appendChild(totals);
    if (chart && typeof chart.svg === "string" && chart.svg.length <= 2e6 && chart.svg.indexOf("<svg") === 0) {
      var image = element("img", "chart");
      image.alt = String(chart.description).slice(0, 2000);
      image.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(chart.svg);
      root.appendChild(image);
    }
    var list = element("ol");
    if (!one) links.forEach(function (link) { list.appendChild(row(name(link), count(link.total), count(links[0].total), sum, false)); });
    root.appendChild(list);
    (one ? [links[0].summary, data.summary] : [data.summary]).forEach(function (text) { root.appendChild(element("p", "status", String(text).slice(0, 1000))); });
  }
  function render() {
    var result = shown, data = result && result.structuredContent;
    root.textContent = "";
    if (result && !result.isError && data && typeof data === "object" && Array.isArray(data.links) && typeof data.summary === "string") {
      renderSeries(result, data);
      return;
    }
    if (!result || result.isError || !data || typeof data !== "object" || !data.stats || typeof data.stats !== "object") {
      var first = result && Array.isArray(result.content) && result.content[0];
      var message = first && typeof first.text === "string" ? first.text.slice(0, 500) : "No statistics in this answer.";
      root.appendChild(element("p", "status", message));
      return;
    }
    var details = data.details && typeof data.details === "object" ? data.details : {};
    var scans = data.image !== undefined || details.scans !== undefined;
    var unit = scans ? "scans" : "clicks";
    var title = details.shorturl || details.name || details.link || "Statistics";
    var stats = data.stats, clicks = count(stats.clicks), unique = count(stats.uniqueClicks), most = Math.max(clicks, unique);
    root.appendChild(element("h1", "title", clean(String(title).replace(/^https?:\\/\\//, ""))));
    var totals = element("p", "totals");
    totals.appendChild(element("b", "", format.format(clicks)));
    totals.appendChild(document.createTextNode(" " + unit + " \\u00b7 "));
    totals.appendChild(element("b", "", format.format(unique)));
    totals.appendChild(document.createTextNode(" unique"));
    root.appendChild(totals);
    var sections = SECTIONS.map(function (section) { return [section[1], top(stats[section[0]])]; }).filter(function (section) { return section[1].length > 0; });
    if (most === 0 && sections.length === 0) {
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
    sections.forEach(function (section) {
      var box = element("details");
      box.open = true;
      box.appendChild(element("summary", "", section[0]));
      var list = element("ol");
      var max = section[1][0].count;
      var sum = section[1].reduce(function (total, item) { return total + item.count; }, 0);
      section[1].forEach(function (item) { list.appendChild(row(item.label, item.count, max, Math.max(clicks, sum), false)); });
      box.appendChild(list);
      root.appendChild(box);
    });
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
