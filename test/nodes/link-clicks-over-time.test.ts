import type { IDataObject } from 'n8n-workflow';
import { request } from 'undici';
import { executeNode } from './harness';
import { client, credentials, sandbox, setClock, start, weekdayAfterNow } from './polled-trigger';

const DAY = 86_400_000;
/** A Wednesday at 10:00 UTC after the real clock. */
const WEDNESDAY = weekdayAfterNow(3, 10);

async function visit(shorturl: string, times: number) {
  for (let i = 0; i < times; i += 1) await (await request(shorturl)).body.dump();
}

describe('LinkShort: Link > Get with Add Clicks Over Time', () => {
  it("says it has no history at the first reading, then shows the days since it, with no zeros before it; the history stays in the node's static data", async () => {
    await start();
    setClock(WEDNESDAY);
    const link = await client.links.create({ url: 'https://example.com/over-time' });
    await visit(link.shorturl, 2);
    const bucket: IDataObject = {};
    const get = async () => {
      // A request at this time first: the log keeps the last hour only, and the clock moved.
      await client.account.get();
      const before = sandbox.requests.length;
      const [item] = await executeNode(
        credentials,
        { resource: 'link', operation: 'get', id: { __rl: true, mode: 'id', value: String(link.id) }, clicksOverTime: true },
        undefined,
        { staticData: { 'node:LinkShort': bucket }, timezone: 'Europe/Berlin' },
      );
      // The history answers from what the Get reads: no request of its own.
      expect(sandbox.requests.length - before).toBe(1);
      return item!.json.clicksOverTime as {
        total: number | null;
        note: string;
        days: Array<{ day: string; clicks: number | null; quality: string }>;
        firstSampleAt: string;
      };
    };

    const first = await get();
    expect(first.note).toMatch(/^No history yet/);
    expect(first.days).toHaveLength(7);
    expect(first.days.every((day) => day.clicks === null || day.clicks === 0)).toBe(true);
    expect(first.days.slice(0, 6).every((day) => day.clicks === null && day.quality === 'none')).toBe(true);

    setClock(WEDNESDAY + 6 * 3_600_000);
    await visit(link.shorturl, 3);
    setClock(WEDNESDAY + DAY);
    await visit(link.shorturl, 4);
    const later = await get();
    // The first reading's time, to the second (the clock runs on from WEDNESDAY while the Get is made).
    expect(Date.parse(later.firstSampleAt) - WEDNESDAY).toBeGreaterThanOrEqual(0);
    expect(Date.parse(later.firstSampleAt) - WEDNESDAY).toBeLessThan(60_000);
    // Days before Wednesday: no data, not zero; Wednesday and Thursday share the 7 clicks read between the two Gets.
    expect(later.days.slice(0, 5).map((day) => day.clicks)).toEqual([null, null, null, null, null]);
    expect((later.days[5]!.clicks ?? 0) + (later.days[6]!.clicks ?? 0)).toBe(7);
    expect(later.total).toBe(7);
    expect(later.note).toMatch(/^Clicks per day/);
    expect(bucket.clickHistory).toMatchObject({ version: 1, links: { [String(link.id)]: expect.any(String) } });
  });

  it('a Get on a host clock in a far year, after one today, does the work of its own 7 days (issue 51: the process-wide zone clock filled every day between)', async () => {
    await start();
    const link = await client.links.create({ url: 'https://example.com/far-year' });
    const get = async () => {
      const [item] = await executeNode(
        credentials,
        { resource: 'link', operation: 'get', id: { __rl: true, mode: 'id', value: String(link.id) }, clicksOverTime: true },
        undefined,
        { staticData: { 'node:LinkShort': {} }, timezone: 'Asia/Tokyo' },
      );
      return item!.json.clicksOverTime as { days: unknown[] };
    };
    expect((await get()).days).toHaveLength(7);
    setClock(Date.UTC(2426, 5, 1, 12));
    const intl = jest.spyOn(Intl.DateTimeFormat.prototype, 'formatToParts');
    expect((await get()).days).toHaveLength(7);
    // The node runs its own bundled copy of the client: its Intl calls are counted. Before: every day from today to 2426
    // stepped through and kept, learning each year's offsets on the way (146,499 calls); now the years around the 7 days.
    expect(intl.mock.calls.length).toBeLessThanOrEqual(3 * (366 + 2 * 20) + 500);
  });
});
