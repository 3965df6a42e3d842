import type { PlanRecord, QrRecord, UserRecord } from "../persistence/state";
import { uniqueVisitors, type Stats } from "../visits/stats";
import { qrUrl } from "../views/addresses";
import type { Mode } from "../views/mode";

export type { Mode } from "../views/mode";

/** The answer shapes of accounts, users, statistics, QR codes and plans (a link's are in `model/link-record.ts`). */

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
