import type { IDataObject } from 'n8n-workflow';
import { addLinks, addQrCodes } from '../../packages/client/test/fill-links';
import { clock, sandbox, start, Trigger } from './polled-trigger';

/**
 * New Link after a bulk import, through n8n-core's PollContext: a burst of 2,503 links made 30 a
 * second after a poll that failed, and 2,000 links made within one second. Every link is emitted
 * once, in at most ceil(links / page size) + 2 requests, plus one page read again for each poll a
 * read goes on in (the goal of issue 43).
 */
jest.setTimeout(120_000);

const ids = (items: IDataObject[]) => items.map((item) => item.id as number);
const HOUR = 3_600_000;
/** 500 old links made one a second up to an hour ago (newer than the sandbox's demo links); every date derives from the host's clock. */
const fill = () => addLinks(sandbox, 500, { from: clock() - HOUR - 500_000, perSecond: 1, name: 'fill' });
/** `count` links made `perSecond` a second, ending now. */
const addBulk = (count: number, perSecond: number) =>
  addLinks(sandbox, count, { from: clock() - Math.ceil(count / perSecond) * 1_000, perSecond, name: 'bulk' });

/** The trigger after its baseline of 500 links, then `count` links made `perSecond` a second; a poll fails once first when `failFirst`. */
async function readBulk(count: number, perSecond: number, failFirst: boolean) {
  fill();
  const trigger = new Trigger({ event: 'newLink' });
  await trigger.pollUntilRead();
  const polled = trigger.requestsPerPoll.length;
  const made = addBulk(count, perSecond);
  if (failFirst) {
    sandbox.faults.set([{ kind: '5xx', route: '^GET /api/urls', times: 3 }]);
    await expect(trigger.poll()).rejects.toThrow();
    sandbox.faults.clear();
  }
  const polls = await trigger.pollUntilRead();
  const requests = trigger.requestsPerPoll.slice(polled).reduce((sum, sent) => sum + sent, 0);
  return { trigger, made, polls, requests };
}

describe.each([
  ['links of a burst listed in id order', 'by-id'],
  ['links of one second listed in a fresh order on every request', 'unstable'],
] as const)('on a server giving pages of 1,000, %s', (_name, ties) => {
  it('2,503 new links after a failed poll: each emitted once, oldest first, in at most ceil(2,503 / 1,000) + 2 requests', async () => {
    await start();
    sandbox.dateTies = ties;
    const { trigger, made, polls, requests } = await readBulk(2_503, 30, true);
    expect(ids(trigger.emitted)).toEqual(made);
    expect(polls).toBe(1);
    expect(requests).toBeLessThanOrEqual(Math.ceil(2_503 / 1_000) + 2);
  });
});

it('2,000 links made within one second on a server giving pages of 1,000: each emitted once, in at most ceil(2,000 / 1,000) + 2 requests', async () => {
  await start();
  const { trigger, made, polls, requests } = await readBulk(2_000, 2_000, false);
  expect(ids(trigger.emitted)).toEqual(made);
  expect(polls).toBe(1);
  expect(requests).toBeLessThanOrEqual(Math.ceil(2_000 / 1_000) + 2);
});

describe.each([
  ['listed in id order', 'by-id'],
  ['listed in a fresh order on every request', 'unstable'],
] as const)('2,000 links made within one second on a server capping pages at 100, %s', (_name, ties) => {
  it('are each emitted once (a run of 20 pages is longer than a poll reads: it is read over polls)', async () => {
    await start({ maxPageSize: 100 });
    sandbox.dateTies = ties;
    const { trigger, made } = await readBulk(2_000, 2_000, false);
    const emitted = ids(trigger.emitted);
    expect(new Set(emitted).size).toBe(emitted.length);
    expect([...emitted].sort((a, b) => a - b)).toEqual(made);
    expect(Math.max(...trigger.requestsPerPoll)).toBeLessThanOrEqual(12);
    // Later links, and quiet polls, as usual.
    for (let i = 0; i < 2; i += 1) expect(await trigger.poll()).toEqual([]);
    expect(trigger.requestsPerPoll.at(-1)).toBe(1);
  });
});

it('New QR Code: 2,000 QR codes made within one second on a server capping pages at 100 are each emitted once', async () => {
  await start({ maxPageSize: 100 });
  addQrCodes(sandbox, 300, { from: clock() - 3 * HOUR, perSecond: 1, name: 'qr-bulk' });
  const trigger = new Trigger({ event: 'newQrCode' });
  await trigger.pollUntilRead();
  const now = clock();
  const made = addQrCodes(sandbox, 2_000, { from: now, perSecond: 2_000, name: 'qr-bulk' });
  await trigger.pollUntilRead();
  const emitted = ids(trigger.emitted);
  expect(new Set(emitted).size).toBe(emitted.length);
  expect([...emitted].sort((a, b) => a - b)).toEqual(made);
  expect(Math.max(...trigger.requestsPerPoll)).toBeLessThanOrEqual(12);
});

it('2,000 links made within one second on a server capping pages at 100, listed in id order: each emitted once, in at most ceil(2,000 / 100) + 2 requests plus one a poll the read goes on in', async () => {
  await start({ maxPageSize: 100 });
  const { trigger, made, polls, requests } = await readBulk(2_000, 2_000, false);
  expect([...ids(trigger.emitted)].sort((a, b) => a - b)).toEqual(made);
  expect(new Set(ids(trigger.emitted)).size).toBe(2_000);
  expect(requests).toBeLessThanOrEqual(Math.ceil(2_000 / 100) + 2 + (polls - 1));
  // The second was counted whole: a quiet poll after it is one request.
  expect(await trigger.poll()).toEqual([]);
  expect(trigger.requestsPerPoll.at(-1)).toBe(1);
});

it('2,000 links made within one second, listed in a fresh order on every request, some deleted after each poll once emitted: every surviving link is emitted once (ids seen before a deletion do not count toward the run)', async () => {
  await start({ maxPageSize: 100 });
  sandbox.dateTies = 'unstable';
  fill();
  const trigger = new Trigger({ event: 'newLink' });
  await trigger.pollUntilRead();
  const made = addBulk(2_000, 2_000);
  const deleted = new Set<number>();
  for (let polls = 1; polls <= 40; polls += 1) {
    const items = await trigger.poll();
    // Links of the run the trigger saw go away before the next poll: the run has fewer places than ids seen.
    for (const id of ids(items).slice(0, 60)) {
      sandbox.store.removeLink(sandbox.store.linkById(id)!);
      deleted.add(id);
    }
    if (trigger.reading === null) break;
  }
  expect(trigger.reading).toBeNull();
  const emitted = ids(trigger.emitted);
  expect(new Set(emitted).size).toBe(emitted.length);
  expect(made.filter((id) => !deleted.has(id) && !emitted.includes(id))).toEqual([]);
});

describe.each([
  ['listed in id order', 'by-id'],
  ['listed in a fresh order on every request', 'unstable'],
] as const)('on a server capping pages at 100, links of one second %s', (_name, ties) => {
  it('2,503 new links after a failed poll: each emitted once, oldest first, each page read about once (the read starts at its floor, found from the page counts, and goes up)', async () => {
    await start({ maxPageSize: 100 });
    sandbox.dateTies = ties;
    const { trigger, made, polls, requests } = await readBulk(2_503, 30, true);
    expect(ids(trigger.emitted)).toEqual(made);
    // Not down to the floor first and back up again (twice its pages, over twice the polls).
    expect(requests).toBeLessThan(2 * Math.ceil(2_503 / 100));
    expect(polls).toBeLessThanOrEqual(Math.ceil(Math.ceil(2_503 / 100) / 12) + 1);
    expect(Math.max(...trigger.requestsPerPoll)).toBeLessThanOrEqual(12);
  });
});
