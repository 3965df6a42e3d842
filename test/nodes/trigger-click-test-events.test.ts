/**
 * What a person meets of the click events before publishing a workflow (issue 52, item 6):
 * "Fetch Test Event" through n8n-core's PollContext in manual mode, and the editor's fields,
 * notices and hints as the built node describes them.
 */
import type { IDataObject, INodeProperties, INodePropertyOptions, INodeType } from 'n8n-workflow';
import { fillLinks } from '../../packages/client/test/fill-links';
import { ClockedTrigger, createLinks, requestsSince, visit } from './click-events';
import { poll } from './harness';
import { clock, credentials, sandbox, setClock, start } from './polled-trigger';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** A day start in UTC a week before the real clock: the test's own "now" runs from there. */
const dayStart = () => Math.floor(clock() / DAY) * DAY - 7 * DAY;

/** Fetch Test Event at the clock's time: the items, their binaries, the requests it sent and the static data it left. */
async function testEvent(parameters: IDataObject, zone = 'UTC') {
  const marker = sandbox.requests.at(-1);
  const { result, staticData } = await poll(credentials, parameters as never, {}, 'manual', undefined, zone);
  const output = result?.[0] ?? [];
  return { items: output.map((item) => item.json), binaries: output.map((item) => item.binary), requests: requestsSince(marker), staticData };
}

const byKind = (items: IDataObject[], kind: string) => items.filter((item) => item.kind === kind);

describe('Click Digest: Fetch Test Event', () => {
  it("is a digest of the period so far with every field and the chart a real digest has, from the account's links in one request, saying which values stand in", async () => {
    await start();
    const day = dayStart();
    setClock(day + 2 * HOUR);
    const [a, b] = await createLinks(3);
    const published = new ClockedTrigger({ event: 'clickDigest', digestPeriod: 'day', digestHour: 0 }, 'UTC');
    await published.pollAt(day + 2 * HOUR + 30 * MINUTE, []);
    await visit(a!.shorturl, 5, day + 3 * HOUR);
    await visit(b!.shorturl, 2, day + 3 * HOUR);
    const real = (await published.pollAt(day + DAY + 5 * MINUTE, [])).items;
    // The published trigger's digest of that day: the clicks it gained, named by its day and zone.
    expect(byKind(real, 'summary')[0]!.summary).toMatch(/^7 clicks on 2 links on \w{3} \d{1,2} \w{3} \(sampled from about .* to about .*, UTC time\)\.$/);

    await visit(a!.shorturl, 1, day + DAY + 2 * HOUR);
    setClock(day + DAY + 6 * HOUR);
    const sample = await testEvent({ event: 'clickDigest', digestPeriod: 'day', digestHour: 0 });
    expect(sample.requests).toBe(1);
    expect(sample.staticData ?? {}).toEqual({});
    // Each link's total to date stands in for the day's clicks; the items say so.
    expect(byKind(sample.items, 'link').map((item) => [item.id, item.clicks, item.previousClicks])).toEqual([
      [a!.id, 6, null],
      [b!.id, 2, null],
    ]);
    const summary = sample.items.at(-1)!;
    expect(summary).toMatchObject({ kind: 'summary', clicks: 8, links: 2, periodStart: new Date(day + DAY).toISOString(), timeZone: 'UTC' });
    expect(summary.summary).toMatch(/^Test event: 8 clicks on 2 links on \w{3} \d{1,2} \w{3} \(sampled from about .*, UTC time\)\.$/);
    for (const item of sample.items)
      expect(item.testEvent).toMatch(
        /^A test event, made from this account's links as they stand: each link's total clicks to date stands in for the clicks it gains on /,
      );
    expect(summary.resolution).toBe(
      "This account has 3 links; the trigger reads them in one request, so each link's clicks are sampled at every check: a digest's period starts and ends within one check of its bounds.",
    );
    // Every field of the real digest's items, and the chart on the summary.
    for (const kind of ['link', 'summary']) {
      const [realItem, sampleItem] = [byKind(real, kind)[0]!, byKind(sample.items, kind)[0]!];
      expect(
        Object.keys(sampleItem)
          .filter((key) => !(key in realItem))
          .sort(),
      ).toEqual(kind === 'link' ? ['testEvent'] : ['resolution', 'testEvent']);
      expect(Object.keys(realItem).filter((key) => !(key in sampleItem))).toEqual([]);
    }
    expect(sample.binaries.map((binary) => binary?.chart?.mimeType)).toEqual([undefined, undefined, 'image/png']);
    expect(summary.chartDescription).toMatch(/^Clicks from about .*: 8 clicks .* by hour/);
  });

  it.each([
    ['week', /^Test event: No link gained clicks in the week from Mon \d{1,2} \w{3} \(.*, America\/New_York time\)\.$/],
    ['month', /^Test event: No link gained clicks in [A-Z][a-z]+ \d{4} \(.*, America\/New_York time\)\.$/],
  ])("(a %s) on an account with no clicks yet: the summary with its chart, in the workflow's zone, the period named", async (digestPeriod, summary) => {
    await start();
    await createLinks(2);
    const sample = await testEvent({ event: 'clickDigest', digestPeriod }, 'America/New_York');
    expect(sample.items).toHaveLength(1);
    expect(sample.items[0]!.summary).toMatch(summary);
    expect(sample.binaries[0]?.chart?.mimeType).toBe('image/png');
  });

  it('says how many links the account has as the pages tell it (not pages times the page size), and how often each is sampled', async () => {
    await start({ maxPageSize: 10 });
    fillLinks(sandbox, 150);
    const links = sandbox.store.state.links.filter((link) => link.userId === 2).length;
    const pages = Math.ceil(links / 10);
    const sample = await testEvent({ event: 'clickDigest' });
    expect(sample.items.at(-1)!.resolution).toBe(
      `This account has between ${(pages - 1) * 10 + 1} and ${pages * 10} links; the trigger reads them in ${pages} requests, 11 a check, so each link's clicks are sampled every 2 checks: a digest's period starts and ends within 2 checks of its bounds.`,
    );
  });
});

describe('Link Reached Click Rate: Fetch Test Event', () => {
  it.each([
    [
      'all links',
      false,
      "This account has 2 links; the trigger reads them in one request, so each link's clicks are sampled at every check: choose Minutes that span at least 2 checks.",
    ],
    [
      'a chosen link',
      true,
      "You chose 1 link; the trigger reads each with one request, so each link's clicks are sampled at every check: choose Minutes that span at least 2 checks.",
    ],
  ])('(%s) is marked as an example made up from the settings, in one request', async (_what, chosen, resolution) => {
    await start();
    const [a] = await createLinks(2);
    await visit(a!.shorturl, 2, clock());
    const sample = await testEvent({ event: 'linkClickRate', rateClicks: 40, rateFactor: 3, ...(chosen ? { linkIds: [a!.id] } : {}) });
    expect(sample.requests).toBe(1);
    const [item] = sample.items;
    expect(item).toMatchObject({ id: a!.id, clicksInWindow: 40, factor: 3, usualClicksInWindow: 13.3, resolution });
    expect(item!.summary).toMatch(/^Example: http.* got 40 clicks in the last 60 minutes, 3 times its usual 13.3 -> /);
    expect(item!.testEvent).toMatch(
      /^An example on one of this account's links: clicksInWindow and usualClicksInWindow are made up from your settings, not measured\./,
    );
  });
});

describe('the click events in the editor', () => {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { LinkShortTrigger } = require('../../nodes/dist/nodes/LinkShortTrigger/LinkShortTrigger.node.js') as { LinkShortTrigger: new () => INodeType };
  const { description } = new LinkShortTrigger();
  const field = (name: string) => description.properties.find((property) => property.name === name)! as INodeProperties;

  it("the node creator's description names every click event, and the Event list keeps the click events together", () => {
    expect(description.description).toMatch(/click threshold or rate, a daily, weekly or monthly click digest/);
    const events = (field('event').options as INodePropertyOptions[]).map((option) => option.value);
    expect(events.slice(0, 4)).toEqual(['linkClickThreshold', 'newLinkClicks', 'linkClickRate', 'clickDigest']);
  });

  it('Times Its Usual Rate: 1 is the clicks alone, and the editor takes nothing below 1', () => {
    expect(field('rateFactor')).toMatchObject({ displayName: 'Times Its Usual Rate', default: 1, typeOptions: { minValue: 1 } });
    expect(field('rateFactor').description).toMatch(/^1: the clicks alone count\. 2 or more: /);
  });

  it('Hour names the time zone it is in, and where that zone is set', () => {
    expect(field('digestHour').displayName).toBe('Hour (Workflow Time Zone)');
    expect(field('digestHour').description).toMatch(/time zone in the workflow's settings \(Timezone\); set to Default, that is the n8n instance's zone/);
  });

  it("one hint for each click event, in plain words: how often links are looked at, what interval suits, and where this account's figures are", () => {
    const hints = description.hints ?? [];
    expect(hints.map((hint) => hint.displayCondition)).toEqual([
      '={{ $parameter["event"] === "clickDigest" }}',
      '={{ $parameter["event"] === "linkClickRate" }}',
    ]);
    expect(hints[0]!.message).toMatch(/every 10 minutes or every hour suits a digest, and checking every minute gains nothing/);
    expect(hints[1]!.message).toMatch(/Choose Minutes that span at least two checks: with a check every 5 minutes, 15 or more/);
    for (const hint of hints) {
      expect(hint.location).toBe('ndv');
      expect(hint.message).toMatch(/Fetch Test Event says how this account is read\.$/);
      expect(hint.message).not.toMatch(/pass|per 11,000/);
    }
  });
});
