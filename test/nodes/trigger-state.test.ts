/**
 * The trigger's static data as n8n keeps it (through JSON between polls), when its credential
 * moves to another account and when what is stored is not what the node wrote.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { LinkShortClient } from '@linkshort/client';
import { startSandbox, type Sandbox } from '@linkshort/sandbox';
import { poll, type Credentials } from './harness';
import { clearLog, warnings } from './n8n-log';

let first: Sandbox;
let second: Sandbox;

beforeEach(async () => {
  clearLog();
  first = await startSandbox({ rateLimit: { limit: 100_000, windowMs: 60_000 } });
  second = await startSandbox({ rateLimit: { limit: 100_000, windowMs: 60_000 } });
});
afterEach(() => {
  first.close();
  second.close();
});

class Trigger {
  staticData: IDataObject = {};
  constructor(
    public credentials: Credentials,
    private readonly parameters: INodeParameters = { event: 'newLink' },
  ) {}

  async poll(): Promise<number[]> {
    const { result, staticData } = await poll(this.credentials, this.parameters, JSON.parse(JSON.stringify(this.staticData)) as IDataObject);
    this.staticData = JSON.parse(JSON.stringify(staticData ?? {})) as IDataObject;
    return (result?.[0] ?? []).map((item) => item.json.id as number);
  }
}

const clientOf = (credentials: Credentials) => new LinkShortClient({ ...credentials, rateLimit: false });
async function createLinks(credentials: Credentials, count: number, prefix: string): Promise<number[]> {
  const client = clientOf(credentials);
  const ids: number[] = [];
  for (let i = 0; i < count; i += 1) ids.push((await client.links.create({ url: `https://example.com/${prefix}/${i}` })).id);
  return ids;
}

describe('switching the credential to another account', () => {
  it('starts each account from a quiet baseline: nothing existing is emitted, every new link once, and no key is stored', async () => {
    const a = { baseUrl: first.baseUrl, apiKey: first.userKey };
    const b = { baseUrl: first.baseUrl, apiKey: first.adminKey };
    const c = { baseUrl: second.baseUrl, apiKey: second.userKey };
    const trigger = new Trigger(a);
    expect(await trigger.poll()).toEqual([]);
    const onA = await createLinks(a, 2, 'a');
    expect(await trigger.poll()).toEqual(onA);

    // Account B (same server, another key) already has 40 links, all newer than A's.
    await createLinks(b, 40, 'b-existing');
    trigger.credentials = b;
    expect(await trigger.poll()).toEqual([]);
    const onB = await createLinks(b, 2, 'b-new');
    expect(await trigger.poll()).toEqual(onB);
    expect(await trigger.poll()).toEqual([]);

    // Account C (another server): its new links have ids far below those seen on B.
    trigger.credentials = c;
    expect(await trigger.poll()).toEqual([]);
    const onC = await createLinks(c, 3, 'c-new');
    expect(Math.max(...onC)).toBeLessThan(Math.min(...onB));
    expect(await trigger.poll()).toEqual(onC);

    trigger.credentials = a;
    expect(await trigger.poll()).toEqual([]);
    const backOnA = await createLinks(a, 2, 'a-again');
    expect(await trigger.poll()).toEqual(backOnA);
    expect(await trigger.poll()).toEqual([]);

    const stored = JSON.stringify(trigger.staticData);
    for (const key of [first.userKey, first.adminKey, second.userKey]) expect(stored).not.toContain(key);
  });
});

describe('the account the state belongs to', () => {
  it("is the client's one account rule: the same server written HTTP://host/api/ or http://host names one account, and no key is kept", async () => {
    const a = { baseUrl: first.baseUrl, apiKey: first.userKey };
    const trigger = new Trigger(a);
    expect(await trigger.poll()).toEqual([]);
    expect(trigger.staticData.account).toBe(clientOf(a).accountId);
    expect(String(trigger.staticData.account)).not.toContain(first.userKey);
    const sameAccount = new LinkShortClient({ baseUrl: `${first.baseUrl.replace('http://', 'HTTP://')}/api/`, apiKey: first.userKey, rateLimit: false });
    expect(sameAccount.accountId).toBe(trigger.staticData.account);
  });

  it('carries on a state recorded by an earlier version (the account as a 32-digit digest): no new baseline, nothing lost', async () => {
    const a = { baseUrl: first.baseUrl, apiKey: first.userKey };
    const trigger = new Trigger(a);
    expect(await trigger.poll()).toEqual([]);
    trigger.staticData.account = '0123456789abcdef0123456789abcdef';
    const made = await createLinks(a, 2, 'after-upgrade');
    expect(await trigger.poll()).toEqual(made);
    expect(trigger.staticData.account).toBe(clientOf(a).accountId);
  });
});

describe('malformed static data', () => {
  const a = () => ({ baseUrl: first.baseUrl, apiKey: first.userKey });

  async function activated(parameters: INodeParameters = { event: 'newLink' }) {
    const trigger = new Trigger(a(), parameters);
    await trigger.poll();
    return trigger;
  }

  it('a lease stamped by a clock that ran ahead is dropped with a log line, and the poll goes on', async () => {
    const trigger = await activated();
    trigger.staticData.lease = { token: 'ahead', until: Date.now() + 24 * 60 * 60_000 };
    const created = await createLinks(a(), 1, 'lease');
    expect(await trigger.poll()).toEqual(created);
    expect(trigger.staticData.lease).toBeUndefined();
    expect(warnings).toEqual([expect.stringMatching(/lease.*clock ran ahead.*repaired$/)]);
  });

  it.each([
    ['a string', 'stuck'],
    ['a number of the wrong kind', 1.5],
    ['an object', { n: 3 }],
  ])('a generation counter that is %s is reset with a log line, and events go on', async (_what, generation) => {
    const trigger = await activated();
    trigger.staticData.generation = generation;
    const created = await createLinks(a(), 1, 'generation');
    expect(await trigger.poll()).toEqual(created);
    const later = await createLinks(a(), 1, 'generation-later');
    expect(await trigger.poll()).toEqual(later);
    expect(warnings).toEqual([expect.stringMatching(/generation is not a whole number; repaired$/)]);
  });

  it.each([
    ['a lease that is not an object', { lease: 'x' }],
    ['a lease without a time', { lease: { token: 't', until: 'later' } }],
  ])('%s is dropped with a log line', async (_what, patch) => {
    const trigger = await activated();
    Object.assign(trigger.staticData, patch);
    const created = await createLinks(a(), 1, 'lease-shape');
    expect(await trigger.poll()).toEqual(created);
    expect(warnings).toEqual([expect.stringMatching(/lease is not a lease; repaired$/)]);
  });

  const badStates: Array<[string, INodeParameters, unknown]> = [
    ['New Link: a text', { event: 'newLink' }, 'garbage'],
    ['New Link: a list', { event: 'newLink' }, []],
    ['New Link: a floor that is not a number, with known ids as a list', { event: 'newLink' }, { floorId: '5', known: [1, 2] }],
    [
      'New Link: fields of the wrong type',
      { event: 'newLink' },
      { floorId: 3, known: 'x', top: 5, topSeenAt: 'now', topSettled: 1, pages: -1, deepTop: null, deepReadAt: 0 },
    ],
    ['New QR Code: null', { event: 'newQrCode' }, null],
    ['Link Clicks: counts that are not a map', { event: 'newLinkClicks' }, { counts: null, unseen: {} }],
    ['Link Clicks: counts that are text', { event: 'newLinkClicks' }, { counts: { 1: 'many' }, unseen: {} }],
    ['Click Threshold: ids that are not a list', { event: 'linkClickThreshold', threshold: 1 }, { above: 'all', droppedAfterFiring: [] }],
  ];

  it.each(badStates)(
    'a state of the wrong shape (%s) gives way to a quiet baseline with a log line; old links are not emitted again',
    async (_what, parameters, state) => {
      const trigger = await activated(parameters);
      trigger.staticData.state = state as IDataObject;
      const firstPoll = await trigger.poll();
      expect(firstPoll).toEqual([]);
      expect(warnings).toEqual([expect.stringMatching(/state is not one this event keeps, so a new baseline is taken; repaired$/)]);
      expect(await trigger.poll()).toEqual([]);
      if (parameters.event === 'newLink') {
        const created = await createLinks(a(), 2, 'after-repair');
        expect(await trigger.poll()).toEqual(created);
      }
    },
  );
});
