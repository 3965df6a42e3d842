import type { IDataObject, INodeParameters, INodePropertyOptions, INodeType } from 'n8n-workflow';
import { request } from 'undici';
import { LinkShortClient } from '@linkshort/client';
import { startSandbox, type Sandbox } from '@linkshort/sandbox';
import { activeTrigger, loadOptions, poll, TRIGGER_TYPE, workflowWith, type Credentials } from './harness';

/** The trigger's options as a person meets them: the editor's names, the Link IDs picker, minimums, samples. */
/* eslint-disable @typescript-eslint/no-require-imports */
const { LinkShortTrigger } = require('../../nodes/dist/nodes/LinkShortTrigger/LinkShortTrigger.node.js') as { LinkShortTrigger: new () => INodeType };
const description = new LinkShortTrigger().description;
const eventOptions = description.properties.find((property) => property.name === 'event')!.options as INodePropertyOptions[];

let sandbox: Sandbox;
let client: LinkShortClient;
let credentials: Credentials;
beforeEach(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowMs: 60_000 } });
  credentials = { baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey };
  client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: false });
});
afterEach(() => sandbox.close());

const visit = async (path: string, times = 1) => {
  for (let i = 0; i < times; i += 1) await (await request(`${sandbox.baseUrl}/${path}`)).body.dump();
};

/** Polls in sequence, the static data through JSON between polls. */
function trigger(parameters: INodeParameters) {
  let staticData: IDataObject = {};
  return async () => {
    const running = activeTrigger(credentials, parameters, JSON.parse(JSON.stringify(staticData)) as IDataObject);
    await running.poll();
    staticData = JSON.parse(JSON.stringify(running.staticData())) as IDataObject;
    if (running.errors.length > 0) throw running.errors[0];
    return running.emitted.flatMap((data) => (data[0] ?? []).map((item) => item.json));
  };
}

describe('names in the editor', () => {
  it("the subtitle shows the event's name, not its value", () => {
    for (const option of eventOptions) {
      const { workflow, node } = workflowWith(TRIGGER_TYPE, { event: option.value as string });
      const subtitle = workflow.expression.getSimpleParameterValue(node, description.subtitle!, 'internal', {});
      expect(subtitle).toBe(option.name);
    }
    expect(eventOptions.map((option) => option.name)).toContain('Link Reached Click Threshold');
  });

  it('each event has a node-creator action in title case (n8n lower-cases the name when an option has none), the same name the Event list shows (issue 44: one name per event)', () => {
    for (const option of eventOptions) {
      expect(option.action).toBe(option.name);
      for (const word of option.action!.split(' ').filter((w) => !['a', 'an', 'the', 'of'].includes(w))) expect(word[0]).toBe(word[0]!.toUpperCase());
    }
    expect(eventOptions.find((option) => option.value === 'newQrCode')!.action).toBe('New QR Code');
  });
});

describe('Link IDs', () => {
  it("are picked from the account's links, loaded through the client's paginated list", async () => {
    const created: Array<{ id: number; shorturl: string }> = [];
    for (let i = 0; i < 120; i += 1) created.push(await client.links.create({ url: `https://example.com/pick/${i}` }));
    const options = await loadOptions(credentials, 'getLinks', TRIGGER_TYPE);
    const values = options.map((option) => option.value);
    for (const link of created) expect(values).toContain(link.id);
    expect(options.find((option) => option.value === created[0]!.id)!.name).toContain(created[0]!.shorturl);
    expect(new Set(values).size).toBe(values.length);
  });

  it.each([
    ['picked from the list', (ids: number[]) => ids],
    ['as the comma-separated string of workflows made before the list', (ids: number[]) => ids.join(', ')],
  ])('watch only the given links, %s', async (_how, linkIds) => {
    const a = await client.links.create({ url: 'https://example.com/only-a', custom: 'only-a' });
    const b = await client.links.create({ url: 'https://example.com/only-b', custom: 'only-b' });
    const c = await client.links.create({ url: 'https://example.com/only-c', custom: 'only-c' });
    const threshold = trigger({ event: 'linkClickThreshold', threshold: 2, linkIds: linkIds([b.id, c.id]) });
    const clicks = trigger({ event: 'newLinkClicks', linkIds: linkIds([b.id]) });
    await threshold();
    await clicks();
    await visit('only-a', 2);
    await visit('only-b', 2);
    await visit('only-c', 1);
    expect((await threshold()).map((item) => item.id)).toEqual([b.id]);
    expect((await clicks()).map((item) => item.id)).toEqual([b.id]);
    expect(a.id).toBeGreaterThan(0);
  });

  it('Link Received Clicks: watching a link again after a filter left it out does not count its earlier clicks as new', async () => {
    const watchedLink = await client.links.create({ url: 'https://example.com/kept', custom: 'kept-link' });
    let staticData: IDataObject = {};
    const pollWith = async (linkIds: number[]) => {
      const running = activeTrigger(credentials, { event: 'newLinkClicks', linkIds }, staticData);
      await running.poll();
      staticData = JSON.parse(JSON.stringify(running.staticData())) as IDataObject;
      return running.emitted.flatMap((data) => (data[0] ?? []).map((item) => item.json));
    };
    await pollWith([]);
    await pollWith([watchedLink.id]);
    await pollWith([watchedLink.id]);
    await pollWith([watchedLink.id]);
    expect(await pollWith([])).toEqual([]);
    await visit('n8n', 1);
    expect((await pollWith([])).map((item) => [item.id, item.newClicks])).toEqual([[sandbox.store.state.links.find((l) => l.alias === 'n8n')!.id, 1]]);
  });

  it('that are not link IDs get an error naming the field, before any request', async () => {
    const before = sandbox.requests.length;
    const error = await poll(credentials, { event: 'linkClickThreshold', linkIds: '12, twelve' }, {}).catch((e: unknown) => e);
    expect(String((error as Error).message)).toMatch(/^Link Names or IDs: /);
    expect(sandbox.requests.length).toBe(before);
  });
});

describe('Minimum New Clicks and Scans', () => {
  it('a link with a click a minute starts the workflow once it has the minimum since it was last emitted', async () => {
    const link = await client.links.create({ url: 'https://example.com/slow', custom: 'slow-link' });
    const next = trigger({ event: 'newLinkClicks', minimumNewClicks: 3 });
    await next();
    const emitted: IDataObject[][] = [];
    for (let i = 0; i < 7; i += 1) {
      await visit('slow-link');
      emitted.push((await next()).filter((item) => item.id === link.id));
    }
    expect(emitted.map((items) => items.map((item) => [item.previousClicks, item.clicks, item.newClicks]))).toEqual([
      [],
      [],
      [[0, 3, 3]],
      [],
      [],
      [[3, 6, 3]],
      [],
    ]);
  });

  it('a QR code is emitted once its scans grew by the minimum', async () => {
    const next = trigger({ event: 'newQrScans', minimumNewScans: 2 });
    await next();
    await visit('qr/a1b2c3');
    expect(await next()).toEqual([]);
    await visit('qr/a1b2c3');
    expect(await next()).toEqual([expect.objectContaining({ name: 'Menu', previousScans: 12, scans: 14, newScans: 2 })]);
  });

  it('below 1 is refused, naming the field', async () => {
    const error = await poll(credentials, { event: 'newQrScans', minimumNewScans: 0 }, {}).catch((e: unknown) => e);
    expect(String((error as Error).message)).toBe('Minimum New Scans: must be a whole number of at least 1');
  });
});

describe('Fetch Test Event and emitted items', () => {
  it.each([
    ['newLink', { shorturl: expect.any(String), longurl: expect.any(String), clicks: expect.any(Number) }],
    ['newQrCode', { link: expect.any(String), name: expect.any(String), scans: expect.any(Number) }],
    ['linkClickThreshold', { shorturl: expect.any(String), longurl: expect.any(String), threshold: 100, crossedAgain: false }],
    ['newLinkClicks', { shorturl: expect.any(String), longurl: expect.any(String), previousClicks: expect.any(Number), newClicks: 1 }],
    ['newQrScans', { link: expect.any(String), previousScans: expect.any(Number), newScans: 1 }],
  ])('%s: a realistic sample with fields a message can use directly, the state untouched', async (event, fields) => {
    const { result, staticData } = await poll(credentials, { event }, {}, 'manual');
    const [sample] = (result?.[0] ?? []).map((item) => item.json);
    expect(sample).toMatchObject({ ...fields, summary: expect.any(String) });
    if (event === 'linkClickThreshold') expect(sample!.clicks).toBeGreaterThanOrEqual(100);
    if (event === 'newLinkClicks') expect(sample!.clicks).toBe((sample!.previousClicks as number) + 1);
    expect(staticData ?? {}).toEqual({});
  });

  it('a threshold item says what happened in one line', async () => {
    await client.links.create({ url: 'https://example.com/launch', custom: 'launch-day' });
    const next = trigger({ event: 'linkClickThreshold', threshold: 2 });
    await next();
    await visit('launch-day', 2);
    const [item] = await next();
    expect(item!.summary).toBe(`${sandbox.baseUrl}/launch-day reached 2 clicks (threshold 2) -> https://example.com/launch`);
  });
});
