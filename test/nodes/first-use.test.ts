/**
 * What a person meets the first time, through the built nodes and n8n-core: the credential test's
 * answer for each mistake, why Reuse Existing Link made a new link, dates with their zone in every
 * output and trigger item, and the order and names the editor shows (the real editor: test/n8n/editor.mjs).
 */
import { createServer } from 'node:net';
import { DateTime } from 'luxon';
import { NodeApiError, type IDataObject, type INodeParameters, type INodeProperties, type INodePropertyOptions } from 'n8n-workflow';
import { LinkShortClient, NOT_REUSED } from '@linkshort/client';
import { startSandbox, type Sandbox } from '@linkshort/sandbox';
import { executeNode, linkShortDescription, poll, testCredential, type Credentials } from './harness';

/* eslint-disable @typescript-eslint/no-require-imports */
const { LinkShortTrigger } = require('../../nodes/dist/nodes/LinkShortTrigger/LinkShortTrigger.node.js') as {
  LinkShortTrigger: new () => { description: { description: string; properties: INodeProperties[] } };
};
const triggerDescription = new LinkShortTrigger().description;

let sandbox: Sandbox;
let user: Credentials;
beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowMs: 60_000 } });
  user = { baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey };
});
afterAll(() => sandbox.close());

/** A local port nothing listens on: one just let go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the credential test says what to fix', () => {
  it('a Base URL without https:// gets the address to write, not ERR_INVALID_URL, before any request', async () => {
    const before = sandbox.requests.length;
    const answer = await testCredential({ baseUrl: 'short.example.com', apiKey: sandbox.userKey });
    expect(answer).toEqual({ status: 'Error', message: 'Base URL must start with https:// (or http://): write https://short.example.com.' });
    expect(sandbox.requests.length).toBe(before);
  });

  it('a local Base URL without a scheme (the sandbox of npm start) gets http://, which it speaks, not https://', async () => {
    for (const address of ['127.0.0.1:8787', 'localhost:8787/', '192.168.1.20']) {
      const answer = await testCredential({ baseUrl: address, apiKey: sandbox.userKey });
      expect(answer.message).toBe(
        `Base URL must start with http:// or https://: write http://${address} (a service on this machine or network, such as the local sandbox, usually speaks plain http).`,
      );
    }
  });

  it('an unknown host is named, with what to check, not ENOTFOUND', async () => {
    const answer = await testCredential({ baseUrl: 'https://no-such-host.invalid', apiKey: sandbox.userKey });
    expect(answer).toEqual({
      status: 'Error',
      message: 'No server named no-such-host.invalid was found. Check the spelling of Base URL (such as https://short.example.com).',
    });
  });

  it('a closed port is named, with what to check, not ECONNREFUSED', async () => {
    const port = await closedPort();
    const answer = await testCredential({ baseUrl: `http://127.0.0.1:${port}`, apiKey: sandbox.userKey });
    expect(answer).toEqual({
      status: 'Error',
      message: `Nothing accepts connections at 127.0.0.1:${port}. Check the port in Base URL (leave it out for the usual one) and that the service is running.`,
    });
  });

  it('https:// before a service that speaks plain http (the local sandbox) says to write http://, not a bare "Could not reach"', async () => {
    const address = new URL(sandbox.baseUrl).host;
    const answer = await testCredential({ baseUrl: `https://${address}`, apiKey: sandbox.userKey });
    expect(answer).toEqual({
      status: 'Error',
      message: `The service at ${address} speaks plain http, not https: write http://${address} in Base URL.`,
    });
  });

  it('a local address without a scheme is known on every private network (Docker networks in 172.16.0.0/12, .local names)', async () => {
    for (const address of ['172.17.0.1:8787', '172.31.255.1', 'sandbox.local:8787']) {
      const answer = await testCredential({ baseUrl: address, apiKey: sandbox.userKey });
      expect(answer.message).toMatch(new RegExp(`^Base URL must start with http:// or https://: write http://${address.replace(/\./g, '\\.')} `));
    }
    const notPrivate = await testCredential({ baseUrl: '172.32.0.1', apiKey: sandbox.userKey });
    expect(notPrivate.message).toBe('Base URL must start with https:// (or http://): write https://172.32.0.1.');
  });

  it('a good credential passes (also with /api and trailing slashes); a wrong key or path says what to check, and the key never shows', async () => {
    expect(await testCredential(user)).toEqual({ status: 'OK', message: 'Connection successful' });
    expect((await testCredential({ ...user, baseUrl: `${sandbox.baseUrl}/api//` })).status).toBe('OK');
    const wrongKey = await testCredential({ ...user, apiKey: 'f'.repeat(32) });
    expect(wrongKey.message).toMatch(/^The service refused this API key\. Copy the key again/);
    expect(JSON.stringify(wrongKey)).not.toContain('f'.repeat(32));
    expect((await testCredential({ ...user, baseUrl: `${sandbox.baseUrl}/nothing-here` })).message).toMatch(
      /^No API answered at this Base URL\. Use the address/,
    );
  });
});

describe('Reuse Existing Link says why it made a new link', () => {
  const create = ({ reuse, ...additionalFields }: INodeParameters, url: string) =>
    executeNode(user, { resource: 'link', operation: 'create', url, additionalFields, ...(reuse === undefined ? {} : { options: { reuse } }) });

  // First: the node's link index is then new, as after a restart, and its first sync reads the link made elsewhere.
  it("with the alias of a link made before n8n started (or elsewhere): the error gives the reason beside the server's message", async () => {
    const url = 'https://example.com/first-use/made-elsewhere';
    await new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey }).links.create({ url, custom: 'made-elsewhere', password: 'x-secret' });
    const error = await create({ reuse: true, custom: 'made-elsewhere' }, url).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NodeApiError);
    expect((error as NodeApiError).message).toBe('That alias is taken. Please choose another one.');
    expect((error as NodeApiError).description).toBe(`Not reused: ${NOT_REUSED.unrecorded}.`);
  });

  // Issue 52: the workflow's record of the links it made keeps a password's scrypt hash.
  it('with a password: the same Create twice with an alias answers with the first link; another password makes a new link and says why', async () => {
    const url = 'https://example.com/first-use/locked';
    const [first] = await create({ reuse: true, password: 'secret-9', custom: 'first-use-locked' }, url);
    const [again] = await create({ reuse: true, password: 'secret-9', custom: 'first-use-locked' }, url);
    expect(again!.json).toMatchObject({ id: first!.json.id, reused: true });
    expect(again!.json.notReused).toBeUndefined();
    // Without an alias the service makes a new link, and the output says why it is not the first one.
    const [other] = await create({ reuse: true, password: 'secret-10' }, url);
    expect(other!.json).toMatchObject({ reused: false, notReused: NOT_REUSED.otherPassword });
    expect(other!.json.id).not.toBe(first!.json.id);
  });

  it('a link reused says nothing more; one with another title says which field differs', async () => {
    const url = 'https://example.com/first-use/titled';
    await create({ reuse: true, metatitle: 'Spring' }, url);
    const [again] = await create({ reuse: true, metatitle: 'Spring' }, url);
    expect(again!.json.reused).toBe(true);
    expect(again!.json.notReused).toBeUndefined();
    const [other] = await create({ reuse: true, metatitle: 'Autumn' }, url);
    expect(other!.json).toMatchObject({ reused: false, notReused: 'the link with this long URL has another title' });
  });

  it('a link made by Create with reuse off is reused by a later Create with reuse on, custom alias and all', async () => {
    const url = 'https://example.com/first-use/plain-first';
    const [plain] = await create({ custom: 'plain-first' }, url);
    const [reused] = await create({ reuse: true, custom: 'plain-first' }, url);
    expect(reused!.json).toMatchObject({ id: plain!.json.id, reused: true });
  });
});

describe('dates carry their zone', () => {
  const iso = (text: string, zone: string) =>
    DateTime.fromFormat(text, 'yyyy-MM-dd HH:mm:ss', { zone }).toISO({ suppressMilliseconds: true, includeOffset: true });

  it("Link Get, Simplify on and off, and Get Many: the server's text kept, its ISO 8601 with the workflow's offset beside it", async () => {
    const link = sandbox.store.state.links.find((candidate) => candidate.userId === 2)!;
    const zone = 'Europe/Berlin';
    const [simple] = await executeNode(user, { resource: 'link', operation: 'get', id: link.id }, undefined, { timezone: zone });
    expect(simple!.json.date).toBe(link.date);
    expect(simple!.json.dateIso).toBe(iso(link.date, zone));
    const [raw] = await executeNode(user, { resource: 'link', operation: 'get', id: link.id, simplify: false }, undefined, { timezone: zone });
    expect((raw!.json.details as IDataObject).dateIso).toBe(iso(link.date, zone));
    const many = await executeNode(user, { resource: 'link', operation: 'getMany', limit: 3 }, undefined, { timezone: 'America/New_York' });
    for (const item of many) expect(item.json.dateIso).toBe(iso(item.json.date as string, 'America/New_York'));
  });

  it('Link Create with an expiry: expiryIso in the zone the expiry was written in', async () => {
    // A summer's day a year or two after the real clock's year: always ahead, whatever day the test runs.
    const year = new Date().getUTCFullYear() + 2;
    const [made] = await executeNode(
      user,
      { resource: 'link', operation: 'create', url: 'https://example.com/first-use/expiring', additionalFields: { expiry: `${year}-07-01T09:30:00` } },
      undefined,
      { timezone: 'Asia/Kolkata' },
    );
    expect(made!.json).toMatchObject({ expiry: `${year}-07-01 09:30:00`, expiryIso: `${year}-07-01T09:30:00+05:30` });
  });

  it("the trigger's items: dateIso beside date", async () => {
    const { result } = await poll(user, { event: 'newLink' }, {}, 'manual', undefined, 'America/Los_Angeles');
    const item = result![0]![0]!.json;
    expect(item.dateIso).toBe(iso(item.date as string, 'America/Los_Angeles'));
  });
});

describe('the order and names the editor shows', () => {
  const property = (name: string, resource?: string) =>
    linkShortDescription.properties.find(
      (candidate) => candidate.name === name && (!resource || candidate.displayOptions?.show?.resource?.includes(resource)),
    )!;
  const optionNames = (found: INodeProperties) => (found.options as INodePropertyOptions[]).map((option) => option.name);

  it('Link is the first resource, Create ("Shorten a link") its first operation, and its operations the first in the description (the node creator\'s order)', () => {
    expect(optionNames(property('resource'))[0]).toBe('Link');
    const linkOperations = property('operation', 'link').options as INodePropertyOptions[];
    expect(linkOperations[0]).toMatchObject({ name: 'Create', action: 'Shorten a link' });
    expect(linkShortDescription.properties.find((candidate) => candidate.name === 'operation')!.displayOptions!.show!.resource).toEqual(['link']);
  });

  it("Create's Add Field: the UTM fields together in campaign order, Query Parameters says what it is, Redirect Type starts valid on Direct", () => {
    const fields = property('additionalFields', 'link').options as INodeProperties[];
    const labels = fields.map((field) => field.displayName);
    const firstUtm = labels.indexOf('UTM Source');
    expect(labels.slice(firstUtm, firstUtm + 5)).toEqual(['UTM Source', 'UTM Medium', 'UTM Campaign', 'UTM Term', 'UTM Content']);
    expect(labels).not.toContain('Parameters');
    expect(fields.find((field) => field.name === 'parameters')).toMatchObject({
      displayName: 'Query Parameters',
      description: expect.stringMatching(/destination URL's query/),
    });
    expect(fields.find((field) => field.name === 'type')).toMatchObject({ default: 'direct', typeOptions: { loadOptionsMethod: 'getRedirectTypes' } });
  });

  it("the trigger: the node creator's entry (n8n shows the trigger's description for both nodes) says what the actions do; one name per event", () => {
    expect(triggerDescription.description).toMatch(/^Shorten links/);
    const events = triggerDescription.properties.find((candidate) => candidate.name === 'event')!.options as INodePropertyOptions[];
    for (const event of events) expect(event.action).toBe(event.name);
  });

  it('the trigger: one plain notice per event, shown for that event only; QR Code Scanned speaks of QR codes only', () => {
    const notices = triggerDescription.properties.filter((candidate) => candidate.type === 'notice');
    const events = (triggerDescription.properties.find((candidate) => candidate.name === 'event')!.options as INodePropertyOptions[]).map(
      (option) => option.value,
    );
    expect(notices.map((notice) => notice.displayOptions!.show!.event)).toEqual(expect.arrayContaining(events.map((event) => [event])));
    expect(notices).toHaveLength(events.length);
    for (const notice of notices) {
      expect(notice.displayName).toMatch(/^The first check only records/);
      expect(notice.displayName).not.toMatch(/poll|request|÷|N links/i);
      expect(notice.displayName.split(/(?<=\.) /).length).toBeLessThanOrEqual(2);
    }
    const qr = notices.find((notice) => notice.displayOptions!.show!.event![0] === 'newQrScans')!;
    expect(qr.displayName).not.toMatch(/link/i);
  });
});
