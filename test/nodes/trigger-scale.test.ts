import { addLinks, fillLinks, fillQrCodes } from '../../packages/client/test/fill-links';
import { poll } from './harness';
import { client, clock, credentials, sandbox, start, Trigger } from './polled-trigger';

/**
 * The click, threshold and scan events on large accounts, each poll through n8n-core's
 * PollContext with its static data taken through JSON between polls: every poll sends a bounded
 * number of requests and never waits for the rate limit; a change anywhere is emitted within a
 * bounded number of polls, exactly once, while links are created, deleted and clicked.
 */
jest.setTimeout(120_000);

/** Requests one poll may send (the goal), and with three watched links. */
const MAX_REQUESTS_PER_POLL = 15;
const MAX_WATCHED_REQUESTS = 4;

const userLinks = () => sandbox.store.state.links.filter((link) => link.userId === 2);
const clickLink = (id: number, clicks: number) => {
  const link = sandbox.store.state.links.find((candidate) => candidate.id === id)!;
  sandbox.store.changingLink(link);
  link.stats.clicks += clicks;
};

describe.each([
  ['a server that gives large pages', undefined],
  ['a server that caps pages at 100', 100],
])('10,000 links on %s', (_name, maxPageSize) => {
  it('On Link Clicks (all links): every poll at most 15 requests; a click anywhere emitted once, within the bound', async () => {
    await start({ maxPageSize });
    fillLinks(sandbox, 10_000, (i) => 1 + (i % 50));
    const trigger = new Trigger({ event: 'newLinkClicks' });
    const baselinePolls = await trigger.readBaseline();
    expect(trigger.emitted).toEqual([]);
    // A full pass: one poll of 10 large pages, or 100 pages of 100 at 11 new pages a poll.
    expect(baselinePolls).toBe(maxPageSize ? 10 : 1);
    const links = userLinks();
    // Clicks on the newest, the oldest and one in the middle: each is emitted once, wherever the scan stands.
    for (const link of [links[0]!, links[4_999]!, links[links.length - 1]!]) clickLink(link.id, 3);
    const polls = await trigger.pollUntil(() => trigger.emitted.length >= 3);
    expect(polls).toBeLessThanOrEqual(baselinePolls + 1);
    for (let i = 0; i < baselinePolls + 1; i += 1) await trigger.poll();
    expect(trigger.emitted.map((item) => item.newClicks)).toEqual([3, 3, 3]);
    expect(Math.max(...trigger.requestsPerPoll)).toBeLessThanOrEqual(MAX_REQUESTS_PER_POLL);
  });

  it('On Link Reaching a Click Threshold with 5,000 links above it: every poll at most 15 requests; each crossing once', async () => {
    await start({ maxPageSize });
    fillLinks(sandbox, 10_000, (i) => (i % 2 === 0 ? 150 : 10));
    const trigger = new Trigger({ event: 'linkClickThreshold', threshold: 100 });
    const baselinePolls = await trigger.readBaseline();
    const below = userLinks().filter((link) => link.stats.clicks < 100);
    const crossing = [below[0]!, below[2_500]!, below[below.length - 1]!];
    for (const link of crossing) clickLink(link.id, 95);
    await trigger.pollUntil(() => trigger.emitted.length >= 3, baselinePolls + 2);
    for (let i = 0; i < baselinePolls + 1; i += 1) await trigger.poll();
    expect(trigger.emitted.map((item) => item.id).sort()).toEqual(crossing.map((link) => link.id).sort());
    expect(Math.max(...trigger.requestsPerPoll)).toBeLessThanOrEqual(MAX_REQUESTS_PER_POLL);
  });

  it.each([
    ['On Link Clicks', { event: 'newLinkClicks' }],
    ['On Link Reaching a Click Threshold', { event: 'linkClickThreshold', threshold: 100 }],
  ])('%s watching 3 Link IDs: one request per watched link', async (_event, parameters) => {
    await start({ maxPageSize });
    // Every link clicked, half of them past the threshold; the watched ones below it.
    fillLinks(sandbox, 10_000, (i) => (i % 2 === 0 ? 150 : 10));
    const watchedLinks = [userLinks()[11]!, userLinks()[5_001]!, userLinks()[9_991]!];
    const trigger = new Trigger({ ...parameters, linkIds: watchedLinks.map((link) => link.id).join(',') });
    await trigger.poll();
    clickLink(watchedLinks[1]!.id, 200);
    clickLink(userLinks()[20]!.id, 200);
    expect((await trigger.poll()).map((item) => item.id)).toEqual([watchedLinks[1]!.id]);
    expect(await trigger.poll()).toEqual([]);
    expect(Math.max(...trigger.requestsPerPoll)).toBeLessThanOrEqual(MAX_WATCHED_REQUESTS);
  });
});

it('On QR Code Scans at 3,000 QR codes on a server capping pages at 100: every poll at most 15 requests; a scan anywhere emitted once', async () => {
  await start({ maxPageSize: 100 });
  fillQrCodes(sandbox, 3_000, (i) => i % 7);
  const trigger = new Trigger({ event: 'newQrScans' });
  const baselinePolls = await trigger.readBaseline();
  expect(baselinePolls).toBe(3);
  const scanned = [sandbox.store.state.qrs[5]!, sandbox.store.state.qrs[1_500]!, sandbox.store.state.qrs[2_990]!];
  for (const qr of scanned) qr.stats.clicks += 2;
  await trigger.pollUntil(() => trigger.emitted.length >= 3, baselinePolls + 1);
  for (let i = 0; i < baselinePolls + 1; i += 1) await trigger.poll();
  expect(trigger.emitted.map((item) => item.id).sort()).toEqual(scanned.map((qr) => qr.id).sort());
  expect(trigger.emitted.every((item) => item.newScans === 2)).toBe(true);
  expect(Math.max(...trigger.requestsPerPoll)).toBeLessThanOrEqual(MAX_REQUESTS_PER_POLL);
});

it('links created, deleted and clicked while a pass runs over many polls: no click counted twice, none lost', async () => {
  await start({ maxPageSize: 100 });
  fillLinks(sandbox, 3_000, (i) => i % 5);
  const trigger = new Trigger({ event: 'newLinkClicks' });
  await trigger.readBaseline();
  const baseline = new Map(userLinks().map((link) => [link.id, link.stats.clicks]));
  let round = 0;
  let created = 0;
  // Ten polls of changes: clicks all over the account, a few links created and more than a page deleted between two polls.
  for (; round < 10; round += 1) {
    const links = userLinks();
    for (let i = 0; i < 40; i += 1) clickLink(links[(round * 977 + i * 131) % links.length]!.id, 1 + (i % 3));
    for (let i = 0; i < 3; i += 1) {
      const { id } = await client.links.create({ url: `https://example.com/during/${(created += 1)}` });
      baseline.set(id, 0);
      clickLink(id, 2);
    }
    const doomed = links.slice(200 + round * 150, 200 + round * 150 + (round === 4 ? 130 : 5));
    for (const link of doomed) await client.links.delete(link.id);
    await trigger.poll();
  }
  // Then quiet: two passes read every link again.
  for (let i = 0; i < 8; i += 1) await trigger.poll();
  const emittedClicks = new Map<number, number>();
  for (const item of trigger.emitted) emittedClicks.set(item.id as number, (emittedClicks.get(item.id as number) ?? 0) + (item.newClicks as number));
  const survivors = userLinks();
  const missed = survivors.filter((link) => (emittedClicks.get(link.id) ?? 0) !== link.stats.clicks - (baseline.get(link.id) ?? 0));
  expect(missed.map((link) => ({ id: link.id, emitted: emittedClicks.get(link.id) ?? 0, grew: link.stats.clicks - baseline.get(link.id)! }))).toEqual([]);
  // Deleted links' growth before deletion may or may not have been seen; never more than they grew.
  const survivorIds = new Set(survivors.map((link) => link.id));
  for (const [id, clicks] of emittedClicks) if (!survivorIds.has(id)) expect(clicks).toBeGreaterThan(0);
  expect(Math.max(...trigger.requestsPerPoll)).toBeLessThanOrEqual(MAX_REQUESTS_PER_POLL);
});

it('a spent rate limit is never waited out inside a poll: the scan stops, keeps its place, and goes on next poll', async () => {
  await start({ maxPageSize: 100, rateLimit: { limit: 5, windowMs: 60_000 } });
  fillLinks(sandbox, 2_000, (i) => i % 4);
  const trigger = new Trigger({ event: 'newLinkClicks' });
  // Each poll gets at most the 5 requests of its window (a poll a minute); the pass of 20 pages goes on from where it stopped.
  const baselinePolls = await trigger.readBaseline();
  expect(baselinePolls).toBeLessThanOrEqual(6);
  expect(Math.max(...trigger.requestsPerPoll)).toBeLessThanOrEqual(5);
  const oldest = userLinks()[userLinks().length - 1]!;
  clickLink(oldest.id, 1);
  await trigger.pollUntil(() => trigger.emitted.length > 0, baselinePolls + 1);
  expect(trigger.emitted).toEqual([expect.objectContaining({ id: oldest.id, newClicks: 1 })]);
});

it('a poll past the budget n8n gives it (the durable scheduler abandons it) commits nothing; the next poll emits each change once', async () => {
  await start();
  fillLinks(sandbox, 500, (i) => i % 3);
  const trigger = new Trigger({ event: 'linkClickThreshold', threshold: 5 });
  await trigger.readBaseline();
  const [crossing] = userLinks();
  clickLink(crossing!.id, 10);
  const state = JSON.stringify(trigger.staticData);
  // n8n says the poll may take 1 ms: it is over before it returns, so n8n may have handed its place to another poll.
  expect(await trigger.poll(1)).toEqual([]);
  expect(JSON.stringify(trigger.staticData)).toBe(state);
  // The same place read again (the scheduler's retry): emitted once, and never again.
  expect((await trigger.poll()).map((item) => item.id)).toEqual([crossing!.id]);
  expect(await trigger.poll()).toEqual([]);
  expect(trigger.emitted).toHaveLength(1);
});

it('Fetch Test Event on a large account reads one page and says how long a pass takes', async () => {
  await start({ maxPageSize: 100 });
  fillLinks(sandbox, 10_000, (i) => 1 + (i % 50));
  const before = sandbox.requests.length;
  const { result } = await poll(credentials, { event: 'newLinkClicks' }, {}, 'manual');
  expect(sandbox.requests.length - before).toBe(1);
  expect(result?.[0]?.[0]?.json).toMatchObject({
    scanNotice: expect.stringMatching(/^Between 9,901 and 10,000 links: the trigger reads them in 100 requests over 10 checks\./),
  });
});

it('New Link: the first poll of an account with thousands of links created in its last hour reads that hour in large pages, and then each new link once', async () => {
  await start();
  // One link a second up to now (newer than the demo links): the newest hour holds 3,600 links, all read by the first (deep) read.
  addLinks(sandbox, 10_000, { from: clock() - 10_000_000, perSecond: 1, name: 'fill' });
  const trigger = new Trigger({ event: 'newLink' });
  await trigger.poll();
  expect(trigger.requestsPerPoll[0]).toBeLessThanOrEqual(MAX_REQUESTS_PER_POLL);
  const created = [];
  for (let i = 0; i < 3; i += 1) created.push((await client.links.create({ url: `https://example.com/after/${i}` })).id);
  await trigger.poll();
  await trigger.poll();
  expect(trigger.emitted.map((item) => item.id)).toEqual(created);
  expect(Math.max(...trigger.requestsPerPoll)).toBeLessThanOrEqual(MAX_REQUESTS_PER_POLL);
});

describe("equal dates listed in a fresh order on every request (the sandbox's dateTies: unstable, as MySQL does)", () => {
  /** `count` links made 30 a second, so that page boundaries fall inside runs of equal dates. */
  function fillInBursts(count: number, clicksOf: (index: number) => number) {
    fillLinks(sandbox, count, clicksOf);
    const start = Date.UTC(2026, 0, 1);
    userLinks().forEach((link, index) => {
      link.date = new Date(start + Math.floor(index / 30) * 1000).toISOString().slice(0, 19).replace('T', ' ');
    });
  }

  it('On Link Reaching a Click Threshold: each crossing emitted once, no link emitted again, over several passes', async () => {
    await start({ maxPageSize: 100 });
    sandbox.dateTies = 'unstable';
    fillInBursts(3_000, (i) => (i % 2 === 0 ? 150 : 10));
    const trigger = new Trigger({ event: 'linkClickThreshold', threshold: 100 });
    const baselinePolls = await trigger.readBaseline();
    const below = userLinks().filter((link) => link.stats.clicks < 100);
    const crossing = [below[3]!, below[700]!, below[1_400]!];
    for (const link of crossing) clickLink(link.id, 95);
    for (let i = 0; i < 4 * (baselinePolls + 1); i += 1) await trigger.poll();
    expect(trigger.emitted.map((item) => item.id).sort()).toEqual(crossing.map((link) => link.id).sort());
  });

  it('On Link Clicks: each click counted once over several passes', async () => {
    await start({ maxPageSize: 100 });
    sandbox.dateTies = 'unstable';
    fillInBursts(3_000, (i) => 1 + (i % 7));
    const trigger = new Trigger({ event: 'newLinkClicks' });
    const baselinePolls = await trigger.readBaseline();
    const clicked = [userLinks()[10]!, userLinks()[1_500]!, userLinks()[2_990]!];
    for (const link of clicked) clickLink(link.id, 2);
    for (let i = 0; i < 4 * (baselinePolls + 1); i += 1) await trigger.poll();
    expect(trigger.emitted.map((item) => [item.id, item.newClicks]).sort()).toEqual(clicked.map((link) => [link.id, 2]).sort());
  });
});
