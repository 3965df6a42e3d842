/** The history samples what the client reads anyway: list pages and a link's details, never a request of its own. */
import { ClickHistory } from "../src/core";
import { linksPage, scripted } from "./helpers";

const details = (id: number, clicks: number, uniqueClicks: number) => ({
  json: {
    error: 0,
    details: {
      id,
      shorturl: `https://short.example/a${id}`,
      longurl: "https://example.com",
      title: "",
      description: "",
      location: {},
      device: {},
      expiry: null,
      date: "2026-11-01 10:00:00",
    },
    data: { clicks, uniqueClicks, topCountries: 0, topReferrers: 0, topBrowsers: 0, topOs: 0, socialCount: { facebook: 0, twitter: 0, google: 0 } },
  },
});

it("list pages and link details feed the history as they arrive, with no request of its own; a stopped observer takes no more", async () => {
  const { client, sent, clock } = scripted([
    linksPage([
      { id: 1, clicks: 4 },
      { id: 2, clicks: 0 },
    ]),
    details(1, 9, 5),
    linksPage([{ id: 1, clicks: 12 }]),
    linksPage([{ id: 1, clicks: 40 }]),
  ]);
  const history = new ClickHistory({ account: client.accountId, now: clock.now });
  const stop = history.observe(client);
  const start = clock.time;
  await client.links.list();
  clock.time += 30 * 60_000;
  await client.links.get(1);
  clock.time += 30 * 60_000;
  await client.links.list();
  expect(sent).toHaveLength(3);
  expect(history.size).toBe(2);
  const hour = history.series({ linkId: 1, start, end: start + 3_600_000, granularity: "hour", timeZone: "UTC" });
  expect(hour.buckets[0]).toMatchObject({ clicks: 8, quality: "exact", uniqueClicks: null });
  expect(history.series({ linkId: 1, start, end: start + 3_600_000 * 2, granularity: "hour", timeZone: "UTC" }).total).toBe(8);
  stop();
  clock.time += 30 * 60_000;
  await client.links.list();
  expect(history.recent({ linkId: 1, minutes: 30 })).toMatchObject({ clicks: null });
});

it("a client of another account cannot feed the history", () => {
  const { client } = scripted([]);
  expect(() => new ClickHistory({ account: "https://other.example 00" }).observe(client)).toThrow(/another account/);
});
