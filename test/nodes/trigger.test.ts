import { NodeApiError, type IDataObject, type INodeParameters } from 'n8n-workflow';
import { request } from 'undici';
import { LinkShortClient } from '@linkshort/client';
import { startSandbox, type Sandbox } from '@linkshort/sandbox';
import { poll, type Credentials } from './harness';

/**
 * A trigger as n8n runs it: each poll goes through n8n-core's PollContext, and the static data is
 * serialised to JSON and back between polls, as when n8n restarts.
 */
class Trigger {
  staticData: IDataObject = {};
  constructor(
    private readonly sandbox: Sandbox,
    private readonly credentials: Credentials,
    private readonly parameters: INodeParameters,
  ) {}

  /** Runs one poll; returns the emitted items' JSON and the number of API requests it made. */
  async poll(mode: 'trigger' | 'manual' = 'trigger') {
    const before = this.sandbox.requests.length;
    const { result, staticData } = await poll(this.credentials, this.parameters, JSON.parse(JSON.stringify(this.staticData)) as IDataObject, mode);
    this.staticData = JSON.parse(JSON.stringify(staticData ?? {})) as IDataObject;
    return { items: (result?.[0] ?? []).map((item) => item.json), requests: this.sandbox.requests.length - before };
  }
}

let sandbox: Sandbox;
let client: LinkShortClient;
let credentials: Credentials;
let clock: number | undefined;

beforeEach(async () => {
  clock = undefined;
  sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowMs: 60_000 }, now: () => clock ?? Date.now() });
  credentials = { baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey };
  client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: false });
});
afterEach(() => sandbox.close());

const createLinks = async (count: number, prefix: string) => {
  const ids: number[] = [];
  for (let i = 0; i < count; i += 1) ids.push((await client.links.create({ url: `https://example.com/${prefix}/${i}` })).id);
  return ids;
};
const visit = async (shorturl: string, times = 1) => {
  for (let i = 0; i < times; i += 1) await (await request(shorturl)).body.dump();
};
const ids = (items: IDataObject[]) => items.map((item) => item.id as number);

describe('LinkShort Trigger: newLink', () => {
  it('records a baseline, then emits each new link once, in one request when nothing or little is new', async () => {
    const trigger = new Trigger(sandbox, credentials, { event: 'newLink' });
    expect(await trigger.poll()).toEqual({ items: [], requests: 1 });
    expect(await trigger.poll()).toEqual({ items: [], requests: 1 });

    const created = await createLinks(3, 'a');
    const first = await trigger.poll();
    expect(ids(first.items)).toEqual(created);
    expect(first.items[0]).toMatchObject({ id: created[0], longurl: 'https://example.com/a/0', clicks: 0, shorturl: expect.any(String) });
    expect(first.requests).toBe(1);
    expect(await trigger.poll()).toEqual({ items: [], requests: 1 });
  });

  it('emits many links created in the same second, across pages, exactly once', async () => {
    const trigger = new Trigger(sandbox, credentials, { event: 'newLink' });
    // Frozen at the real time, so that the links below share a second and are newer than the demo links (dated from the real clock).
    clock = Math.floor(Date.now() / 1000) * 1000;
    await trigger.poll();
    clock += 1000;
    const created = await createLinks(250, 'burst');
    const first = await trigger.poll();
    expect(ids(first.items).sort((a, b) => a - b)).toEqual(created);
    // A page of 100, then one of 1,000 from the top that holds the whole run of 250 links of one second
    // (a server may give links of one second in another order on each request: see trigger-new-items.test.ts).
    expect(first.requests).toBe(2);
    clock += 1000;
    const later = await createLinks(2, 'later');
    const second = await trigger.poll();
    expect(ids(second.items)).toEqual(later);
    expect((await trigger.poll()).items).toEqual([]);
  });

  it('ignores links deleted between polls and emits the rest once', async () => {
    const trigger = new Trigger(sandbox, credentials, { event: 'newLink' });
    await trigger.poll();
    const [kept, removed] = await createLinks(2, 'del');
    await client.links.delete(removed!);
    const oldest = sandbox.store.state.links.find((link) => link.alias === 'n8n')!;
    await client.links.delete(oldest.id);
    expect(ids((await trigger.poll()).items)).toEqual([kept]);
    expect((await trigger.poll()).items).toEqual([]);
  });

  it('misses nothing and repeats nothing when links are created and deleted while a poll reads its pages', async () => {
    const trigger = new Trigger(sandbox, credentials, { event: 'newLink' });
    // Frozen at the real time, so that the links below share a second and are newer than the demo links (dated from the real clock).
    clock = Math.floor(Date.now() / 1000) * 1000;
    await trigger.poll();
    clock += 1000;
    const batch = await createLinks(230, 'paged');
    let injected: number[] = [];
    sandbox.onApiRequest = async ({ path, query }) => {
      if (path !== '/api/urls' || query.get('page') !== '2' || injected.length > 0) return;
      sandbox.onApiRequest = undefined;
      // Deleting two links already read shifts unread ones onto page 1; new links shift the rest down.
      await client.links.delete(batch[batch.length - 1]!);
      await client.links.delete(batch[batch.length - 2]!);
      injected = await createLinks(7, 'during');
    };
    const emitted = [...ids((await trigger.poll()).items), ...ids((await trigger.poll()).items), ...ids((await trigger.poll()).items)];
    // The two deleted links were read (and emitted) before they were deleted.
    const expected = [...batch, ...injected];
    expect(emitted.sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
    expect(new Set(emitted).size).toBe(emitted.length);
  });

  it('Fetch Test Event returns the most recent link and leaves the state alone', async () => {
    const trigger = new Trigger(sandbox, credentials, { event: 'newLink' });
    await trigger.poll();
    const state = JSON.stringify(trigger.staticData);
    const [newest] = await createLinks(1, 'sample');
    const sample = await trigger.poll('manual');
    expect(ids(sample.items)).toEqual([newest]);
    expect(JSON.stringify(trigger.staticData)).toBe(state);
    expect(ids((await trigger.poll()).items)).toEqual([newest]);
  });

  it('a poll that fails mid-way (5xx past the retries) emits nothing, changes nothing, and the next poll catches up', async () => {
    const trigger = new Trigger(sandbox, credentials, { event: 'newLink' });
    await trigger.poll();
    const created = await createLinks(120, 'fault');
    const before = JSON.stringify(trigger.staticData);
    // The first page succeeds; every attempt at the next answers 503, so the poll fails after its retries.
    let lists = 0;
    sandbox.onApiRequest = ({ path }) => {
      if (path === '/api/urls' && (lists += 1) > 1) sandbox.faults.set([{ kind: '5xx', times: 1 }]);
    };
    const error = await trigger.poll().catch((e: unknown) => e);
    sandbox.onApiRequest = undefined;
    expect(error).toBeInstanceOf(NodeApiError);
    expect(JSON.stringify(trigger.staticData)).toBe(before);
    sandbox.faults.clear();
    expect(ids((await trigger.poll()).items).sort((a, b) => a - b)).toEqual(created);
    expect((await trigger.poll()).items).toEqual([]);
  });

  it('survives a dropped connection and a malformed answer mid-poll without a miss or a duplicate', async () => {
    const trigger = new Trigger(sandbox, credentials, { event: 'newLink' });
    await trigger.poll();
    const emitted: number[] = [];
    const created: number[] = [];
    for (const kind of ['drop', 'malformed', 'html', 'empty'] as const) {
      created.push(...(await createLinks(3, kind)));
      sandbox.faults.set([{ kind, times: 5 }]);
      await trigger.poll().catch(() => undefined);
      sandbox.faults.clear();
      emitted.push(...ids((await trigger.poll()).items));
    }
    expect(emitted).toEqual(created);
  });
});

describe('LinkShort Trigger: newQrCode', () => {
  it('emits each new QR code once', async () => {
    const trigger = new Trigger(sandbox, credentials, { event: 'newQrCode' });
    await trigger.poll();
    const { id } = await client.qrCodes.create({ type: 'link', data: 'https://example.com/qr' });
    const first = await trigger.poll();
    expect(first.items).toEqual([expect.objectContaining({ id, scans: 0 })]);
    expect(first.requests).toBe(1);
    expect((await trigger.poll()).items).toEqual([]);
    expect(ids((await trigger.poll('manual')).items)).toEqual([id]);
  });
});

describe('LinkShort Trigger: linkClickThreshold', () => {
  it('fires once when real redirects take a link to the threshold; links already past it at activation do not fire', async () => {
    const trigger = new Trigger(sandbox, credentials, { event: 'linkClickThreshold', threshold: 5 });
    const link = await client.links.create({ url: 'https://example.com/threshold', custom: 'threshold-link' });
    expect((await trigger.poll()).items).toEqual([]);
    await visit(link.shorturl, 4);
    expect(await trigger.poll()).toEqual({ items: [], requests: 1 });
    await visit(link.shorturl, 1);
    const fired = await trigger.poll();
    expect(fired.items).toEqual([expect.objectContaining({ id: link.id, clicks: 5, threshold: 5, crossedAgain: false })]);
    expect(fired.requests).toBe(1);
    await visit(link.shorturl, 3);
    expect(await trigger.poll()).toEqual({ items: [], requests: 1 });
  });

  it('fires again only after the clicks dropped below and crossed again, and says so', async () => {
    const trigger = new Trigger(sandbox, credentials, { event: 'linkClickThreshold', threshold: 3 });
    const link = await client.links.create({ url: 'https://example.com/again', custom: 'again-link' });
    await trigger.poll();
    await visit(link.shorturl, 3);
    expect(ids((await trigger.poll()).items)).toEqual([link.id]);
    sandbox.store.state.links.find((l) => l.id === link.id)!.stats.clicks = 1;
    expect((await trigger.poll()).items).toEqual([]);
    await visit(link.shorturl, 2);
    expect((await trigger.poll()).items).toEqual([expect.objectContaining({ id: link.id, crossedAgain: true })]);
    expect((await trigger.poll()).items).toEqual([]);
  });

  it('watches only the given link IDs, and forgets deleted links without firing', async () => {
    const a = await client.links.create({ url: 'https://example.com/watch-a', custom: 'watch-a' });
    const b = await client.links.create({ url: 'https://example.com/watch-b', custom: 'watch-b' });
    const trigger = new Trigger(sandbox, credentials, { event: 'linkClickThreshold', threshold: 2, linkIds: `${b.id}` });
    await trigger.poll();
    await visit(a.shorturl, 2);
    await visit(b.shorturl, 2);
    expect(ids((await trigger.poll()).items)).toEqual([b.id]);
    await client.links.delete(b.id);
    expect((await trigger.poll()).items).toEqual([]);
    expect(trigger.staticData.state).toMatchObject({ above: [], droppedAfterFiring: [] });
  });
});

describe('LinkShort Trigger: growing counts', () => {
  it('newLinkClicks emits links whose clicks grew, with previous, current and new clicks', async () => {
    const trigger = new Trigger(sandbox, credentials, { event: 'newLinkClicks' });
    await trigger.poll();
    const [n8n, fresh] = [sandbox.store.state.links.find((l) => l.alias === 'n8n')!, await client.links.create({ url: 'https://example.com/grow' })];
    await visit(`${sandbox.baseUrl}/n8n`, 2);
    await visit(fresh.shorturl, 1);
    const { items } = await trigger.poll();
    expect(items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: n8n.id, previousClicks: 120, clicks: 122, newClicks: 2 }),
        expect.objectContaining({ id: fresh.id, previousClicks: 0, clicks: 1, newClicks: 1 }),
      ]),
    );
    expect(items).toHaveLength(2);
    expect((await trigger.poll()).items).toEqual([]);
  });

  it('newQrScans emits QR codes whose scans grew through GET /qr/...', async () => {
    const trigger = new Trigger(sandbox, credentials, { event: 'newQrScans' });
    await trigger.poll();
    await visit(`${sandbox.baseUrl}/qr/a1b2c3`, 3);
    const { items, requests } = await trigger.poll();
    expect(items).toEqual([expect.objectContaining({ name: 'Menu', previousScans: 12, scans: 15, newScans: 3 })]);
    expect(requests).toBe(1);
    expect((await trigger.poll()).items).toEqual([]);
  });
});
