/**
 * A week of visits to the demo links, for `npm start` to replay through the sandbox (each visit a
 * real request at its moment on the sandbox's clock), so that the root page and every front end's
 * click history have something over time to show: weekday afternoons busier than nights and the
 * weekend, and one link taking off this morning.
 */
import { seededRandom } from "../seeded-random";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface ScheduledVisit {
  /** The demo link's alias. */
  alias: string;
  /** When, in epoch milliseconds. */
  at: number;
  country: string;
}

/** Visits an hour at each hour of a UTC day, at their peak: quiet at night, busiest in the afternoon. */
const DAILY_SHAPE = [0, 0, 0, 0, 0, 1, 1, 2, 3, 4, 4, 4, 3, 4, 5, 5, 4, 3, 3, 2, 2, 1, 1, 0];
const LINKS: Array<[alias: string, weight: number]> = [
  ["n8n", 1],
  ["raycast", 0.6],
  ["mdn-http", 0.3],
  ["trending", 0.15],
];
const COUNTRIES = ["Canada", "United States", "Germany", "France", "Japan"];

/** The visits of the 7 days before `end` (deterministic for a given `end`), oldest first. */
export function demoWeekVisits(end: number, seed = 45): ScheduledVisit[] {
  const random = seededRandom(seed);
  const visits: ScheduledVisit[] = [];
  const firstHour = end - 7 * DAY - ((end - 7 * DAY) % HOUR);
  for (let hour = firstHour; hour < end; hour += HOUR) {
    const date = new Date(hour);
    const weekend = date.getUTCDay() === 0 || date.getUTCDay() === 6 ? 0.4 : 1;
    // The last morning, "raycast" takes off: ten times its usual rate.
    const morning = end - hour < 12 * HOUR;
    for (const [alias, weight] of LINKS) {
      const boost = alias === "raycast" && morning ? 10 : 1;
      const expected = DAILY_SHAPE[date.getUTCHours()]! * weight * weekend * boost;
      const count = Math.floor(expected + random());
      for (let visit = 0; visit < count; visit += 1) {
        const at = hour + Math.floor(random() * HOUR);
        if (at < end) visits.push({ alias, at, country: COUNTRIES[Math.floor(random() * COUNTRIES.length)]! });
      }
    }
  }
  return visits.sort((a, b) => a.at - b.at);
}
