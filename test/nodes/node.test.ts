import { NodeApiError, NodeOperationError, type INodeExecutionData, type INodeParameters } from 'n8n-workflow';
import type { Statistics } from '@linkshort/client';
import { clickChart } from '@linkshort/client/charts';
import { startSandbox, type Sandbox } from '@linkshort/sandbox';
import { executeNode, loadOptions, sentRequests, type Credentials } from './harness';

let sandbox: Sandbox;
let user: Credentials;
let admin: Credentials;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 10_000, windowMs: 60_000 } });
  user = { baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey };
  admin = { baseUrl: sandbox.baseUrl, apiKey: sandbox.adminKey };
});
afterAll(() => sandbox.close());

const run = (
  credentials: Credentials,
  parameters: INodeParameters,
  input?: INodeExecutionData[],
  options?: { continueOnFail?: boolean; typeVersion?: number },
) => executeNode(credentials, parameters, input, options);
const json = (items: INodeExecutionData[]) => items.map((item) => item.json);

function expectNoKey(value: unknown) {
  const text =
    JSON.stringify(value) + (value instanceof Error ? `${value.message} ${(value as { description?: string }).description ?? ''} ${value.stack ?? ''}` : '');
  expect(text).not.toContain(sandbox.userKey);
  expect(text).not.toContain(sandbox.adminKey);
}

describe('LinkShort node through n8n-core', () => {
  it("sends the key only as the credential's Authorization header", async () => {
    sentRequests.length = 0;
    await run(user, { resource: 'account', operation: 'get' });
    expect(sentRequests).toHaveLength(1);
    expect(sentRequests[0]!.headers).toMatchObject({ Authorization: `Bearer ${sandbox.userKey}` });
  });

  it('account: get and update', async () => {
    const [account] = json(await run(user, { resource: 'account', operation: 'get' }));
    expect(account).toMatchObject({ username: 'demo', email: 'demo@example.com' });
    const [updated] = json(await run(user, { resource: 'account', operation: 'update', updateFields: { email: 'demo@example.com' } }));
    expect(updated).toEqual({ updated: true, message: 'Account has been successfully updated.' });
  });

  it('domain: create, get many, update, delete', async () => {
    const [created] = json(
      await run(user, {
        resource: 'domain',
        operation: 'create',
        domain: 'https://node.brand.example',
        additionalFields: { redirectroot: 'https://brand.example' },
      }),
    );
    expect(created).toEqual({ id: expect.any(Number), domain: 'https://node.brand.example', redirectroot: 'https://brand.example' });
    const id = created!.id as number;
    expect(json(await run(user, { resource: 'domain', operation: 'update', id, updateFields: { redirect404: 'https://brand.example/404' } }))).toEqual([
      { id, updated: true, message: expect.any(String) },
    ]);
    const all = json(await run(user, { resource: 'domain', operation: 'getMany', returnAll: true }));
    expect(all).toContainEqual({ id, domain: 'https://node.brand.example', redirectroot: 'https://brand.example', redirect404: 'https://brand.example/404' });
    expect(json(await run(user, { resource: 'domain', operation: 'delete', id }))).toEqual([{ id, deleted: true, message: expect.any(String) }]);
  });

  it('splash pages and CTA overlays: get many', async () => {
    expect(json(await run(user, { resource: 'splashPage', operation: 'getMany', returnAll: true }))).toEqual([
      {
        id: expect.any(Number),
        name: 'demo promo splash',
        date: expect.any(String),
        dateIso: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/),
      },
    ]);
    expect(json(await run(user, { resource: 'overlay', operation: 'getMany', limit: 1 }))).toHaveLength(1);
  });

  // Nodes saved at 1.1 keep the names of what was sent; link-outputs.test.ts has 1.2's.
  it('link (version 1.1): create with every option from the form, get, update, get many by clicks, delete', async () => {
    const [overlay] = (await loadOptions(user, 'getRedirectTypes')).filter((option) => String(option.value).startsWith('overlay-'));
    const [created] = json(
      await run(
        user,
        {
          resource: 'link',
          operation: 'create',
          url: 'https://example.com/from-n8n',
          additionalFields: {
            custom: 'from-n8n',
            type: overlay!.value,
            password: 'pw',
            expiry: '2099-06-01T12:30:00',
            geotarget: { targets: [{ location: 'Canada', link: 'https://example.ca' }] },
            devicetarget: { targets: [{ device: 'iPhone', link: 'https://apple.example.com' }] },
            parameters: { parameters: [{ name: 'utm_source', value: 'n8n' }] },
            metatitle: 'From n8n',
            metadescription: 'Made by a workflow',
          },
        },
        undefined,
        { typeVersion: 1.1 },
      ),
    );
    expect(created).toEqual({
      id: expect.any(Number),
      shorturl: `${sandbox.baseUrl}/from-n8n`,
      alias: 'from-n8n',
      longurl: 'https://example.com/from-n8n',
      type: overlay!.value,
      expiry: '2099-06-01 12:30:00',
      expiryIso: '2099-06-01T12:30:00+00:00',
      geotarget: [{ location: 'Canada', link: 'https://example.ca' }],
      devicetarget: [{ device: 'iPhone', link: 'https://apple.example.com' }],
      parameters: [{ name: 'utm_source', value: 'n8n' }],
      metatitle: 'From n8n',
      metadescription: 'Made by a workflow',
      passwordProtected: true,
    });
    expect(JSON.stringify(created)).not.toContain('"pw"');
    const id = created!.id as number;
    const record = sandbox.store.state.links.find((link) => link.id === id)!;
    expect(record).toMatchObject({ type: overlay!.value, expiry: '2099-06-01 12:30:00', password: 'pw', parameters: [{ name: 'utm_source', value: 'n8n' }] });

    const got = await run(user, { resource: 'link', operation: 'get', id, simplify: false });
    expect(got).toHaveLength(1);
    expect(got[0]!.json).toMatchObject({
      details: { id, longurl: 'https://example.com/from-n8n', location: { canada: 'https://example.ca' } },
      stats: { clicks: 0, topCountries: {} },
    });

    expect(
      json(
        await run(user, { resource: 'link', operation: 'update', id, url: 'https://example.com/changed', updateFields: { type: 'frame' } }, undefined, {
          typeVersion: 1.1,
        }),
      ),
    ).toEqual([{ id, shorturl: `${sandbox.baseUrl}/from-n8n`, alias: 'from-n8n', longurl: 'https://example.com/changed', type: 'frame' }]);
    const byClicks = json(await run(user, { resource: 'link', operation: 'getMany', order: 'click', limit: 2 }));
    expect(byClicks.map((link) => link.alias)).toEqual(['n8n', 'raycast']);
    expect(json(await run(user, { resource: 'link', operation: 'delete', id }))).toEqual([{ id, deleted: true, message: expect.any(String) }]);
  });

  it('Simplify (on for new nodes): Get returns one flat item with top lists sorted by count; Get Many flat list items', async () => {
    const link = sandbox.store.state.links.find((candidate) => candidate.userId === 2 && candidate.alias === 'raycast')!;
    const [simple] = json(await run(user, { resource: 'link', operation: 'get', id: link.id }));
    expect(Object.keys(simple!)).toEqual([
      'id',
      'alias',
      'shorturl',
      'longurl',
      'title',
      'description',
      'clicks',
      'uniqueClicks',
      'topCountries',
      'topReferrers',
      'topBrowsers',
      'topOs',
      'expiry',
      'date',
      'dateIso',
    ]);
    expect(simple).toMatchObject({ id: link.id, alias: 'raycast', shorturl: `${sandbox.baseUrl}/raycast`, longurl: link.url, clicks: link.stats.clicks });
    const countries = simple!.topCountries as Array<{ name: string; count: number }>;
    expect(countries.length).toBeGreaterThan(1);
    expect(countries.map((entry) => entry.count)).toEqual([...countries.map((entry) => entry.count)].sort((a, b) => b - a));
    expect(countries[0]).toEqual({ name: expect.any(String), count: expect.any(Number) });
    const many = json(await run(user, { resource: 'link', operation: 'getMany', order: 'click', limit: 2 }));
    expect(many.map((item) => Object.keys(item))).toEqual([
      ['id', 'alias', 'shorturl', 'longurl', 'title', 'clicks', 'date', 'dateIso'],
      ['id', 'alias', 'shorturl', 'longurl', 'title', 'clicks', 'date', 'dateIso'],
    ]);
    const [qr] = json(await run(user, { resource: 'qrCode', operation: 'getMany', limit: 1 }));
    const [qrSimple] = json(await run(user, { resource: 'qrCode', operation: 'get', id: qr!.id as number }));
    expect(Object.keys(qrSimple!)).toEqual([
      'id',
      'name',
      'link',
      'scans',
      'clicks',
      'uniqueClicks',
      'topCountries',
      'topReferrers',
      'topBrowsers',
      'topOs',
      'date',
      'dateIso',
    ]);
  });

  it("Simplify lists equal counts in the client's one order, the chart's (by name in code unit order, the same on every host), not by the host's locale", async () => {
    const created = (await (
      await fetch(`${sandbox.baseUrl}/api/url/add`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sandbox.userKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'https://example.com/tied-n8n', custom: 'tied-n8n' }),
      })
    ).json()) as { id: number };
    for (const [index, country] of ['AX', 'AX', 'ZM', 'ZM', 'JP'].entries()) {
      await (await fetch(`${sandbox.baseUrl}/tied-n8n`, { redirect: 'manual', headers: { 'cf-ipcountry': country, 'user-agent': `tied-${index}` } })).text();
    }
    const [simple] = json(await run(user, { resource: 'link', operation: 'get', id: created.id }));
    expect(simple!.topCountries).toEqual([
      { name: 'Zambia', count: 2 },
      { name: 'Åland Islands', count: 2 },
      { name: 'Japan', count: 1 },
    ]);
    const [raw] = json(await run(user, { resource: 'link', operation: 'get', id: created.id, simplify: false }));
    expect(clickChart((raw as { stats: Statistics }).stats).description).toContain('Top countries: Zambia 2, Åland Islands 2, Japan 1.');
  });

  it("Simplify off, and nodes of version 1 (saved before Simplify), return the API's shape", async () => {
    const link = sandbox.store.state.links.find((candidate) => candidate.userId === 2 && candidate.alias === 'raycast')!;
    const off = json(await run(user, { resource: 'link', operation: 'get', id: link.id, simplify: false }));
    const version1 = json(await executeNode(user, { resource: 'link', operation: 'get', id: link.id }, undefined, { typeVersion: 1 }));
    for (const [item] of [off, version1]) expect(Object.keys(item!)).toEqual(['details', 'stats']);
    expect(version1).toEqual(off);
    const [listed] = json(await executeNode(user, { resource: 'link', operation: 'getMany', limit: 1 }, undefined, { typeVersion: 1 }));
    expect(listed).toHaveProperty('description');
  });

  it("dates: ISO strings, n8n DateTime values, the API's own format and the date picker's value are written in the workflow's time zone", async () => {
    const cases: Array<[string, string, string]> = [
      ['2099-06-01T12:30:00', 'Europe/Paris', '2099-06-01 12:30:00'],
      ['2099-06-01T12:30:00+00:00', 'Europe/Paris', '2099-06-01 14:30:00'],
      ['2099-06-01T12:30:00.000Z', 'America/New_York', '2099-06-01 08:30:00'],
      ['2099-06-01 12:30:00', 'Asia/Tokyo', '2099-06-01 12:30:00'],
      ['2099-06-01', 'UTC', '2099-06-01 00:00:00'],
      ["={{ DateTime.fromISO('2099-06-01T12:30:00Z') }}", 'Europe/Paris', '2099-06-01 14:30:00'],
      ["={{ $now.setZone('UTC').set({ year: 2099, month: 6, day: 1, hour: 12, minute: 30, second: 0 }) }}", 'Asia/Tokyo', '2099-06-01 21:30:00'],
    ];
    for (const [expiry, timezone, expected] of cases) {
      const [created] = json(
        await executeNode(user, { resource: 'link', operation: 'create', url: 'https://example.com/dated', additionalFields: { expiry } }, undefined, {
          timezone,
        }),
      );
      const stored = sandbox.store.state.links.find((link) => link.id === created!.id)!;
      expect({ expiry, timezone, stored: stored.expiry, output: created!.expiry }).toEqual({ expiry, timezone, stored: expected, output: expected });
    }
    const before = sandbox.requests.length;
    const error = await run(user, {
      resource: 'link',
      operation: 'create',
      url: 'https://example.com/dated',
      additionalFields: { expiry: 'next tuesday' },
    }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^Expiry: /);
    expect(sandbox.requests.length).toBe(before);
  });

  it("link: Return All reads every page through the client's iterator; Limit reads only what it needs", async () => {
    const base = sandbox.store.state.links.filter((link) => link.userId === 2).length;
    for (let i = 0; i < 230 - base; i += 1) await run(user, { resource: 'link', operation: 'create', url: `https://example.com/many/${i}` });
    const before = sandbox.requests.length;
    const all = await run(user, { resource: 'link', operation: 'getMany', returnAll: true });
    expect(all).toHaveLength(230);
    expect(new Set(all.map((item) => item.json.id)).size).toBe(230);
    expect(sandbox.requests.slice(before).map((r) => r.query)).toEqual([
      '?limit=100&order=date&page=1',
      '?limit=100&order=date&page=2',
      '?limit=100&order=date&page=3',
    ]);
    const limited = await run(user, { resource: 'link', operation: 'getMany', limit: 120 });
    expect(limited).toHaveLength(120);
    expect(all.every((item) => item.pairedItem && (item.pairedItem as { item: number }).item === 0)).toBe(true);
  });

  it('pixel: create, get many, update, delete', async () => {
    const [created] = json(await run(user, { resource: 'pixel', operation: 'create', type: 'snapchat', name: 'Snap', tag: 'SNAP-1' }));
    const id = created!.id as number;
    expect(created).toEqual({ id, type: 'snapchat', name: 'Snap', tag: 'SNAP-1' });
    await run(user, { resource: 'pixel', operation: 'update', id, tag: 'SNAP-2', updateFields: { name: 'Snapchat' } });
    expect(json(await run(user, { resource: 'pixel', operation: 'getMany', returnAll: true }))).toContainEqual({
      id,
      type: 'snapchat',
      name: 'Snapchat',
      tag: 'SNAP-2',
      date: expect.any(String),
      dateIso: expect.stringMatching(/\+00:00$/),
    });
    expect(json(await run(user, { resource: 'pixel', operation: 'delete', id }))[0]).toMatchObject({ deleted: true });
  });

  it('QR code: create each type from its fields, get, update, get many, delete', async () => {
    const cases: INodeParameters[] = [
      { qrType: 'text', text: 'Hello' },
      { qrType: 'link', link: 'https://example.com/menu' },
      { qrType: 'phone', phone: '+1 555 010 0100' },
      { qrType: 'email', email: 'ada@example.com', subject: 'Hi' },
      { qrType: 'sms', smsPhone: '+15550100', message: 'Hi' },
      { qrType: 'wifi', ssid: 'Cafe', wifiPassword: 'espresso', encryption: 'WPA' },
      { qrType: 'vcard', vcard: { firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.com' } },
    ];
    const ids: number[] = [];
    for (const fields of cases) {
      const [created] = json(
        await run(user, {
          resource: 'qrCode',
          operation: 'create',
          ...fields,
          additionalFields: { name: `QR ${String(fields.qrType)}`, foreground: '#102030' },
        }),
      );
      expect(created).toEqual({
        id: expect.any(Number),
        link: expect.stringMatching(/\/qr\/[a-f0-9]{6}$/),
        type: fields.qrType,
        data: expect.anything(),
        name: `QR ${String(fields.qrType)}`,
        foreground: 'rgb(16,32,48)',
      });
      ids.push(created!.id as number);
    }
    const wifi = sandbox.store.state.qrs.find((qr) => qr.id === ids[5]);
    expect(wifi).toMatchObject({ data: { ssid: 'Cafe', password: 'espresso', encryption: 'WPA' }, foreground: 'rgb(16,32,48)', name: 'QR wifi' });
    const [got] = json(await run(user, { resource: 'qrCode', operation: 'get', id: ids[0]!, simplify: false }));
    expect(got).toMatchObject({ details: { id: ids[0], scans: 0 }, stats: { clicks: 0 } });
    expect(json(await run(user, { resource: 'qrCode', operation: 'update', id: ids[0]!, qrType: 'text', text: 'Changed' }))[0]).toEqual({
      id: ids[0],
      updated: true,
      message: expect.any(String),
      type: 'text',
      data: 'Changed',
    });
    expect(json(await run(user, { resource: 'qrCode', operation: 'getMany', returnAll: true })).map((qr) => qr.id)).toEqual(expect.arrayContaining(ids));
    expect(json(await run(user, { resource: 'qrCode', operation: 'delete', id: ids[0]! }))[0]).toMatchObject({ deleted: true });
  });

  it('plan: get many and subscribe user (admin)', async () => {
    expect(json(await run(admin, { resource: 'plan', operation: 'getMany', returnAll: true })).map((plan) => plan.name)).toEqual(['Free', 'Pro']);
    const [subscribed] = json(
      await run(admin, {
        resource: 'plan',
        operation: 'subscribe',
        planId: 1,
        userId: 2,
        type: 'yearly',
        additionalFields: { expiration: '2030-01-01T00:00:00' },
      }),
    );
    expect(subscribed).toMatchObject({ planId: 1, userId: 2, type: 'yearly', expiration: '2030-01-01 00:00:00', subscribed: true });
    await run(admin, { resource: 'plan', operation: 'subscribe', planId: 2, userId: 2, type: 'lifetime' });
  });

  it('user: create, get, get many with filters, get login link, delete (admin)', async () => {
    const [created] = json(
      await run(admin, {
        resource: 'user',
        operation: 'create',
        username: 'n8nuser',
        email: 'n8n@example.com',
        password: 'secret',
        additionalFields: { planid: 2 },
      }),
    );
    expect(created).toEqual({ id: expect.any(Number), email: 'n8n@example.com', username: 'n8nuser' });
    const id = created!.id as number;
    expect(json(await run(admin, { resource: 'user', operation: 'get', id }))[0]).toMatchObject({ id, username: 'n8nuser', planid: 2 });
    expect(json(await run(admin, { resource: 'user', operation: 'getMany', returnAll: true, filters: { email: 'n8n@' } })).map((u) => u.id)).toEqual([id]);
    const admins = json(await run(admin, { resource: 'user', operation: 'getMany', returnAll: true, filters: { filter: 'admin' } }));
    expect(admins.map((u) => u.username)).toEqual(['admin']);
    // The administrator's own entry carries the key this node signs with: never in an output.
    expect(admins[0]!.apikey).toBe('[redacted]');
    expect(JSON.stringify(json(await run(admin, { resource: 'user', operation: 'getMany', returnAll: true })))).not.toContain(sandbox.adminKey);
    expect(json(await run(admin, { resource: 'user', operation: 'get', id: 1 }))[0]!.apikey).toBe('[redacted]');
    const otherKey = json(await run(admin, { resource: 'user', operation: 'get', id }))[0]!.apikey;
    expect(typeof otherKey === 'string' && otherKey.length >= 16 && otherKey !== '[redacted]').toBe(true);
    const [login] = json(await run(admin, { resource: 'user', operation: 'getLoginLink', id }));
    expect(login!.url).toMatch(/\/user\/login\/sso\/[a-f0-9]+$/);
    expect(json(await run(admin, { resource: 'user', operation: 'delete', id }))[0]).toMatchObject({ deleted: true });
  });

  it('runs once per input item and pairs each output with its item', async () => {
    const input = [{ json: { url: 'https://example.com/a' } }, { json: { url: 'https://example.com/b' } }];
    const output = await run(user, { resource: 'link', operation: 'create', url: '={{ $json.url }}' }, input);
    expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
    expect(new Set(output.map((item) => item.json.shorturl)).size).toBe(2);
  });

  it('load options: domains and redirect types from the account', async () => {
    expect(await loadOptions(user, 'getDomains')).toEqual(
      expect.arrayContaining([
        { name: expect.stringMatching(/^Default/), value: '' },
        { name: 'https://go.demo.example', value: 'https://go.demo.example' },
      ]),
    );
    const types = (await loadOptions(user, 'getRedirectTypes')).map((option) => option.name);
    expect(types.slice(0, 3)).toEqual(['Direct', 'Frame', 'Splash']);
    expect(types).toEqual(expect.arrayContaining(['Splash Page: demo promo splash', 'CTA Overlay: demo newsletter']));
  });
});

describe('LinkShort node errors', () => {
  const invalid: Array<[string, INodeParameters, string]> = [
    ['account', { resource: 'account', operation: 'update', updateFields: { password: '123' } }, 'Password: must be at least 5 characters'],
    ['domain', { resource: 'domain', operation: 'create', domain: 'brand.example' }, 'Domain: '],
    [
      'link',
      { resource: 'link', operation: 'create', url: 'not a url', additionalFields: { custom: 'a' } },
      'URL: must be a valid http or https URL; Custom Alias: must be 3 to 50 letters, digits or hyphens',
    ],
    ['pixel', { resource: 'pixel', operation: 'create', type: 'gtmpixel', name: '', tag: 'x' }, 'Name: '],
    ['qrCode', { resource: 'qrCode', operation: 'create', qrType: 'wifi', ssid: '' }, 'Network Name (SSID): '],
    ['qrCode vCard', { resource: 'qrCode', operation: 'create', qrType: 'vcard', vcard: { firstname: 'Ada', email: 'not-an-address' } }, 'Contact: Email: '],
    [
      'link geo-targeting',
      {
        resource: 'link',
        operation: 'create',
        url: 'https://example.com',
        additionalFields: { geotarget: { targets: [{ location: 'Canada', link: 'nope' }] } },
      },
      'Geo-Targeting 1: Link: ',
    ],
    ['plan', { resource: 'plan', operation: 'subscribe', planId: 0, userId: 2, type: 'monthly' }, 'Plan: '],
    ['user', { resource: 'user', operation: 'create', username: 'x', email: 'bad', password: '1' }, 'Username: '],
    ['link id', { resource: 'link', operation: 'get', id: 0 }, 'Link: '],
  ];

  it.each(invalid)(
    '%s: bad input is one NodeOperationError message naming the field as the node shows it, and nothing is sent',
    async (_name, parameters, expected) => {
      const before = sandbox.requests.length;
      const input = [{ json: {} }, { json: {} }];
      const error = await run(admin, parameters, input).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NodeOperationError);
      const { message, description } = error as NodeOperationError;
      expect(message).toContain(expected);
      expect(message).not.toMatch(/invalid input|^[a-zA-Z]+\.[a-zA-Z]+:/);
      expect(description ?? '').toBe('');
      expect((error as NodeOperationError).context.itemIndex).toBe(0);
      expect(sandbox.requests.length).toBe(before);
      expectNoKey(error);
    },
  );

  it('Custom API Call, which n8n adds to Resource and Operation, says to use the HTTP Request node with this credential', async () => {
    for (const parameters of [{ resource: '__CUSTOM_API_CALL__' }, { resource: 'link', operation: '__CUSTOM_API_CALL__' }]) {
      const error = await run(user, parameters).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NodeOperationError);
      expect((error as NodeOperationError).message).toBe('Custom API Call is made with the HTTP Request node');
      expect((error as NodeOperationError).description).toContain('"LinkShort API"');
    }
  });

  it("a server error is a NodeApiError with the server's message", async () => {
    const error = await run(user, { resource: 'link', operation: 'create', url: 'https://example.com/x', additionalFields: { custom: 'n8n' } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NodeApiError);
    expect((error as NodeApiError).message).toBe('That alias is taken. Please choose another one.');
    expectNoKey(error);
  });

  it('a permission error from an admin operation is a NodeApiError with HTTP 403', async () => {
    const error = await run(user, { resource: 'user', operation: 'getMany', returnAll: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeApiError);
    expect((error as NodeApiError).httpCode).toBe('403');
    expectNoKey(error);
  });

  it('Continue On Fail puts the error on the item and goes on', async () => {
    const input = [{ json: { alias: 'n8n' } }, { json: { alias: 'fresh-alias-1' } }, { json: { alias: 'x' } }];
    const output = await run(
      user,
      { resource: 'link', operation: 'create', url: 'https://example.com/cof', additionalFields: { custom: '={{ $json.alias }}' } },
      input,
      { continueOnFail: true },
    );
    expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
    expect(output[0]!.json).toEqual({ error: 'That alias is taken. Please choose another one.' });
    expect(output[1]!.json).toMatchObject({ shorturl: `${sandbox.baseUrl}/fresh-alias-1` });
    expect(output[2]!.json.error).toBe('Custom Alias: must be 3 to 50 letters, digits or hyphens');
    expectNoKey(output);
  });

  it('a wrong key fails with an authentication NodeApiError that does not carry the key', async () => {
    const wrong = { baseUrl: sandbox.baseUrl, apiKey: 'f'.repeat(32) };
    const error = await run(wrong, { resource: 'account', operation: 'get' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeApiError);
    expect((error as NodeApiError).message).toBe('A valid API key is required to use this service.');
    expect(JSON.stringify(error)).not.toContain('f'.repeat(32));
  });

  it('an unreachable server is a NodeApiError, after retries for reads', async () => {
    const closed = await startSandbox();
    const offline = { baseUrl: closed.baseUrl, apiKey: closed.userKey };
    await closed.close();
    const error = await run(offline, { resource: 'account', operation: 'get' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeApiError);
    // n8n words connection failures itself: "The service refused the connection - perhaps it is offline".
    expect((error as NodeApiError).message).toMatch(/refused the connection|Could not reach the server/);
    expectNoKey(error);
  });
});
