import { generateApiKey, hashPassword } from "../credentials";
import type { UserRecord } from "../persistence/state";
import type { Store } from "../persistence/store";
import { linkDefaults } from "../model/link-record";
import { timestamp } from "../views/dates";
import { countMap, emptyStats } from "../visits/stats";
import { MAX_SEEDED_LINKS } from "./generated-links";
import { SEEDED_PLANS } from "./plans";

export type SeedName = "demo" | "minimal" | "none";

/** A seed with a large account: `links` generated links for the demo user, on top of `base` (default "minimal"). */
export interface BulkSeed {
  base?: SeedName;
  links: number;
}

export type SeedOption = SeedName | BulkSeed;

/** A seed as the CLI's `--seed` spells it: `demo`, `minimal`, `none`, or `links:N` / `demo+links:N`. */
export function parseSeed(text: string): SeedOption {
  if (text === "demo" || text === "minimal" || text === "none") return text;
  const bulk = /^(?:(demo|minimal)\+)?links:(\d{1,7})$/.exec(text);
  const links = Number(bulk?.[2]);
  if (!bulk || links > MAX_SEEDED_LINKS)
    throw new Error(`--seed: "${text.slice(0, 40)}" must be demo, minimal, none, or links:N / demo+links:N with N up to ${MAX_SEEDED_LINKS}`);
  return { base: (bulk[1] as SeedName | undefined) ?? "minimal", links };
}

function addUser(store: Store, username: string, admin: boolean, planId: number, now: number, apiKey?: string): UserRecord {
  const user: UserRecord = {
    id: store.nextId("users"),
    username,
    email: `${username}@example.com`,
    passwordHash: hashPassword(`${username}-password`),
    apiKey: apiKey ?? generateApiKey(),
    admin,
    planId,
    expires: null,
    registered: timestamp(now - 90 * 86_400_000),
    avatar: `https://www.gravatar.com/avatar/${username}`,
  };
  store.state.users.push(user);
  return user;
}

/** Fills a new store: always an admin and a normal user; with "demo", data to look at. */
export function seed(store: Store, name: SeedName, now: number, keys: { admin?: string; user?: string } = {}): void {
  store.state.plans = structuredClone(SEEDED_PLANS);
  addUser(store, "admin", true, 2, now, keys.admin);
  const user = addUser(store, "demo", false, 2, now, keys.user);
  store.reindex();
  if (name !== "demo") return;

  seedBranding(store, user, now);
  seedLinks(store, user, now);
  seedQrCodes(store, user, now);
}

const DAY_MS = 86_400_000;

/** Every user's splash pages and overlays; the demo user's domain and pixels. */
function seedBranding(store: Store, user: UserRecord, now: number): void {
  const owners = store.state.users;
  for (const owner of owners) {
    store.state.splash.push({ id: store.nextId("splash"), userId: owner.id, name: `${owner.username} promo splash`, date: timestamp(now - 30 * DAY_MS) });
    store.state.overlays.push({
      id: store.nextId("overlays"),
      userId: owner.id,
      type: "message",
      name: `${owner.username} newsletter`,
      date: timestamp(now - 29 * DAY_MS),
    });
    store.state.overlays.push({
      id: store.nextId("overlays"),
      userId: owner.id,
      type: "contact",
      name: `${owner.username} contact form`,
      date: timestamp(now - 28 * DAY_MS),
    });
  }
  store.state.domains.push({
    id: store.nextId("domains"),
    userId: user.id,
    domain: "https://go.demo.example",
    redirectroot: "https://demo.example",
    redirect404: "https://demo.example/404",
  });
  store.state.pixels.push({
    id: store.nextId("pixels"),
    userId: user.id,
    type: "gtmpixel",
    name: "Tag Manager",
    tag: "GTM-DEMO123",
    date: timestamp(now - 20 * DAY_MS),
  });
  store.state.pixels.push({
    id: store.nextId("pixels"),
    userId: user.id,
    type: "fbpixel",
    name: "Facebook",
    tag: "1234567890",
    date: timestamp(now - 19 * DAY_MS),
  });
}

/** The demo user's five links, each with its clicks spread over countries, browsers, systems and referrers. */
function seedLinks(store: Store, user: UserRecord, now: number): void {
  const countries = ["Canada", "United States", "Germany", "France", "Japan"];
  const browsers = ["Chrome", "Firefox", "Safari", "Edge"];
  const systems = ["Windows", "macOS", "iOS", "Android"];
  const referrers = ["Direct", "twitter.com", "facebook.com", "news.ycombinator.com"];
  const sites = [
    "https://n8n.io",
    "https://www.raycast.com",
    "https://developer.mozilla.org/en-US/docs/Web/HTTP",
    "https://nodejs.org/en/docs",
    "https://github.com/trending",
  ];
  sites.forEach((url, index) => {
    const stats = emptyStats();
    const clicks = [120, 42, 7, 0, 3][index] ?? 0;
    for (let click = 0; click < clicks; click += 1) {
      stats.clicks += 1;
      const visitor = `v${index}-${click % Math.max(1, Math.ceil(clicks * 0.7))}`;
      if (!stats.visitors.includes(visitor)) stats.visitors.push(visitor);
      const pick = (values: string[]) => values[click % values.length]!;
      stats.countries[pick(countries)] = (stats.countries[pick(countries)] ?? 0) + 1;
      stats.browsers[pick(browsers)] = (stats.browsers[pick(browsers)] ?? 0) + 1;
      stats.os[pick(systems)] = (stats.os[pick(systems)] ?? 0) + 1;
      const referrer = pick(referrers);
      stats.referrers[referrer] = (stats.referrers[referrer] ?? 0) + 1;
      if (referrer === "twitter.com") stats.social.twitter = (stats.social.twitter ?? 0) + 1;
      if (referrer === "facebook.com") stats.social.facebook = (stats.social.facebook ?? 0) + 1;
    }
    store.state.links.push({
      ...linkDefaults(),
      id: store.nextId("links"),
      userId: user.id,
      alias: ["n8n", "raycast", "mdn-http", "node-docs", "trending"][index]!,
      domain: null,
      url,
      geotarget: index === 0 ? [{ location: "Canada", link: "https://n8n.io/?from=ca" }] : [],
      devicetarget: index === 1 ? [{ device: "iPhone", link: "https://apps.apple.com" }] : [],
      parameters: index === 2 ? [{ name: "utm_source", value: "linkshort" }] : [],
      metatitle: new URL(url).hostname,
      date: timestamp(now - (10 - index) * DAY_MS),
      stats,
    });
  });
}

/** The demo user's two QR codes: a link with scans, and a Wi-Fi network. */
function seedQrCodes(store: Store, user: UserRecord, now: number): void {
  const qrStats = emptyStats();
  qrStats.clicks = 12;
  qrStats.visitors = ["q1", "q2", "q3", "q4", "q5"];
  qrStats.countries = countMap([
    ["Canada", 8],
    ["Germany", 4],
  ]);
  store.state.qrs.push({
    id: store.nextId("qrs"),
    userId: user.id,
    code: "a1b2c3",
    type: "link",
    data: "https://n8n.io",
    background: "rgb(255,255,255)",
    foreground: "rgb(0,0,0)",
    logo: null,
    name: "Menu",
    date: timestamp(now - 5 * DAY_MS),
    stats: qrStats,
  });
  store.state.qrs.push({
    id: store.nextId("qrs"),
    userId: user.id,
    code: "d4e5f6",
    type: "wifi",
    data: { ssid: "Cafe Guest", password: "espresso", encryption: "WPA" },
    background: "rgb(255,255,255)",
    foreground: "rgb(20,40,160)",
    logo: null,
    name: "Guest Wi-Fi",
    date: timestamp(now - 4 * DAY_MS),
    stats: emptyStats(),
  });
}
