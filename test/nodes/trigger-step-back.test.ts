import type { IDataObject } from 'n8n-workflow';
import { addLinks } from '../../packages/client/test/fill-links';
import { clock, sandbox, setClock, start, Trigger } from './polled-trigger';

/**
 * New Link after the server's clock stepped back by more than the hour a deep read looks below the
 * top (a time zone setting changed: the API's dates are local time without an offset; an NTP
 * correction; a restored VM). Ids only grow: every new link is emitted once, within a bounded number
 * of polls, each at most the node's 12 requests. Every date derives from the host's clock.
 */
jest.setTimeout(120_000);

const MAX_REQUESTS_PER_POLL = 12;
const HOUR = 3_600_000;
const ids = (items: IDataObject[]) => items.map((item) => item.id as number);

describe.each([
  ['5 hours', 5 * HOUR],
  ['3 days', 72 * HOUR],
])('a server clock stepped back by %s, pages capped at 100', (_name, step) => {
  it.each([
    ['2,000 old links made one a second up to now', 2_000],
    ['200 old links', 200],
  ])('%s, then 250 new links: each emitted once within bounded polls, at most 12 requests a poll', async (_account, old) => {
    await start({ maxPageSize: 100 });
    addLinks(sandbox, old, { from: clock() - old * 1_000, perSecond: 1, name: 'old' });
    const trigger = new Trigger({ event: 'newLink' });
    await trigger.pollUntilRead();
    await trigger.poll();
    expect(trigger.emitted).toEqual([]);
    setClock(clock() - step);
    // 250 new links made 5 a second on the stepped-back clock (2.5 pages of 100).
    const made = addLinks(sandbox, 250, { from: clock(), perSecond: 5, name: 'stepped' });
    const polled = trigger.requestsPerPoll.length;
    const polls = await trigger.pollUntil(() => trigger.emitted.length >= made.length, 30);
    for (let i = 0; i < 3; i += 1) await trigger.poll();
    expect(ids(trigger.emitted)).toEqual(made);
    // Bounded: a read of the whole account (one descent, then the climb back up a poll at a time).
    expect(polls).toBeLessThanOrEqual(2 * Math.ceil((old + 300) / 100 / (MAX_REQUESTS_PER_POLL - 1)) + 2);
    expect(Math.max(...trigger.requestsPerPoll.slice(polled))).toBeLessThanOrEqual(MAX_REQUESTS_PER_POLL);
    // Quiet again: one request a poll.
    expect(trigger.requestsPerPoll.at(-1)).toBe(1);
  });
});

it('after a step back of 5 hours was found, a few links made later on the stepped clock (no page more, below a full first page) are emitted once within the hour, quiet polls one request', async () => {
  await start({ maxPageSize: 100 });
  addLinks(sandbox, 300, { from: clock() - 300_000, perSecond: 1, name: 'old' });
  const trigger = new Trigger({ event: 'newLink' });
  await trigger.pollUntilRead();
  setClock(clock() - 5 * HOUR);
  const made = addLinks(sandbox, 250, { from: clock(), perSecond: 5, name: 'stepped' });
  await trigger.pollUntil(() => trigger.emitted.length >= made.length, 30);
  await trigger.pollUntilRead();
  const polled = trigger.requestsPerPoll.length;
  const later = addLinks(sandbox, 3, { from: clock(), perSecond: 1, name: 'later' });
  const polls = await trigger.pollUntil(() => trigger.emitted.length >= made.length + later.length, 70);
  for (let i = 0; i < 3; i += 1) await trigger.poll();
  expect(ids(trigger.emitted)).toEqual([...made, ...later]);
  // The hourly deep read looks below where the clock was found, not below the top.
  expect(polls).toBeLessThanOrEqual(61);
  // One poll reads down to where the clock was found and emits them (not an hour's read, then the whole account).
  expect(trigger.requestsPerPoll.slice(polled).filter((sent) => sent > 1)).toHaveLength(1);
  expect(Math.max(...trigger.requestsPerPoll.slice(polled))).toBeLessThanOrEqual(MAX_REQUESTS_PER_POLL);
  expect(trigger.requestsPerPoll.slice(polled, polled + 10).every((sent) => sent === 1)).toBe(true);
});
