/**
 * The sandbox's root page for a browser: the demo account's links and QR codes with their clicks,
 * QR images and bar charts, so that a newcomer sees what the demo's round trip did. The bars are
 * plain HTML drawn here from the sandbox's own records (the week's columns from the visits' times) (not the client's chart): the sandbox stays
 * an independent check of the client. No script runs on the page.
 */
import type { ServerResponse } from "node:http";
import { newestFirst, type QrRecord } from "../persistence/state";
import type { Store } from "../persistence/store";
import type { LinkRecord } from "../model/link-record";
import { qrUrl, shortUrl } from "../views/addresses";
import { uniqueVisitors, type Stats } from "../visits/stats";
import { escapeHtml } from "./html";
import { SERIES_STYLE, visitSeries } from "./visit-series";

/** Cards per kind: a sandbox seeded with 100,000 links still answers a small page. */
const MAX_CARDS = 50;
const TOP = 5;
const MAX_LABEL = 60;

const cut = (value: string) => (value.length > MAX_LABEL ? `${value.slice(0, MAX_LABEL - 1)}…` : value);
const number = (value: number) => value.toLocaleString("en-US");

function top(counts: Record<string, number>): Array<[string, number]> {
  return Object.entries(counts)
    .filter(([, count]) => count > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, TOP);
}

/** Rows of labelled bars, each as long as its share of `total`. */
function bars(rows: Array<[string, number]>, total: number, kind = ""): string {
  return rows
    .map(([label, count]) => {
      const percent = total > 0 ? Math.max(1, Math.round((count / total) * 100)) : 0;
      return `<tr><th scope="row" title="${escapeHtml(cut(label))}">${escapeHtml(cut(label) || "(none)")}</th><td class="track"><span class="bar${kind}" style="width:${percent}%"></span></td><td class="count">${number(count)}</td></tr>`;
    })
    .join("");
}

function chart(stats: Stats, unit: "clicks" | "scans"): string {
  const unique = uniqueVisitors(stats);
  if (stats.clicks === 0) return `<p class="empty">No ${unit} yet</p>`;
  const scale = Math.max(stats.clicks, unique);
  const summary = bars([[unit === "scans" ? "All scans" : "All clicks", stats.clicks]], scale) + bars([[`Unique ${unit}`, unique]], scale, " unique");
  const sections = (
    [
      ["Top countries", stats.countries],
      ["Top referrers", stats.referrers],
      ["Top browsers", stats.browsers],
      ["Top OS", stats.os],
    ] as const
  )
    .map(([title, counts]) => {
      const rows = top(counts);
      const body = rows.length > 0 ? bars(rows, scale) : `<tr><td colspan="3" class="none">none recorded</td></tr>`;
      return `<tbody><tr><td colspan="3" class="section">${title}</td></tr>${body}</tbody>`;
    })
    .join("");
  return `<table class="chart"><tbody>${summary}</tbody>${sections}</table>`;
}

function linkCard(link: LinkRecord, baseUrl: string, now: number): string {
  const url = shortUrl(link, baseUrl);
  return `<article class="card" id="link-${link.id}"><h3><a href="${escapeHtml(url)}">${escapeHtml(url.replace(/^https?:\/\//, ""))}</a></h3><p class="long">${escapeHtml(cut(link.url))}</p>${visitSeries(link.stats.times, now, "clicks", link.stats.clicks)}${chart(link.stats, "clicks")}</article>`;
}

function qrCard(qr: QrRecord, baseUrl: string): string {
  const url = qrUrl(qr, baseUrl);
  return `<article class="card" id="qr-${qr.id}"><div class="qr"><img src="/qr/${escapeHtml(qr.code)}.png" width="112" height="112" alt="QR code ${escapeHtml(cut(qr.name))}"><div><h3>${escapeHtml(cut(qr.name) || "QR code")}</h3><p class="long"><a href="${escapeHtml(url)}">${escapeHtml(url.replace(/^https?:\/\//, ""))}</a></p></div></div>${chart(qr.stats, "scans")}</article>`;
}

const STYLE = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#59636e;--card:#f6f8fa;--line:#d1d9e0;--bar:#0969da;--unique:#54aeff;--track:#e6eaef}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--card:#161b22;--line:#3d444d;--bar:#4493f8;--unique:#1f6feb;--track:#262c36}}
body{margin:0;padding:24px;background:var(--bg);color:var(--fg);font:14px/1.4 system-ui,sans-serif}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 12px}h3{font-size:15px;margin:0;overflow-wrap:anywhere}
a{color:var(--bar)}.lead,.long,.none,.section,.empty{color:var(--muted)}.long{margin:2px 0 10px;overflow-wrap:anywhere}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(340px,1fr));gap:16px}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:14px;min-width:0}
.qr{display:flex;gap:12px;align-items:center;margin-bottom:8px}.qr img{background:#fff;border-radius:4px;flex:none}
.chart{width:100%;border-collapse:collapse;table-layout:fixed}
.chart th{width:46%;text-align:left;font-weight:normal;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;padding:2px 8px 2px 0}
.chart .count{width:4.5em;text-align:right;font-variant-numeric:tabular-nums;padding-left:8px}
.chart .track span{display:block;height:12px;background:var(--bar);border-radius:2px}.chart .track span.unique{background:var(--unique)}
.chart .track{background:linear-gradient(var(--track),var(--track)) center/100% 12px no-repeat}
.chart .section{padding-top:10px;font-size:13px}.empty{padding:16px;text-align:center;border:1px dashed var(--line);border-radius:6px;margin:0}
${SERIES_STYLE}`;

/** The page for the sandbox's demo account (the first one that is not an administrator). */
export function overviewPage(response: ServerResponse, store: Store, baseUrl: string, now: number): void {
  const user = store.state.users.find((candidate) => !candidate.admin);
  const links = user ? store.state.links.filter((link) => link.userId === user.id) : [];
  const qrs = user ? store.state.qrs.filter((qr) => qr.userId === user.id) : [];
  const shown = (count: number, total: number, noun: string) =>
    total > count ? `the ${count} newest of ${number(total)} ${noun}` : `${number(total)} ${noun}`;
  const linkCards = [...links].sort(newestFirst).slice(0, MAX_CARDS);
  const qrCards = [...qrs].sort(newestFirst).slice(0, MAX_CARDS);
  const body = [
    `<h1>linkshort sandbox</h1>`,
    `<p class="lead">Account <strong>${escapeHtml(user?.username ?? "none")}</strong>: its links and QR codes as the sandbox holds them, with all their clicks since each was made, and each link's clicks per day over the last week (of those, the ones the sandbox kept a time for). Reload after a click to see it counted.</p>`,
    `<h2>Links <span class="lead">(${shown(linkCards.length, links.length, links.length === 1 ? "link" : "links")})</span></h2>`,
    linkCards.length > 0
      ? `<section class="cards">${linkCards.map((link) => linkCard(link, baseUrl, now)).join("")}</section>`
      : `<p class="empty">No links yet</p>`,
    `<h2>QR codes <span class="lead">(${shown(qrCards.length, qrs.length, qrs.length === 1 ? "QR code" : "QR codes")})</span></h2>`,
    qrCards.length > 0 ? `<section class="cards">${qrCards.map((qr) => qrCard(qr, baseUrl)).join("")}</section>` : `<p class="empty">No QR codes yet</p>`,
  ].join("");
  response.writeHead(200, {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'",
    "Cache-Control": "no-store",
  });
  response.end(
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>linkshort sandbox</title><link rel="icon" href="data:,"><style>${STYLE}</style></head><body>${body}</body></html>`,
  );
}
