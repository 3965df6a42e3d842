import type { Store } from "../persistence/store";
import { linkDefaults, type LinkRecord } from "../model/link-record";
import { seededRandom } from "../seeded-random";
import { timestamp } from "../views/dates";
import { emptyStats } from "../visits/stats";

/** The most links a seed generates (a 100,000-link account is the size the tests and the bench use). */
export const MAX_SEEDED_LINKS = 1_000_000;

const WORDS = [
  "launch",
  "guide",
  "pricing",
  "webinar",
  "release",
  "roadmap",
  "report",
  "podcast",
  "newsletter",
  "workshop",
  "careers",
  "changelog",
  "tutorial",
  "survey",
  "summit",
  "offer",
];
const TOPICS = ["automation", "analytics", "onboarding", "security", "design", "marketing", "open source", "APIs", "mobile", "data"];
const SITES = ["https://example.com", "https://shop.example.org", "https://blog.example.net", "https://docs.example.io", "https://news.example.co.uk"];
const SEEDED_SPACING_MS = 7 * 60_000;

/**
 * Adds `count` links to a user: ids ascending with their dates (the newest has the highest id and
 * is `now` minus one spacing), with titles, descriptions and a few clicks, the same for every run.
 */
export function seedLinks(store: Store, userId: number, count: number, now: number): void {
  if (!Number.isInteger(count) || count < 0 || count > MAX_SEEDED_LINKS)
    throw new Error(`seed.links must be a whole number from 0 to ${MAX_SEEDED_LINKS} (found ${String(count)})`);
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
      ...linkDefaults(),
      id,
      userId,
      alias: `${word}-${id.toString(36)}`,
      domain: null,
      url: `${site}/${word}/${topic.replace(/ /g, "-").toLowerCase()}/${id}`,
      metatitle: `${word[0]!.toUpperCase()}${word.slice(1)} ${index + 1}: ${topic}`,
      metadescription: `The ${word} on ${topic}, number ${index + 1} of ${count}.`,
      date: timestamp(now - (count - index) * SEEDED_SPACING_MS),
      stats,
    });
  }
}
