import type { LinkRecord, PlanRecord, QrRecord, Stats, UserRecord } from "./state";
import { uniqueVisitors } from "./visits";

/** "deployed" answers as real servers do (docs/deployed-servers.md); "document" exactly as docs/api.md describes. */
export type Mode = "deployed" | "document";

export function timestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace("T", " ");
}

export function parseTimestamp(value: string): number {
  return Date.parse(`${value.length === 10 ? `${value} 00:00:00` : value}Z`.replace(" ", "T"));
}

export function shortUrl(link: Pick<LinkRecord, "domain" | "alias">, baseUrl: string): string {
  return `${link.domain ?? baseUrl}/${link.alias}`;
}

/** A QR code's tracked link: scanning it counts a scan (`/qr/{code}`). */
export function qrUrl(qr: Pick<QrRecord, "code">, baseUrl: string): string {
  return `${baseUrl}/qr/${qr.code}`;
}

export function accountView(user: UserRecord, plans: PlanRecord[]) {
  const plan = plans.find((candidate) => candidate.id === user.planId);
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    avatar: user.avatar,
    status: plan && !plan.free ? "pro" : "free",
    expires: user.expires,
    registered: user.registered,
  };
}

export function userView(user: UserRecord, plans: PlanRecord[]) {
  return { ...accountView(user, plans), planid: user.planId, apikey: user.apiKey };
}

export function linkListView(link: LinkRecord, baseUrl: string, mode: Mode) {
  return {
    id: link.id,
    alias: link.alias,
    shorturl: shortUrl(link, baseUrl),
    longurl: link.url,
    clicks: mode === "deployed" ? String(link.stats.clicks) : link.stats.clicks,
    title: link.metatitle,
    description: link.metadescription,
    date: link.date,
  };
}

function targetMap(entries: Array<[string, string]>, mode: Mode) {
  if (entries.length === 0) return mode === "deployed" ? [] : {};
  return Object.fromEntries(entries.map(([name, link]) => [name.toLowerCase(), link]));
}

export function linkDetailsView(link: LinkRecord, baseUrl: string, mode: Mode) {
  return {
    id: link.id,
    shorturl: shortUrl(link, baseUrl),
    longurl: link.url,
    title: link.metatitle,
    description: link.metadescription,
    location: targetMap(link.geotarget.map((target) => [target.location, target.link]), mode),
    device: targetMap(link.devicetarget.map((target) => [target.device, target.link]), mode),
    expiry: link.expiry,
    date: link.date,
  };
}

const TOP = 10;

function topMap(counts: Record<string, number>, asStrings: boolean) {
  const entries = Object.entries(counts)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, TOP);
  if (entries.length === 0) return 0;
  return Object.fromEntries(entries.map(([name, count]) => [name, asStrings ? String(count) : count]));
}

/** Statistics of a link or QR code; maps are `0` when empty, counts strings where servers send them so. */
export function statsView(stats: Stats, mode: Mode, kind: "link" | "qr") {
  const asStrings = mode === "deployed" || kind === "qr";
  const socialKeys = kind === "link" ? ["facebook", "twitter", "google"] : ["facebook", "twitter", "instagram"];
  return {
    clicks: stats.clicks,
    uniqueClicks: uniqueVisitors(stats),
    topCountries: topMap(stats.countries, asStrings),
    topReferrers: topMap(stats.referrers, asStrings),
    topBrowsers: topMap(stats.browsers, asStrings),
    topOs: topMap(stats.os, asStrings),
    socialCount: Object.fromEntries(socialKeys.map((key) => [key, asStrings ? String(stats.social[key] ?? 0) : (stats.social[key] ?? 0)])),
  };
}

export function qrView(qr: QrRecord, baseUrl: string, mode: Mode) {
  return {
    id: qr.id,
    link: qrUrl(qr, baseUrl),
    scans: mode === "deployed" ? String(qr.stats.clicks) : qr.stats.clicks,
    name: qr.name,
    date: qr.date,
  };
}

export function planView(plan: PlanRecord) {
  return { id: plan.id, name: plan.name, free: plan.free, prices: plan.prices, limits: plan.limits };
}
