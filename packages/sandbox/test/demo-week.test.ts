/** `npm start`'s week of demo visits, replayed on the sandbox's clock, as the root page draws it. */
import { demoWeekVisits, startSandbox, visitsBetween } from "../src";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Thursday 12 November 2026, 09:20 UTC. */
const END = Date.UTC(2026, 10, 12, 9, 20);

it("gives the same week for the same end: visits of the demo links within the 7 days before it, oldest first, one link taking off this morning", () => {
  const week = demoWeekVisits(END);
  expect(demoWeekVisits(END)).toEqual(week);
  expect(week.length).toBeGreaterThan(300);
  expect(week.every((visit, index) => visit.at >= END - 7 * DAY && visit.at < END && (index === 0 || visit.at >= week[index - 1]!.at))).toBe(true);
  expect(new Set(week.map((visit) => visit.alias))).toEqual(new Set(["n8n", "raycast", "mdn-http", "trending"]));
  const raycast = (from: number, to: number) => week.filter((visit) => visit.alias === "raycast" && visit.at >= from && visit.at < to).length;
  // The last 12 hours against the same hours a day earlier.
  expect(raycast(END - 12 * HOUR, END)).toBeGreaterThan(5 * raycast(END - DAY - 12 * HOUR, END - DAY));
});

it("replayed through the sandbox in seconds, each visit keeps its time, and the root page shows each link's days as the visits of those days", async () => {
  let replaying: number | undefined;
  const sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowMs: 60_000 }, now: () => replaying ?? END });
  try {
    const week = demoWeekVisits(END);
    for (const visit of week) {
      replaying = visit.at;
      await (await fetch(`${sandbox.baseUrl}/${visit.alias}`, { redirect: "manual", headers: { "CF-IPCountry": visit.country } })).text();
    }
    replaying = undefined;
    const page = await (await fetch(`${sandbox.baseUrl}/`, { headers: { accept: "text/html" } })).text();
    for (const alias of ["n8n", "raycast", "mdn-http", "trending"]) {
      const link = sandbox.store.state.links.find((candidate) => candidate.alias === alias)!;
      const card = page.slice(page.indexOf(`id="link-${link.id}"`), page.indexOf("</article>", page.indexOf(`id="link-${link.id}"`)));
      const shown = [...card.matchAll(/data-day="([\d-]+)" data-count="(\d+)"/g)].map(([, day, count]) => [day, Number(count)]);
      const today = END - (END % DAY);
      const expected = Array.from({ length: 7 }, (_, index) => today - (6 - index) * DAY).map((start) => [
        new Date(start).toISOString().slice(0, 10),
        week.filter((visit) => visit.alias === alias && visit.at >= start && visit.at < start + DAY).length,
      ]);
      expect(shown).toEqual(expected);
      expect(visitsBetween(link.stats.times, END - 7 * DAY, END)).toBe(week.filter((visit) => visit.alias === alias).length);
    }
  } finally {
    await sandbox.close();
  }
});
