/**
 * Pick, don't type: every ID parameter of the built LinkShort node is a resource locator ("From
 * list", "By ID", and for links and QR codes "By URL"), each mode runs through n8n-core, old
 * workflows that stored a plain number still run, and each "From list" method filters and pages
 * (against a sandbox account of 10,000 links).
 */
import { NodeOperationError, type INodeListSearchResult, type INodeParameterResourceLocator } from 'n8n-workflow';
import { startSandbox, type Sandbox } from '@linkshort/sandbox';
import { executeNode, linkShortDescription, listSearch, listSearchMethods, type Credentials } from './harness';

let sandbox: Sandbox;
let user: Credentials;
let admin: Credentials;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowMs: 60_000 } });
  user = { baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey };
  admin = { baseUrl: sandbox.baseUrl, apiKey: sandbox.adminKey };
});
afterAll(() => sandbox.close());

const ID_PARAMETERS = new Set(['id', 'planId', 'userId']);

describe('resource locators in the built description', () => {
  const locators = linkShortDescription.properties.filter((property) => ID_PARAMETERS.has(property.name));

  it('every ID parameter is a resource locator: From List (searchable), By ID, and By URL for links and QR codes', () => {
    expect(locators.length).toBe(15);
    for (const locator of locators) {
      const where = `${locator.displayOptions?.show?.resource?.[0]} ${locator.displayOptions?.show?.operation?.[0]} ${locator.name}`;
      const modes = (locator.modes ?? []).map((mode) => mode.name);
      const byUrl = ['link', 'qrCode'].includes(String(locator.displayOptions?.show?.resource?.[0])) && locator.name === 'id';
      expect({ where, type: locator.type, modes }).toEqual({ where, type: 'resourceLocator', modes: byUrl ? ['list', 'id', 'url'] : ['list', 'id'] });
      const list = (locator.modes ?? []).find((mode) => mode.name === 'list')!;
      expect(list.typeOptions).toMatchObject({ searchable: true });
      expect(listSearchMethods).toContain(list.typeOptions?.searchListMethod);
    }
  });
});

const rl = (mode: string, value: string): INodeParameterResourceLocator => ({ __rl: true, mode, value });

describe('each locator mode runs', () => {
  const getLink = (id: INodeParameterResourceLocator | number) => executeNode(user, { resource: 'link', operation: 'get', id });

  it('a link by From List, By ID, By URL (short URL or alias), and as the plain number old workflows stored', async () => {
    const link = sandbox.store.state.links.find((candidate) => candidate.userId === 2 && candidate.alias === 'n8n')!;
    const shorturl = `${sandbox.baseUrl}/n8n`;
    for (const id of [
      rl('list', String(link.id)),
      rl('id', ` ${link.id} `),
      rl('url', shorturl),
      rl('url', `${shorturl}/`.replace('http://', 'https://')),
      rl('url', 'n8n'),
      link.id,
    ]) {
      const [item] = await getLink(id);
      expect({ id, got: item!.json.id }).toEqual({ id, got: link.id });
    }
  });

  it('a QR code by its URL or code, and an unknown short URL says what was not found', async () => {
    const qr = sandbox.store.state.qrs.find((candidate) => candidate.userId === 2)!;
    const link = `${sandbox.baseUrl}/qr/${qr.code}`;
    for (const value of [link, qr.code]) {
      const [item] = await executeNode(user, { resource: 'qrCode', operation: 'get', id: rl('url', value) });
      expect(item!.json.id).toBe(qr.id);
    }
    const error = await getLink(rl('url', `${sandbox.baseUrl}/no-such-alias`)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeOperationError);
    expect((error as Error).message).toBe(`No link has the short URL or alias "${sandbox.baseUrl}/no-such-alias"`);
  });

  it('a wrong ID names the field as the node shows it', async () => {
    const error = await getLink(rl('id', 'abc')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeOperationError);
    expect((error as Error).message).toMatch(/^Link: /);
  });

  it('plan Subscribe User with a plan and a user picked from lists (admin)', async () => {
    const [plan] = (await listSearch(admin, 'searchPlans', 'pro')).results;
    const [member] = (await listSearch(admin, 'searchUsers', 'demo')).results;
    const [subscribed] = await executeNode(admin, {
      resource: 'plan',
      operation: 'subscribe',
      planId: rl('list', String(plan!.value)),
      userId: rl('list', String(member!.value)),
      type: 'monthly',
    });
    expect(subscribed!.json).toMatchObject({ planId: Number(plan!.value), userId: Number(member!.value), subscribed: true });
  });
});

describe('From List methods', () => {
  it('each lists its records, named as a person recognises them, and filters on those names', async () => {
    const cases: Array<[Credentials, string, string, RegExp]> = [
      [user, 'searchLinks', 'raycast', /\/raycast/],
      [user, 'searchQrCodes', '', /\/qr\//],
      [user, 'searchDomains', 'go.demo', /go\.demo\.example/],
      [user, 'searchPixels', '', /./],
      [admin, 'searchUsers', 'demo@', /^demo <demo@example\.com>$/],
      [admin, 'searchPlans', 'Pro', /^Pro$/],
    ];
    for (const [credentials, method, filter, name] of cases) {
      const { results, paginationToken } = await listSearch(credentials, method, filter);
      expect({ method, some: results.length > 0, token: paginationToken }).toEqual({ method, some: true, token: undefined });
      for (const result of results) expect({ method, name: result.name }).toEqual({ method, name: expect.stringMatching(name) });
      expect(results.every((result) => /^\d+$/.test(String(result.value)))).toBe(true);
    }
    expect((await listSearch(user, 'searchLinks', 'no link has this text')).results).toEqual([]);
  });

  describe('in an account of 10,000 links (searched from the link index, not page by page)', () => {
    let big: Sandbox;
    let owner: Credentials;
    let oldest: { id: number; alias: string };
    beforeAll(async () => {
      big = await startSandbox({ seed: { links: 10_000 }, rateLimit: { limit: 100_000, windowMs: 60_000 } });
      owner = { baseUrl: big.baseUrl, apiKey: big.userKey };
      const record = big.store.state.links.filter((link) => link.userId === 2).reduce((a, b) => (a.id < b.id ? a : b));
      record.metatitle = 'The needle';
      oldest = { id: record.id, alias: record.alias };
    });
    afterAll(() => big.close());
    const apiRequests = (from: number) => big.requests.slice(from).filter((request) => request.path.startsWith('/api/')).length;

    it('without a search text, each call shows 50 links, newest first, reads at most 3 pages, and its tokens reach every link', async () => {
      const calls: INodeListSearchResult[] = [];
      let token: string | undefined;
      do {
        const before = big.requests.length;
        const result = await listSearch(owner, 'searchLinks', undefined, token);
        expect(apiRequests(before)).toBeLessThanOrEqual(4);
        calls.push(result);
        token = result.paginationToken;
      } while (token !== undefined && calls.length < 400);
      const ids = calls.flatMap((call) => call.results.map((result) => Number(result.value)));
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBeGreaterThanOrEqual(10_000);
      expect(calls[0]!.results).toHaveLength(50);
      expect(calls.at(-1)!.paginationToken).toBeUndefined();
    });

    it('typing spends no request and finds the oldest link by a word of its title, its alias or its short URL with a query', async () => {
      const before = big.requests.length;
      for (const filter of ['t', 'th', 'the', 'the ne', 'the needle']) await listSearch(owner, 'searchLinks', filter);
      expect(apiRequests(before)).toBeLessThanOrEqual(1);
      for (const filter of ['the needle', oldest.alias.toUpperCase(), `${big.baseUrl}/${oldest.alias}/?utm_source=x`]) {
        const { results } = await listSearch(owner, 'searchLinks', filter);
        expect({ filter, first: results[0]?.value }).toEqual({ filter, first: String(oldest.id) });
      }
    });

    it('By URL resolves from the index: three items, one lookup each, no scan', async () => {
      const before = big.requests.length;
      const items = await executeNode(owner, { resource: 'link', operation: 'get', id: rl('url', `${big.baseUrl}/${oldest.alias}`) }, [
        { json: {} },
        { json: {} },
        { json: {} },
      ]);
      expect(items.map((item) => item.json.id)).toEqual([oldest.id, oldest.id, oldest.id]);
      expect(big.requests.slice(before).filter((request) => request.path === '/api/urls')).toHaveLength(0);
    });
  });
});
