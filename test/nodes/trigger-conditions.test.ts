import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { LinkShortClient } from '@linkshort/client';
import { startSandbox, type Sandbox } from '@linkshort/sandbox';
import { activeTrigger, type Credentials } from './harness';

/**
 * The LinkShort Trigger in the conditions real deployments produce, each poll run by n8n-core's
 * PollTriggerExecutor over one PollContext per active node, as n8n's cron runs it: overlapping
 * polls, a server clock that steps back an hour, bulk imports, failed pages.
 */
jest.setTimeout(120_000);

const realNow = () => performance.timeOrigin + performance.now();
/** The n8n host's clock as the node reads it (Date.now); tests move it on as time passes between polls. */
let hostOffset = 0;
/** The server's clock (the sandbox's `now`), stepped independently of the host's. */
let serverClock: number | undefined;

let sandbox: Sandbox;
let client: LinkShortClient;
let credentials: Credentials;

beforeEach(async () => {
  hostOffset = 0;
  serverClock = undefined;
  jest.spyOn(Date, 'now').mockImplementation(() => realNow() + hostOffset);
  // Unless a test steps it, the server's clock moves with the host's.
  sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowMs: 60_000 }, now: () => serverClock ?? realNow() + hostOffset });
  credentials = { baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey };
  client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: false });
});
afterEach(async () => {
  jest.restoreAllMocks();
  await sandbox.close();
});

const idsOf = (items: IDataObject[]) => items.map((item) => item.id as number);
const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
const createLinks = async (count: number, prefix: string) => {
  const created: number[] = [];
  for (let i = 0; i < count; i += 20) {
    const batch = Array.from({ length: Math.min(20, count - i) }, (_, j) => client.links.create({ url: `https://example.com/${prefix}/${i + j}` }));
    created.push(...(await Promise.all(batch)).map((link) => link.id));
  }
  return sorted(created);
};
const visit = async (path: string, times = 1) => {
  for (let i = 0; i < times; i += 1) await (await request(`${sandbox.baseUrl}/${path}`)).body.dump();
};

/**
 * A trigger polled one poll at a time, its static data taken through JSON before every poll (a
 * restart of n8n), the host's clock a minute on each time (n8n's shortest interval).
 */
class RestartingTrigger {
  staticData: IDataObject = {};
  emitted: IDataObject[] = [];
  constructor(private readonly parameters: INodeParameters) {}

  async poll() {
    hostOffset += 60_000;
    const trigger = activeTrigger(credentials, this.parameters, JSON.parse(JSON.stringify(this.staticData)) as IDataObject);
    const before = sandbox.requests.length;
    await trigger.poll();
    this.staticData = JSON.parse(JSON.stringify(trigger.staticData())) as IDataObject;
    const items = trigger.emitted.flatMap((data) => (data[0] ?? []).map((item) => item.json));
    this.emitted.push(...items);
    return { items, requests: sandbox.requests.length - before, errors: trigger.errors };
  }
}

/** Holds API requests before the server carries them out, to be released one by one. */
function holdRequests(count: number) {
  const held: Array<() => void> = [];
  sandbox.onApiRequest = ({ method }) => {
    if (method !== 'GET' || held.length >= count) return;
    return new Promise<void>((resolve) => held.push(resolve));
  };
  return {
    held,
    async until(n: number) {
      while (held.length < n) await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

// ------------------------------------------------------------------ 1. overlapping polls

interface EventCase {
  parameters: INodeParameters;
  /** Makes something for the next poll to emit. */
  change: (round: number) => Promise<void>;
  /** What the emitted items add up to (ids, or the clicks and scans received), and what they should. */
  total: (items: IDataObject[]) => number[];
  expected: () => number[];
  byId: boolean;
}

const EVENT_CASES = ['New Link', 'New QR Code', 'Link Reached Click Threshold', 'Link Received Clicks', 'QR Code Scanned'] as const;

/** A fresh case of each event, for one test. */
function eventCase(name: (typeof EVENT_CASES)[number]): EventCase {
  const ids: number[] = [];
  let count = 0;
  const byIds = { total: idsOf, expected: () => ids, byId: true };
  const byCount = (field: string) => ({
    total: (items: IDataObject[]) => [items.reduce((sum, item) => sum + (item[field] as number), 0)],
    expected: () => [count],
    byId: false,
  });
  switch (name) {
    case 'New Link':
      return { parameters: { event: 'newLink' }, change: async (round) => void ids.push(...(await createLinks(2, `overlap-${round}`))), ...byIds };
    case 'New QR Code':
      return {
        parameters: { event: 'newQrCode' },
        change: async (round) => void ids.push((await client.qrCodes.create({ type: 'link', data: `https://example.com/qr-overlap/${round}` })).id),
        ...byIds,
      };
    case 'Link Reached Click Threshold':
      return {
        parameters: { event: 'linkClickThreshold', threshold: 2 },
        change: async (round) => {
          ids.push((await client.links.create({ url: `https://example.com/crossing/${round}`, custom: `crossing-${round}` })).id);
          await visit(`crossing-${round}`, 2);
        },
        ...byIds,
      };
    case 'Link Received Clicks':
      return { parameters: { event: 'newLinkClicks' }, change: async () => void (await visit('n8n', 3), (count += 3)), ...byCount('newClicks') };
    case 'QR Code Scanned':
      return { parameters: { event: 'newQrScans' }, change: async () => void (await visit('qr/a1b2c3', 2), (count += 2)), ...byCount('newScans') };
  }
}

describe('1. two polls of one trigger node in flight at once', () => {
  it.each(EVENT_CASES)('%s: a poll started while another runs returns at once without a request; every event emitted once', async (name) => {
    const event = eventCase(name);
    const trigger = activeTrigger(credentials, event.parameters);
    await trigger.poll();
    await event.change(1);
    const hold = holdRequests(1);
    const first = trigger.poll();
    await hold.until(1);
    const requestsBefore = sandbox.requests.length;
    hostOffset += 60_000; // the cron's next tick, a minute later
    await trigger.poll();
    expect(sandbox.requests.length).toBe(requestsBefore);
    hold.held[0]!();
    await first;
    sandbox.onApiRequest = undefined;
    await trigger.poll();
    const items = trigger.emitted.flatMap((data) => (data[0] ?? []).map((item) => item.json));
    expect(sorted(event.total(items))).toEqual(sorted(event.expected()));
    expect(trigger.errors).toEqual([]);
    expect(trigger.staticData().lease).toBeUndefined();
  });

  describe.each(['the first', 'the second'])('when a poll outlasts its lease and %s to start finishes first', (firstToFinish) => {
    it.each(EVENT_CASES)('%s: nothing emitted twice, nothing lost, one consistent state', async (name) => {
      const event = eventCase(name);
      const trigger = activeTrigger(credentials, event.parameters);
      await trigger.poll();
      await event.change(1);
      const hold = holdRequests(2);
      const first = trigger.poll();
      await hold.until(1);
      hostOffset += 6 * 60_000; // past the five-minute lease: the next tick polls too
      await event.change(2);
      const second = trigger.poll();
      await hold.until(2);
      const [early, late] = firstToFinish === 'the first' ? [0, 1] : [1, 0];
      const withoutLease = () => JSON.stringify({ ...trigger.staticData(), lease: undefined });
      hold.held[early]!();
      await (early === 0 ? first : second);
      const committed = withoutLease();
      await event.change(3); // after the first to finish read: only the next poll can see it
      hold.held[late]!();
      await Promise.all([first, second]);
      sandbox.onApiRequest = undefined;
      expect(trigger.emitted).toHaveLength(1);
      // The later finisher left the first one's progress as it was, and its own lease is gone.
      expect(withoutLease()).toBe(committed);
      expect(trigger.staticData().lease).toBeUndefined();
      const state = JSON.stringify(trigger.staticData());
      hostOffset += 60_000;
      await trigger.poll();
      hostOffset += 60_000;
      await trigger.poll();
      const items = trigger.emitted.flatMap((data) => (data[0] ?? []).map((item) => item.json));
      expect(sorted(event.total(items))).toEqual(sorted(event.expected()));
      if (event.byId) expect(new Set(idsOf(items)).size).toBe(items.length);
      expect(JSON.parse(state)).toMatchObject({ generation: 2 });
      expect(trigger.errors).toEqual([]);
    });
  });
});

// ------------------------------------------------------------------ 2. a server clock that steps back

describe('2. a server clock that steps back an hour', () => {
  const HOUR = 3_600_000;
  /** A server time after the sandbox's seed data, on a whole hour, the hour before a step back. */
  const oneOClock = () => Math.ceil(realNow() / HOUR) * HOUR + 24 * HOUR + HOUR;

  it.each([
    ['New Link', { event: 'newLink' }, async (tag: string) => (await client.links.create({ url: `https://example.com/clock/${tag}` })).id],
    [
      'New QR Code',
      { event: 'newQrCode' },
      async (tag: string) => (await client.qrCodes.create({ type: 'link', data: `https://example.com/clock/${tag}` })).id,
    ],
  ] as const)('%s: items created after the step, dated before earlier ones, are each emitted once', async (_name, parameters, create) => {
    serverClock = oneOClock() + 30 * 60_000;
    const trigger = new RestartingTrigger(parameters);
    await trigger.poll();
    const expected: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      serverClock += 10 * 60_000;
      expected.push(await create(`before-${i}`));
    }
    expect(idsOf((await trigger.poll()).items)).toEqual(expected);
    serverClock -= HOUR; // 02:00 becomes 01:00 again
    for (let i = 0; i < 3; i += 1) {
      serverClock += 5_000;
      expected.push(await create(`after-${i}`));
      await trigger.poll();
    }
    for (let i = 0; i < 3; i += 1) await trigger.poll();
    expect(idsOf(trigger.emitted)).toEqual(expected);
  });

  it('New Link: links hidden below a full first page of earlier-dated links are found within the hour, each once', async () => {
    serverClock = oneOClock();
    const trigger = new RestartingTrigger({ event: 'newLink' });
    await trigger.poll();
    // A busy hour: 150 links, so that after the step the new ones sort below the first page.
    const busy: number[] = [];
    for (let i = 0; i < 150; i += 1) {
      serverClock += 20_000;
      busy.push((await client.links.create({ url: `https://example.com/busy/${i}` })).id);
    }
    await trigger.poll();
    await trigger.poll();
    expect((await trigger.poll()).requests).toBe(1);
    serverClock -= 3_600_000;
    const hidden: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      serverClock += 60_000;
      hidden.push((await client.links.create({ url: `https://example.com/hidden/${i}` })).id);
    }
    const page1 = await client.links.list({ order: 'date', limit: 100 });
    expect(idsOf(page1.items).some((id) => hidden.includes(id))).toBe(false);
    for (let minute = 0; minute < 70; minute += 1) await trigger.poll();
    expect(sorted(idsOf(trigger.emitted))).toEqual(sorted([...busy, ...hidden]));
  });

  it('the click and scan events count by ids and numbers, not dates: a step changes nothing', async () => {
    serverClock = oneOClock() + 59 * 60_000;
    const link = await client.links.create({ url: 'https://example.com/clock-clicks', custom: 'clock-clicks' });
    const threshold = new RestartingTrigger({ event: 'linkClickThreshold', threshold: 3 });
    const clicks = new RestartingTrigger({ event: 'newLinkClicks' });
    const scans = new RestartingTrigger({ event: 'newQrScans' });
    const all = [threshold, clicks, scans];
    for (const trigger of all) await trigger.poll();
    await visit('clock-clicks', 2);
    await visit('qr/a1b2c3', 1);
    for (const trigger of all) await trigger.poll();
    serverClock -= 3_600_000;
    await visit('clock-clicks', 2);
    await visit('qr/a1b2c3', 1);
    for (const trigger of all) await trigger.poll();
    for (const trigger of all) await trigger.poll();
    expect(idsOf(threshold.emitted)).toEqual([link.id]);
    expect(clicks.emitted.filter((item) => item.id === link.id).map((item) => item.newClicks)).toEqual([2, 2]);
    expect(scans.emitted.map((item) => item.newScans)).toEqual([1, 1]);
  });
});

// ------------------------------------------------------------------ 3. bulk imports

describe('3. a bulk import of 250 links within one second', () => {
  it('emits each once, then polls with nothing new settle to exactly 1 request within two polls', async () => {
    const noon = Math.ceil(realNow() / 3_600_000) * 3_600_000 + 86_400_000; // after the seed data
    serverClock = noon;
    const trigger = new RestartingTrigger({ event: 'newLink' });
    await trigger.poll();
    serverClock += 1000;
    const imported = await createLinks(250, 'bulk');
    serverClock += 1000;
    const first = await trigger.poll();
    expect(sorted(idsOf(first.items))).toEqual(imported);
    const quiet = [];
    for (let i = 0; i < 4; i += 1) {
      serverClock += 60_000;
      quiet.push(await trigger.poll());
    }
    expect(quiet.map((poll) => poll.items)).toEqual([[], [], [], []]);
    expect(quiet.slice(1).map((poll) => poll.requests)).toEqual([1, 1, 1]);
    // A link created in the same second as the import, while the first quiet poll had not yet read past it, is not lost.
    serverClock = noon + 1000;
    const late = await createLinks(1, 'same-second');
    serverClock = noon + 10 * 60_000;
    const found = await trigger.poll();
    expect(idsOf(found.items)).toEqual(late);
  });
});

// ------------------------------------------------------------------ 4. failed pages, restarts, deletions

describe('4. a failed poll on any page changes nothing; the next poll catches up exactly once', () => {
  it.each(['5xx', 'html', 'malformed', 'empty'] as const)('%s on the first, second or third page read', async (kind) => {
    // Pages of at most 200, so that reading 210 new links takes three pages (100, then 200 from the top, then the next 200).
    sandbox.maxPageSize = 200;
    const trigger = new RestartingTrigger({ event: 'newLink' });
    await trigger.poll();
    const expected: number[] = [];
    for (const failing of [1, 2, 3]) {
      serverClock = undefined;
      expected.push(...(await createLinks(210, `${kind}-${failing}`)));
      const state = JSON.stringify(trigger.staticData);
      let listRequests = 0;
      sandbox.onApiRequest = ({ path }) => {
        if (path === '/api/urls' && (listRequests += 1) === failing) sandbox.faults.set([{ kind, times: 5 }]);
      };
      const failed = await trigger.poll();
      sandbox.onApiRequest = undefined;
      sandbox.faults.clear();
      expect(failed.items).toEqual([]);
      expect(failed.errors).toHaveLength(1);
      expect(JSON.stringify(trigger.staticData)).toBe(state);
      await trigger.poll();
    }
    await trigger.poll();
    expect(sorted(idsOf(trigger.emitted))).toEqual(sorted(expected));
    expect(new Set(idsOf(trigger.emitted)).size).toBe(trigger.emitted.length);
  });

  it.each(EVENT_CASES)('%s: a read that fails (5xx, HTML, malformed JSON, empty body) changes nothing; the next poll catches up once', async (name) => {
    const event = eventCase(name);
    const trigger = new RestartingTrigger(event.parameters);
    await trigger.poll();
    for (const [round, kind] of (['5xx', 'html', 'malformed', 'empty'] as const).entries()) {
      await event.change(round);
      const state = JSON.stringify(trigger.staticData);
      sandbox.faults.set([{ kind, times: 5 }]);
      const failed = await trigger.poll();
      sandbox.faults.clear();
      expect(failed.errors).toHaveLength(1);
      expect(JSON.stringify(trigger.staticData)).toBe(state);
      await trigger.poll();
    }
    await trigger.poll();
    expect(sorted(event.total(trigger.emitted))).toEqual(sorted(event.expected()));
  });

  it('an HTTP-200 "error: 429" answer mid-poll (another client used up the key\'s limit) is not waited out: the poll stops, and a poll after the window catches up exactly once', async () => {
    await sandbox.close();
    sandbox = await startSandbox({ rateLimit: { limit: 60, windowMs: 2_000 }, now: () => realNow() });
    credentials = { baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey };
    client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey });
    // Pages of at most 200, so that reading 210 new links asks for a page 2.
    sandbox.maxPageSize = 200;
    const trigger = new RestartingTrigger({ event: 'newLink' });
    await trigger.poll();
    const created = await createLinks(210, 'limited');
    let limitAnswers = 0;
    sandbox.onApiRequest = async ({ query }) => {
      if (query.get('page') !== '2') return;
      sandbox.onApiRequest = undefined;
      // Another client on the same key spends the window, so the next page meets the limit unannounced.
      for (let i = 0; i < 70; i += 1) {
        const answer = (await (await request(`${sandbox.baseUrl}/api/account`, { headers: { Authorization: `Bearer ${sandbox.userKey}` } })).body.json()) as {
          error: unknown;
        };
        if (answer.error === 429) limitAnswers += 1;
      }
    };
    await trigger.poll();
    // The poll met the limit and stopped: nothing emitted (waiting would have emitted all); it keeps how far down it read.
    expect(trigger.emitted).toEqual([]);
    expect((trigger.staticData.state as { reading?: { offset: number } }).reading?.offset).toBeGreaterThan(0);
    expect(limitAnswers).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await trigger.poll();
    await trigger.poll();
    expect(sorted(idsOf(trigger.emitted))).toEqual(created);
  });

  it('a New Link trigger activated under 0.1.0 (a state bounded by dates) goes on after the upgrade, each link once', async () => {
    const page = await client.links.list({ order: 'date', limit: 100 });
    const newest = page.items[0]!.date!;
    const known = Object.fromEntries(page.items.filter((link) => link.date === newest).map((link) => [String(link.id), link.date]));
    const trigger = new RestartingTrigger({ event: 'newLink' });
    trigger.staticData = { key: JSON.stringify({ event: 'newLink' }), state: { boundary: newest, previousNewest: newest, known } };
    const created = await createLinks(3, 'after-upgrade');
    await trigger.poll();
    await trigger.poll();
    await trigger.poll();
    expect(idsOf(trigger.emitted)).toEqual(created);
  });

  it('links deleted while a poll reads its pages, and a nextpage past the end, neither repeat nor lose a link', async () => {
    const trigger = new RestartingTrigger({ event: 'newLink' });
    await trigger.poll();
    const created = await createLinks(230, 'deleting');
    let deleted: number[] = [];
    sandbox.onApiRequest = async ({ path, query }) => {
      if (path !== '/api/urls' || query.get('page') !== '2') return;
      sandbox.onApiRequest = undefined;
      // Two not-yet-read links (page 3) disappear; the rest shift up by two.
      deleted = created.slice(0, 2);
      for (const id of deleted) await client.links.delete(id);
    };
    const first = await trigger.poll();
    await trigger.poll();
    const emitted = idsOf(trigger.emitted);
    expect(sorted(emitted)).toEqual(created.filter((id) => !deleted.includes(id)));
    expect(new Set(emitted).size).toBe(emitted.length);
    // Deployed servers announce a next page past the end: the poll stopped by maxpage, not by it.
    expect(sandbox.requests.filter((r) => r.path === '/api/urls' && r.query.includes('page=4'))).toEqual([]);
    // Three pages, and one more when a run of links of the same second that two pages split is read again whole.
    expect(first.requests - deleted.length).toBeLessThanOrEqual(4);
  });
});
