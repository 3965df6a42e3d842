/**
 * Link Create's "Reuse Existing Link" and the UTM fields, through n8n-core and the built node:
 * what a workflow re-run and a form sent twice get, what reaches the server, and the errors a
 * person reads.
 */
import { NodeHelpers, NodeOperationError, type INodeParameters, type INodeProperties } from 'n8n-workflow';
import { startSandbox, type Sandbox } from '@linkshort/sandbox';
import { executeNode, linkShortDescription, type Credentials } from './harness';

let sandbox: Sandbox;
let user: Credentials;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: { links: 1_000 }, rateLimit: { limit: 100_000, windowMs: 60_000 } });
  user = { baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey };
});
afterAll(() => sandbox.close());

/** Reuse Existing Link is Create's option from version 1.2; the link's own fields are Additional Fields. */
const create = ({ reuse, ...additionalFields }: INodeParameters, url = 'https://example.com/form-entry?id=7') =>
  executeNode(user, { resource: 'link', operation: 'create', url, additionalFields, ...(reuse === undefined ? {} : { options: { reuse } }) });

describe('Link -> Create, Reuse Existing Link', () => {
  it('nodes saved before version 1.2 keep it among Additional Fields, and it still reuses', async () => {
    const url = 'https://example.com/saved-at-1-1';
    const run = () => executeNode(user, { resource: 'link', operation: 'create', url, additionalFields: { reuse: true } }, undefined, { typeVersion: 1.1 });
    const [first] = await run();
    const [second] = await run();
    expect(second!.json).toMatchObject({ id: first!.json.id, reused: true });
  });

  it('a second run for the same URL answers with the first link and says it was reused; off (the default) it makes what the server makes', async () => {
    const [first] = await create({ reuse: true });
    const before = sandbox.requests.length;
    const [second] = await create({ reuse: true });
    expect(first!.json).toMatchObject({ reused: false, longurl: 'https://example.com/form-entry?id=7' });
    expect(second!.json).toMatchObject({ id: first!.json.id, shorturl: first!.json.shorturl, reused: true });
    expect(sandbox.requests.slice(before).filter((request) => request.method === 'POST')).toHaveLength(0);
    const [plain] = await create({});
    expect(plain!.json.reused).toBeUndefined();
  });

  it('answers with an old link of a 1,000-link account made before the node ever ran, when its options are the ones asked for', async () => {
    const oldest = sandbox.store.state.links.filter((link) => link.userId === 2).reduce((a, b) => (a.id < b.id ? a : b));
    const [reused] = await create({ reuse: true, metatitle: oldest.metatitle, metadescription: oldest.metadescription }, oldest.url);
    expect(reused!.json).toMatchObject({ id: oldest.id, reused: true });
    // Without its title: not the link asked for.
    const [titleless] = await create({ reuse: true }, oldest.url);
    expect(titleless!.json.id).not.toBe(oldest.id);
  });

  it('never answers a request without a password with a password-protected link', async () => {
    const [locked] = await create({ reuse: true, password: 'secret-4' }, 'https://example.com/locked');
    const [open] = await create({ reuse: true }, 'https://example.com/locked');
    expect(open!.json.id).not.toBe(locked!.json.id);
    expect(sandbox.store.state.links.find((link) => link.id === open!.json.id)!.password).toBeNull();
  });

  it("never reuses a link the node itself has since protected with a password (Update runs on another execution's client)", async () => {
    const url = 'https://example.com/later-locked';
    const [made] = await create({ reuse: true }, url);
    await executeNode(user, { resource: 'link', operation: 'update', id: made!.json.id as number, url, updateFields: { password: 'secret-5' } });
    expect(sandbox.store.state.links.find((link) => link.id === made!.json.id)!.password).not.toBeNull();
    const [again] = await create({ reuse: true }, url);
    expect(again!.json.id).not.toBe(made!.json.id);
    expect(sandbox.store.state.links.find((link) => link.id === again!.json.id)!.password).toBeNull();
  });

  it('with another alias asked for, makes a new link', async () => {
    const [aliased] = await create({ reuse: true, custom: 'entry-seven' });
    expect(aliased!.json).toMatchObject({ reused: false, alias: 'entry-seven' });
  });

  it("is offered on Create only, off by default: among Options from version 1.2, not among the link's own fields", () => {
    const collections = linkShortDescription.properties.filter(
      (property) => property.displayOptions?.show?.resource?.includes('link') && property.type === 'collection',
    );
    const shownIn = (property: INodeProperties, version: number) =>
      NodeHelpers.displayParameter(
        {},
        { ...property, displayOptions: { show: { '@version': property.displayOptions?.show?.['@version'] ?? [version] } } },
        { typeVersion: version },
        linkShortDescription,
      );
    const optionNames = (operation: string, name = 'additionalFields', version = 1.2) =>
      (
        collections.find((property) => property.name === name && property.displayOptions?.show?.operation?.includes(operation) && shownIn(property, version))
          ?.options ?? []
      ).map((option) => ('name' in option ? option.name : ''));
    expect(optionNames('create')).not.toContain('reuse');
    expect(optionNames('create', 'options')).toEqual(['reuse', 'rememberMadeLinks']);
    expect(optionNames('create', 'additionalFields', 1.1)).toContain('reuse');
    expect(optionNames('update', 'updateFields')).not.toContain('reuse');
    for (const field of ['utmSource', 'utmMedium', 'utmCampaign', 'utmTerm', 'utmContent']) {
      expect(optionNames('create')).toContain(field);
      expect(optionNames('update', 'updateFields')).toContain(field);
    }
  });
});

describe('UTM fields', () => {
  it('reach the server as utm_ parameters on Create and Update', async () => {
    const [created] = await create({ utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'spring' }, 'https://example.com/spring');
    const stored = () => sandbox.store.state.links.find((link) => link.id === created!.json.id)!;
    expect(stored().parameters).toEqual([
      { name: 'utm_source', value: 'newsletter' },
      { name: 'utm_medium', value: 'email' },
      { name: 'utm_campaign', value: 'spring' },
    ]);
    await executeNode(user, {
      resource: 'link',
      operation: 'update',
      id: created!.json.id as number,
      url: 'https://example.com/spring',
      updateFields: { utmContent: 'banner' },
    });
    expect(stored().parameters).toEqual([{ name: 'utm_content', value: 'banner' }]);
  });

  it('a bad value is named as the node shows it, before any request', async () => {
    const before = sandbox.requests.length;
    const error = await create({ utmSource: 'x'.repeat(600) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeOperationError);
    expect((error as Error).message).toBe('UTM Source: must be at most 500 characters');
    expect(sandbox.requests.length).toBe(before);
  });
});
