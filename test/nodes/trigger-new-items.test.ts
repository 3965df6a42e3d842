import type { IDataObject } from 'n8n-workflow';
import { addLinks, addQrCodes } from '../../packages/client/test/fill-links';
import { client, clock, sandbox, start, Trigger } from './polled-trigger';

/**
 * New Link and New QR Code when more is new than one poll reads (a burst of thousands, a deep
 * read on a server that caps its pages at 100): each poll through n8n-core's PollContext, its
 * static data through JSON between polls. Every poll sends at most the node's 12 requests; the
 * read goes on over polls and emits every new item once, the oldest first, while items are
 * created and deleted, the rate limit is spent, or n8n abandons a poll.
 */
jest.setTimeout(120_000);

const MAX_REQUESTS_PER_POLL = 12;

const ids = (items: IDataObject[]) => items.map((item) => item.id as number);

/** Links made `perSecond` a second from `from` (links made in bursts share a second), straight in the store. */
const addBurst = (count: number, from: number, perSecond = 30) => addLinks(sandbox, count, { from, perSecond, name: 'burst', title: (i) => `Burst ${i}` });

/** QR codes made `perSecond` a second from `from`, straight in the store. */
const addQrBurst = (count: number, from: number, perSecond = 30) =>
  addQrCodes(sandbox, count, { from, perSecond, name: 'qr-burst', title: (i) => `QR burst ${i}` });

const HOUR = 3_600_000;
/**
 * Old links made one a second up to an hour ago, newer than the sandbox's demo links (days old); a
 * burst (`burstFrom`) ends now and is newer than everything. Every date derives from the host's clock.
 */
/** Where a burst of `count` made `perSecond` a second starts, for it to end now. */
const burstFrom = (count: number, perSecond = 30) => clock() - Math.ceil(count / perSecond) * 1_000;
const fill = (count: number) => addLinks(sandbox, count, { from: clock() - HOUR - count * 1_000, perSecond: 1, name: 'fill' });

describe.each([
  ['a server that caps pages at 100', 100],
  ['a server that gives large pages', undefined],
])('New Link on %s', (_name, maxPageSize) => {
  it('a burst of 3,000 new links is emitted completely, once and oldest first, at most 12 requests a poll', async () => {
    await start({ maxPageSize });
    // 2,000 links in the last hour: on a capped server the baseline's deep read alone is 20 pages.
    fill(2_000);
    const trigger = new Trigger({ event: 'newLink' });
    await trigger.pollUntilRead();
    expect(trigger.emitted).toEqual([]);
    const burst = addBurst(3_000, burstFrom(3_000));
    const polls = await trigger.pollUntilRead();
    // Emitted in the order they were made, each once.
    expect(ids(trigger.emitted)).toEqual(burst);
    // Capped at 100: about 30 pages to find the bottom (3 polls), then a poll's worth climbed and emitted at a time (10 polls here).
    if (maxPageSize) expect(polls).toBeLessThanOrEqual(12);
    else expect(polls).toBe(1);
    for (let i = 0; i < 3; i += 1) expect(await trigger.poll()).toEqual([]);
    expect(Math.max(...trigger.requestsPerPoll)).toBeLessThanOrEqual(MAX_REQUESTS_PER_POLL);
    // A quiet poll reads one page.
    expect(trigger.requestsPerPoll.at(-1)).toBe(1);
  });
});

it('links created and deleted (more than a page at once) while a burst is read over several polls: each surviving new link once, no old link', async () => {
  await start({ maxPageSize: 100 });
  fill(500);
  const trigger = new Trigger({ event: 'newLink' });
  await trigger.pollUntilRead();
  const burst = addBurst(2_500, burstFrom(2_500));
  const made = [...burst];
  const deleted = new Set<number>();
  for (let round = 0; round < 6; round += 1) {
    await trigger.poll();
    for (let i = 0; i < 3; i += 1) made.push((await client.links.create({ url: `https://example.com/during/${round}/${i}` })).id);
    const alive = sandbox.store.linksOf(2).map((link) => link.id);
    // Between two polls: 150 links deleted at once (new ones emitted or not, and old ones), otherwise a few.
    const doomed = alive.filter((_id, index) => index % (round === 2 ? 15 : 400) === 7);
    for (const id of doomed) {
      await client.links.delete(id);
      deleted.add(id);
    }
  }
  await trigger.pollUntilRead();
  await trigger.poll();
  const emitted = ids(trigger.emitted);
  expect(new Set(emitted).size).toBe(emitted.length);
  const madeSet = new Set(made);
  expect(emitted.filter((id) => !madeSet.has(id))).toEqual([]);
  expect(made.filter((id) => !deleted.has(id) && !emitted.includes(id))).toEqual([]);
  expect(Math.max(...trigger.requestsPerPoll)).toBeLessThanOrEqual(MAX_REQUESTS_PER_POLL);
});

it('a spent rate limit mid-read is never waited out: the read keeps its place and goes on, each new link once and oldest first', async () => {
  // Five requests a minute, a poll a minute: a burst of 1,000 on a server capping pages at 100 takes several polls.
  await start({ maxPageSize: 100, rateLimit: { limit: 5, windowMs: 60_000 } });
  fill(300);
  const trigger = new Trigger({ event: 'newLink' });
  await trigger.pollUntilRead();
  const burst = addBurst(1_000, burstFrom(1_000));
  await trigger.pollUntilRead();
  expect(ids(trigger.emitted)).toEqual(burst);
  expect(Math.max(...trigger.requestsPerPoll)).toBeLessThanOrEqual(5);
});

it('a page ending in a run of one second that fills it but for its first item is followed by a whole page, not one item: with two requests a minute, 150 links of one second under a newer one are read in a poll or two', async () => {
  await start({ maxPageSize: 100, rateLimit: { limit: 2, windowMs: 60_000 } });
  fill(300);
  const trigger = new Trigger({ event: 'newLink' });
  await trigger.pollUntilRead();
  const polled = trigger.requestsPerPoll.length;
  const after = clock() - 2_000;
  const made = [...addBurst(150, after, 150), ...addBurst(1, after + 1_000)];
  await trigger.pollUntilRead(40);
  expect(ids(trigger.emitted)).toEqual(made);
  expect(trigger.requestsPerPoll.length - polled).toBeLessThanOrEqual(2);
  expect(Math.max(...trigger.requestsPerPoll)).toBeLessThanOrEqual(2);
});

it('a poll past the budget n8n gives it, mid-read, keeps nothing and emits nothing; the read goes on from where the last kept poll left it', async () => {
  await start({ maxPageSize: 100 });
  fill(200);
  const trigger = new Trigger({ event: 'newLink' });
  await trigger.pollUntilRead();
  const burst = addBurst(2_000, burstFrom(2_000));
  await trigger.poll();
  const state = JSON.stringify(trigger.staticData);
  expect(await trigger.poll(1)).toEqual([]);
  expect(JSON.stringify(trigger.staticData)).toBe(state);
  await trigger.pollUntilRead();
  expect(ids(trigger.emitted)).toEqual(burst);
  expect(Math.max(...trigger.requestsPerPoll)).toBeLessThanOrEqual(MAX_REQUESTS_PER_POLL);
});

it("a slow answer late in a poll ends at the poll's deadline: the poll keeps what it read instead of running past its budget and dropping it", async () => {
  await start({ maxPageSize: 100 });
  fill(200);
  const trigger = new Trigger({ event: 'newLink' });
  await trigger.pollUntilRead();
  const burst = addBurst(2_000, burstFrom(2_000));
  // The poll's third list request is answered after 8 s, past its budget of 4 s (the client's own timeout is 30 s).
  let lists = 0;
  sandbox.onApiRequest = ({ path }) => {
    if (path === '/api/urls' && (lists += 1) === 3) sandbox.faults.set([{ kind: 'delay', delayMs: 8_000, times: 1 }]);
  };
  const before = JSON.stringify(trigger.staticData);
  expect(await trigger.poll(4_000)).toEqual([]);
  sandbox.onApiRequest = undefined;
  sandbox.faults.clear();
  // The pages it read are kept: the read goes on from below the top (down from where it stopped, or up from the floor it found).
  expect(JSON.stringify(trigger.staticData)).not.toBe(before);
  const reading = trigger.reading as { offset: number; from?: number | null } | null;
  expect(Math.max(reading?.offset ?? 0, reading?.from ?? 0)).toBeGreaterThan(0);
  await trigger.pollUntilRead();
  expect(ids(trigger.emitted)).toEqual(burst);
});

it('New QR Code: a burst of 1,500 QR codes on a server capping pages at 100 is emitted once, oldest first, at most 12 requests a poll', async () => {
  await start({ maxPageSize: 100 });
  addQrBurst(400, clock() - 3 * HOUR);
  const trigger = new Trigger({ event: 'newQrCode' });
  await trigger.pollUntilRead();
  const burst = addQrBurst(1_500, burstFrom(1_500));
  await trigger.pollUntilRead();
  expect(ids(trigger.emitted)).toEqual(burst);
  expect(Math.max(...trigger.requestsPerPoll)).toBeLessThanOrEqual(MAX_REQUESTS_PER_POLL);
});

/**
 * Deployed servers sort by a date in seconds and give equal dates in no fixed order (MySQL's
 * ORDER BY date LIMIT/OFFSET): a page boundary inside a run of links made in the same second can
 * show one link on both pages and another on neither. The sandbox's `dateTies: 'unstable'` does that.
 */
describe('equal dates listed in a fresh order on every request (dateTies: unstable)', () => {
  it.each([
    ['a server that caps pages at 100', 100],
    ['a server that gives large pages', undefined],
  ])('New Link on %s: a burst made 30 a second is emitted completely and once', async (_name, maxPageSize) => {
    await start({ maxPageSize });
    sandbox.dateTies = 'unstable';
    addBurst(600, clock() - 3 * HOUR, 30);
    const trigger = new Trigger({ event: 'newLink' });
    await trigger.pollUntilRead();
    const burst = addBurst(3_000, burstFrom(3_000), 30);
    await trigger.pollUntilRead();
    for (let i = 0; i < 3; i += 1) await trigger.poll();
    // Each once, none missed, and in the order they were made.
    expect(ids(trigger.emitted)).toEqual(burst);
    expect(Math.max(...trigger.requestsPerPoll)).toBeLessThanOrEqual(MAX_REQUESTS_PER_POLL);
  });

  it('New QR Code on a server that caps pages at 100: a burst made 30 a second is emitted completely, once and in order', async () => {
    await start({ maxPageSize: 100 });
    sandbox.dateTies = 'unstable';
    addQrBurst(300, clock() - 3 * HOUR, 30);
    const trigger = new Trigger({ event: 'newQrCode' });
    await trigger.pollUntilRead();
    const burst = addQrBurst(2_000, burstFrom(2_000), 30);
    await trigger.pollUntilRead();
    for (let i = 0; i < 3; i += 1) await trigger.poll();
    expect(ids(trigger.emitted)).toEqual(burst);
    expect(Math.max(...trigger.requestsPerPoll)).toBeLessThanOrEqual(MAX_REQUESTS_PER_POLL);
  });

  it('New Link: links made in the second the last poll saw are each emitted once', async () => {
    await start({ maxPageSize: 100 });
    sandbox.dateTies = 'unstable';
    addBurst(500, clock() - 3 * HOUR, 30);
    const trigger = new Trigger({ event: 'newLink' });
    await trigger.pollUntilRead();
    const made: number[] = [];
    // Each round: 150 links in one second, then 150 more in that same second after the poll saw it.
    for (let round = 0; round < 4; round += 1) {
      const second = Math.floor(clock() / 1_000) * 1_000;
      made.push(...addBurst(150, second, 150));
      await trigger.poll();
      made.push(...addBurst(150, second, 150));
      await trigger.poll();
    }
    await trigger.pollUntilRead();
    for (let i = 0; i < 3; i += 1) await trigger.poll();
    const emitted = ids(trigger.emitted);
    expect(new Set(emitted).size).toBe(emitted.length);
    expect(made.filter((id) => !emitted.includes(id))).toEqual([]);
  });
});
