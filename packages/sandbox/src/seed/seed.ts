import { generateApiKey, hashPassword } from "../credentials";
import type { PlanRecord, UserRecord } from "../persistence/state";
import type { Store } from "../persistence/store";
import type { LinkRecord } from "../routes/link-record";
import { seededRandom } from "../seeded-random";
import { timestamp } from "../views/dates";
import { countMap, emptyStats } from "../visits/stats";

export type SeedName = "demo" | "minimal" | "none";

/** A seed with a large account: `links` generated links for the demo user, on top of `base` (default "minimal"). */
export interface BulkSeed {
  base?: SeedName;
  links: number;
}

export type SeedOption = SeedName | BulkSeed;

/** The most links a seed generates (a 100,000-link account is the size the tests and the bench use). */
export const MAX_SEEDED_LINKS = 1_000_000;

/** A seed as the CLI's `--seed` spells it: `demo`, `minimal`, `none`, or `links:N` / `demo+links:N`. */
export function parseSeed(text: string): SeedOption {
  if (text === "demo" || text === "minimal" || text === "none") return text;
  const bulk = /^(?:(demo|minimal)\+)?links:(\d{1,7})$/.exec(text);
  const links = Number(bulk?.[2]);
  if (!bulk || links > MAX_SEEDED_LINKS) throw new Error(`--seed: "${text.slice(0, 40)}" must be demo, minimal, none, or links:N / demo+links:N with N up to ${MAX_SEEDED_LINKS}`);
  return { base: (bulk[1] as SeedName | undefined) ?? "minimal", links };
}

const plans: PlanRecord[] = [
  {
    id: 1,
    name: "Free",
    free: true,
    prices: null,
    limits: {
      links: 100,
      clicks: 10000,
      retention: 30,
      custom: { enabled: "1" },
      multiple: { enabled: "0" },
      alias: { enabled: "1" },
      device: { enabled: "0" },
      geo: { enabled: "0" },
      bundle: { enabled: "0" },
      parameters: { enabled: "0" },
      export: { enabled: "0" },
      api: { enabled: "1" },
      team: { enabled: "0", count: "0" },
      splash: { enabled: "0", count: "0" },
      overlay: { enabled: "0", count: "0" },
      pixels: { enabled: "1", count: "2" },
      domain: { enabled: "0", count: "0" },
    },
  },
  {
    id: 2,
    name: "Pro",
    free: false,
    prices: { monthly: 9.99, yearly: 99, lifetime: 299 },
    limits: {
      links: 0,
      clicks: 0,
      retention: 365,
      custom: { enabled: "1" },
      multiple: { enabled: "1" },
      alias: { enabled: "1" },
      device: { enabled: "1" },
      geo: { enabled: "1" },
      bundle: { enabled: "1" },
      parameters: { enabled: "1" },
      export: { enabled: "1" },
      api: { enabled: "1" },
      team: { enabled: "1", count: "5" },
      splash: { enabled: "1", count: "10" },
      overlay: { enabled: "1", count: "10" },
      pixels: { enabled: "1", count: "20" },
      domain: { enabled: "1", count: "5" },
    },
  },
];

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
  store.state.plans = structuredClone(plans);
  addUser(store, "admin", true, 2, now, keys.admin);
  const user = addUser(store, "demo", false, 2, now, keys.user);
  store.reindex();
  if (name !== "demo") return;

  const day = 86_400_000;
  const owners = store.state.users;
  for (const owner of owners) {
    store.state.splash.push({ id: store.nextId("splash"), userId: owner.id, name: `${owner.username} promo splash`, date: timestamp(now - 30 * day) });
    store.state.overlays.push({ id: store.nextId("overlays"), userId: owner.id, type: "message", name: `${owner.username} newsletter`, date: timestamp(now - 29 * day) });
    store.state.overlays.push({ id: store.nextId("overlays"), userId: owner.id, type: "contact", name: `${owner.username} contact form`, date: timestamp(now - 28 * day) });
  }
  store.state.domains.push({ id: store.nextId("domains"), userId: user.id, domain: "https://go.demo.example", redirectroot: "https://demo.example", redirect404: "https://demo.example/404" });
  store.state.pixels.push({ id: store.nextId("pixels"), userId: user.id, type: "gtmpixel", name: "Tag Manager", tag: "GTM-DEMO123", date: timestamp(now - 20 * day) });
  store.state.pixels.push({ id: store.nextId("pixels"), userId: user.id, type: "fbpixel", name: "Facebook", tag: "1234567890", date: timestamp(now - 19 * day) });

  const countries = ["Canada", "United States", "Germany", "France", "Japan"];
  const browsers = ["Chrome", "Firefox", "Safari", "Edge"];
  const systems = ["Windows", "macOS", "iOS", "Android"];
  const referrers = ["Direct", "twitter.com", "facebook.com", "news.ycombinator.com"];
  const sites = ["https://n8n.io", "https://www.raycast.com", "https://developer.mozilla.org/en-US/docs/Web/HTTP", "https://nodejs.org/en/docs", "https://github.com/trending"];
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
      id: store.nextId("links"),
      userId: user.id,
      alias: ["n8n", "raycast", "mdn-http", "node-docs", "trending"][index]!,
      domain: null,
      url,
      type: "direct",
      password: null,
      expiry: null,
      geotarget: index === 0 ? [{ location: "Canada", link: "https://n8n.io/?from=ca" }] : [],
      devicetarget: index === 1 ? [{ device: "iPhone", link: "https://apps.apple.com" }] : [],
      parameters: index === 2 ? [{ name: "utm_source", value: "linkshort" }] : [],
      metatitle: new URL(url).hostname,
      metadescription: "",
      date: timestamp(now - (10 - index) * day),
      stats,
    });
  });
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
    date: timestamp(now - 5 * day),
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
    date: timestamp(now - 4 * day),
    stats: emptyStats(),
  });
}

const WORDS = ["launch", "guide", "pricing", "webinar", "release", "roadmap", "report", "podcast", "newsletter", "workshop", "careers", "changelog", "tutorial", "survey", "summit", "offer"];
const TOPICS = ["automation", "analytics", "onboarding", "security", "design", "marketing", "open source", "APIs", "mobile", "data"];
const SITES = ["https://example.com", "https://shop.example.org", "https://blog.example.net", "https://docs.example.io", "https://news.example.co.uk"];
const SEEDED_SPACING_MS = 7 * 60_000;

/**
 * Adds `count` links to a user: ids ascending with their dates (the newest has the highest id and
 * is `now` minus one spacing), with titles, descriptions and a few clicks, the same for every run.
 */
export function seedLinks(store: Store, userId: number, count: number, now: number): void {
  if (!Number.isInteger(count) || count < 0 || count > MAX_SEEDED_LINKS) throw new Error(`seed.links must be a whole number from 0 to ${MAX_SEEDED_LINKS} (found ${String(count)})`);
  const random = seededRandom(count);
  const links: LinkRecord[] = store.state.links;
  for (let index = 0; index < count; index += 1) {
    const id = store.nextId("links");
    const word = WORDS[index % WORDS.length]!;
    const topic = TOPICS[Math.floor(random() * TOPICS.length)]!;
    const site = SITES[index % SITES.length]!;
    const stats = emptyStats();
    const clicks = Math.floor(random() ** 3 * 50);
    stats.clicks = clicks;
    for (let visitor = 0; visitor < Math.min(clicks, 3); visitor += 1) stats.visitors.push(`seed-${id}-${visitor}`);
    if (clicks > 0) {
      stats.countries.Canada = clicks;
      stats.browsers.Chrome = clicks;
      stats.os.Windows = clicks;
      stats.referrers.Direct = clicks;
    }
    links.push({
      id,
      userId,
      alias: `${word}-${id.toString(36)}`,
      domain: null,
      url: `${site}/${word}/${topic.replace(/ /g, "-").toLowerCase()}/${id}`,
      type: "direct",
      password: null,
      expiry: null,
      geotarget: [],
      devicetarget: [],
      parameters: [],
      metatitle: `${word[0]!.toUpperCase()}${word.slice(1)} ${index + 1}: ${topic}`,
      metadescription: `The ${word} on ${topic}, number ${index + 1} of ${count}.`,
      date: timestamp(now - (count - index) * SEEDED_SPACING_MS),
      stats,
    });
  }
}
