/**
 * The MCP App (extension `io.modelcontextprotocol/ui`) that get_link and get_qr_code show where the
 * client renders Apps: one self-contained HTML page, built once. Its script is the TypeScript of
 * browser/ (app.ts: the page in render.ts, the Apps protocol in host.ts), bundled at build
 * time (script.ts); its style sheet is here.
 *
 * The page reads nothing itself: it renders the `ViewData` (contract.ts) that the tool computed with
 * the client's readers (its order of a top list, its section titles, its labels) and put in the result's
 * `_meta`, which the host forwards; its colours are the client's chart palette. It loads nothing and
 * calls nothing (its own CSP says so, with the hashes of its one script and one style sheet), and sets
 * every text as text, never as markup.
 */
import { CHART_PALETTES } from "@linkshort/client/charts";
import { createHash } from "node:crypto";
import { STATISTICS_VIEW_SCRIPT } from "./script";

export { VIEW_CHART_META_KEY } from "./contract";

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

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

/** Nothing from elsewhere: no fetch, image, font or frame; only this page's own script and style sheet. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src ${sha256(STATISTICS_VIEW_SCRIPT)}`,
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
  `<script>${STATISTICS_VIEW_SCRIPT}</script></body></html>`;
