import type { IDataObject } from 'n8n-workflow';
import { addLinks, addQrCodes } from '../../packages/client/test/fill-links';
import { client, clock, sandbox, setClock, start, Trigger } from './polled-trigger';

/**
 * New Link after the server's clock stepped back further than the hour a deep read looks below the
 * top, then fewer than a page of new links: the list's page count does not grow and nothing new
 * shows on the first page, so only the list's count (once an hour, and at once when the host's
 * clock went back too) shows them. Every date derives from the host's clock.
 */
jest.setTimeout(300_000);

const MAX_REQUESTS_PER_POLL = 12;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const OLD = 250;
const ids = (items: IDataObject[]) => items.map((item) => item.id as number);
/** The hour until the count, then a read of the whole account (down, then back up a poll's worth at a time). */
const boundAfterCount = (links: number) => 2 * Math.ceil((links + 100) / 100 / (MAX_REQUESTS_PER_POLL - 1)) + 2;

/** A trigger at rest on 250 old links (or QR codes), one every 2 minutes up to now (more than the hour a deep read looks), on a server capping pages at 100. */
async function quietTrigger(event: 'newLink' | 'newQrCode' = 'newLink') {
  // The requests of every poll stay in the log (by default, only those of the last hour on the sandbox's clock).
  await start({ maxPageSize: 100, requestLog: { maxAgeMs: 400 * 24 * HOUR } });
  const add = event === 'newLink' ? addLinks : addQrCodes;
  for (let i = 0; i < OLD; i += 1) add(sandbox, 1, { from: clock() - (OLD - i) * 2 * MINUTE, perSecond: 1, name: 'old' });
  const trigger = new Trigger({ event });
  await trigger.pollUntilRead();
  await trigger.poll();
  expect(trigger.emitted).toEqual([]);
  return trigger;
}

async function expectEmittedOnce(trigger: Trigger, made: number[], most: number) {
  const polled = trigger.requestsPerPoll.length;
  const polls = await trigger.pollUntil(() => trigger.emitted.length >= made.length, most + 5);
  await trigger.pollUntilRead();
  for (let i = 0; i < 3; i += 1) await trigger.poll();
  expect(ids(trigger.emitted)).toEqual(made);
  expect(polls).toBeLessThanOrEqual(most);
  expect(Math.max(...trigger.requestsPerPoll.slice(polled))).toBeLessThanOrEqual(MAX_REQUESTS_PER_POLL);
  // Quiet again: one request a poll.
  expect(trigger.requestsPerPoll.slice(-3)).toEqual([1, 1, 1]);
}

describe.each([
  ['5 hours', 5 * HOUR],
  ['3 days', 72 * HOUR],
])('a server clock stepped back by %s, then fewer than a page of new links, pages capped at 100', (_name, step) => {
  it.each([1, 3])('%i new: with the host clock stepped back too, each emitted once within the read of the whole account', async (count) => {
    const trigger = await quietTrigger();
    setClock(clock() - step);
    const made = addLinks(sandbox, count, { from: clock(), perSecond: 1, name: 'stepped' });
    await expectEmittedOnce(trigger, made, boundAfterCount(OLD + count));
  });

  it.each([1, 3])(
    '%i new: on the server alone (the host clock runs on), each emitted once within the hour and the read of the whole account',
    async (count) => {
      const trigger = await quietTrigger();
      const made = addLinks(sandbox, count, { from: clock() - step, perSecond: 1, name: 'stepped' });
      await expectEmittedOnce(trigger, made, 60 + boundAfterCount(OLD + count));
    },
  );
});

it('New QR Code: 3 QR codes after a step back of 5 hours on the server alone are emitted once within the hour and the read', async () => {
  const trigger = await quietTrigger('newQrCode');
  const made = addQrCodes(sandbox, 3, { from: clock() - 5 * HOUR, perSecond: 1, name: 'stepped' });
  await expectEmittedOnce(trigger, made, 60 + boundAfterCount(OLD + 3));
});

describe('deletions around the count, after a step back of 5 hours on the server alone', () => {
  it('old links deleted in the same hour as fewer new ones are created: the count still rose, and each new one is emitted once', async () => {
    const trigger = await quietTrigger();
    const made = addLinks(sandbox, 3, { from: clock() - 5 * HOUR, perSecond: 1, name: 'stepped' });
    const old = ids((await client.links.list({ order: 'date', limit: 100, page: 2 })).items as unknown as IDataObject[]);
    for (const id of old.slice(0, 2)) await client.links.delete(id);
    await expectEmittedOnce(trigger, made, 60 + boundAfterCount(OLD + 3));
  });

  it('a new link deleted before it was found is not emitted, the others once', async () => {
    const trigger = await quietTrigger();
    const made = addLinks(sandbox, 3, { from: clock() - 5 * HOUR, perSecond: 1, name: 'stepped' });
    await client.links.delete(made[1]!);
    await expectEmittedOnce(trigger, [made[0]!, made[2]!], 60 + boundAfterCount(OLD + 3));
  });

  it('deletions that lowered the count an hour before do not hide links made after it', async () => {
    const trigger = await quietTrigger();
    const old = ids((await client.links.list({ order: 'date', limit: 100, page: 2 })).items as unknown as IDataObject[]);
    for (const id of old.slice(0, 5)) await client.links.delete(id);
    for (let i = 0; i < 61; i += 1) await trigger.poll();
    expect(trigger.emitted).toEqual([]);
    const made = addLinks(sandbox, 3, { from: clock() - 5 * HOUR, perSecond: 1, name: 'stepped' });
    await expectEmittedOnce(trigger, made, 60 + boundAfterCount(OLD + 3));
  });

  it('links deleted while the read of the whole account is under way: each surviving new link once, none of the deleted', async () => {
    const trigger = await quietTrigger();
    setClock(clock() - 5 * HOUR);
    const made = addLinks(sandbox, 3, { from: clock(), perSecond: 1, name: 'stepped' });
    await trigger.poll();
    expect(trigger.reading).not.toBeNull();
    const page = ids((await client.links.list({ order: 'date', limit: 100, page: 1 })).items as unknown as IDataObject[]);
    for (const id of page.slice(0, 3)) await client.links.delete(id);
    await client.links.delete(made[0]!);
    await expectEmittedOnce(trigger, made.slice(1), boundAfterCount(OLD + 3));
  });
});

describe('a link hidden below what a deep read already passed, after a step back of 5 hours on the server alone', () => {
  /** The hidden link, then a link at the top (the clock put right) that the hourly deep read passes without seeing the hidden one; 4 hours of polls. */
  async function hiddenBelowDeepRead(forget: (state: IDataObject) => void = () => {}) {
    const trigger = await quietTrigger();
    const [hidden] = addLinks(sandbox, 1, { from: clock() - 5 * HOUR, perSecond: 1, name: 'stepped' });
    await trigger.poll();
    const [top] = addLinks(sandbox, 1, { from: clock(), perSecond: 1, name: 'top' });
    await trigger.poll();
    forget(trigger.staticData.state as IDataObject);
    const polled = trigger.requestsPerPoll.length;
    for (let i = 0; i < 4 * 60; i += 1) await trigger.poll();
    const requests = trigger.requestsPerPoll.slice(polled);
    expect(Math.max(...requests)).toBeLessThanOrEqual(MAX_REQUESTS_PER_POLL);
    // One read of the whole account (3 pages of 100), then none: the count starts again from what it saw.
    expect(requests.filter((sent) => sent > 2).length).toBeLessThanOrEqual(boundAfterCount(OLD + 2));
    expect(requests.slice(-3 * 60).filter((sent) => sent > 2)).toEqual([]);
    // In the last hour: quiet polls of one request, but for the hour's count and deep read.
    expect(requests.slice(-60).filter((sent) => sent > 1).length).toBeLessThanOrEqual(2);
    return { emitted: ids(trigger.emitted), hidden: hidden!, top: top! };
  }

  it('the read of the whole account the count starts emits it once, and the trigger is then quiet again: no read of the whole account after it', async () => {
    const { emitted, hidden, top } = await hiddenBelowDeepRead();
    expect(emitted).toEqual([top, hidden]);
  });

  it('with a count kept before its floor was recorded: not emitted, but one read of the whole account, then quiet again', async () => {
    const { emitted, top } = await hiddenBelowDeepRead((state) => delete (state.tally as IDataObject).floorId);
    expect(emitted).toEqual([top]);
  });
});
