/**
 * A link's fields read alike in every output from version 1.2: `title` and `description` after
 * Create and Update as after Get and Get Many, and Create and Update say what the service then
 * holds. Nodes saved at 1.1 keep the names of what was sent.
 */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { startSandbox, type Sandbox } from '@linkshort/sandbox';
import { executeNode, type Credentials } from './harness';

let sandbox: Sandbox;
let user: Credentials;
beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 10_000, windowMs: 60_000 } });
  user = { baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey };
});
afterAll(() => sandbox.close());

const json = (items: INodeExecutionData[]) => items.map((item) => item.json);
const run = async (parameters: INodeParameters, typeVersion?: number) =>
  json(await executeNode(user, parameters, undefined, typeVersion === undefined ? {} : { typeVersion }))[0]!;

describe("a link's title in every output (version 1.2)", () => {
  it('Create, Update, Get and Get Many all name it `title` (and `description`), with the values Get reads', async () => {
    const created = await run({
      resource: 'link',
      operation: 'create',
      url: 'https://example.com/titled',
      additionalFields: {
        custom: 'titled',
        metatitle: 'Spring sale',
        metadescription: 'Forty percent off',
        geotarget: { targets: [{ location: 'Canada', link: 'https://example.ca' }] },
        utmCampaign: 'spring',
      },
    });
    expect(created).toEqual({
      id: expect.any(Number),
      alias: 'titled',
      shorturl: `${sandbox.baseUrl}/titled`,
      longurl: 'https://example.com/titled',
      title: 'Spring sale',
      description: 'Forty percent off',
      location: { canada: 'https://example.ca' },
      device: {},
      expiry: null,
      utm: { campaign: 'spring' },
    });
    const id = created.id as number;
    const got = await run({ resource: 'link', operation: 'get', id });
    const [listed] = json(await executeNode(user, { resource: 'link', operation: 'getMany', limit: 1 }));
    const raw = await run({ resource: 'link', operation: 'get', id, simplify: false });
    // What Create said the service holds is what Get reads back, field by field.
    for (const field of ['id', 'alias', 'shorturl', 'longurl', 'title', 'description', 'expiry'] as const)
      expect({ field, value: got[field] }).toEqual({ field, value: created[field] });
    expect((raw.details as Record<string, unknown>).location).toEqual(created.location);
    expect(listed).toMatchObject({ id, title: 'Spring sale' });

    const updated = await run({ resource: 'link', operation: 'update', id, url: 'https://example.com/titled-2', updateFields: { type: 'frame' } });
    // Update says what the service now holds, the title it kept included, named as Get names it.
    const after = await run({ resource: 'link', operation: 'get', id });
    expect(updated).toEqual({
      id,
      alias: 'titled',
      shorturl: `${sandbox.baseUrl}/titled`,
      longurl: 'https://example.com/titled-2',
      title: 'Spring sale',
      description: 'Forty percent off',
      location: { canada: 'https://example.ca' },
      device: {},
      expiry: null,
      date: after.date,
      dateIso: after.dateIso,
      type: 'frame',
    });
    for (const output of [created, updated, got, listed]) expect(Object.keys(output!)).not.toContain('metatitle');
  });

  it('a reused link says what the service holds too, with `reused`', async () => {
    const create = () =>
      run({
        resource: 'link',
        operation: 'create',
        url: 'https://example.com/titled-reuse',
        additionalFields: { metatitle: 'Again' },
        options: { reuse: true },
      });
    const { notReused, ...first } = await create();
    expect(notReused).toBe('no link of this account has this long URL');
    const second = await create();
    expect(second).toEqual({ ...first, reused: true });
    expect(second).toMatchObject({ title: 'Again', description: '' });
  });

  it('nodes saved at version 1.1 keep `metatitle` after Create and only what was sent after Update', async () => {
    const created = await run({ resource: 'link', operation: 'create', url: 'https://example.com/old-node', additionalFields: { metatitle: 'Old' } }, 1.1);
    expect(created).toEqual({
      id: expect.any(Number),
      shorturl: expect.any(String),
      alias: expect.any(String),
      longurl: 'https://example.com/old-node',
      metatitle: 'Old',
    });
    const updated = await run(
      { resource: 'link', operation: 'update', id: created.id as number, url: 'https://example.com/old-node-2', updateFields: {} },
      1.1,
    );
    expect(updated).toEqual({ id: created.id, shorturl: created.shorturl, alias: created.alias, longurl: 'https://example.com/old-node-2' });
  });
});
