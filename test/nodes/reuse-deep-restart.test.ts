/**
 * Link Create's Reuse Existing Link after a restart of n8n at the service's real rate (30 requests a
 * minute), the row's link below 9,999 newer ones and other requests already spent in the key's
 * minute: the record in the workflow's static data finds the link whatever the new index has read.
 * And with Remember Made Links in the Workflow off, the node writes no static data.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { startSandbox, type Sandbox } from '@linkshort/sandbox';
import { addLinks } from '../../packages/client/test/fill-links';
import type { Credentials } from './harness';
import { freshN8n, saved, type Harness } from './restart';

// Each restart loads n8n-core and the node again (a few seconds on a busy machine).
jest.setTimeout(120_000);

let sandbox: Sandbox;
let user: Credentials;
beforeEach(async () => {
  sandbox = await startSandbox({ seed: 'minimal', rateLimit: { limit: 30, windowMs: 60_000 } });
  user = { baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey };
});
afterEach(() => sandbox.close());

const creates = (from: number) => sandbox.requests.slice(from).filter((request) => request.method === 'POST' && request.path === '/api/url/add').length;

async function create(
  n8n: Harness,
  staticData: IDataObject,
  url: string,
  fields: INodeParameters,
  options: INodeParameters = { reuse: true },
): Promise<IDataObject> {
  const parameters = { resource: 'link', operation: 'create', url, additionalFields: fields, options };
  const [item] = await n8n.executeNode(user, parameters, undefined, { staticData });
  return (item as INodeExecutionData).json;
}

describe('Reuse Existing Link after a restart, at 30 requests a minute, the link deep in the account', () => {
  it.each<[string, INodeParameters]>([
    ['a custom alias', { custom: 'deep-after-restart' }],
    ['a password and an alias', { custom: 'deep-locked', password: 'secret-deep' }],
  ])('the same row with %s, after 5 other requests of the restarted n8n on the key: reused, no create', async (_name, fields) => {
    const url = `https://example.com/deep/${String(fields.custom)}`;
    const staticData: IDataObject = {};
    const first = await create(freshN8n(), staticData, url, fields);
    expect(first).toMatchObject({ reused: false });
    addLinks(sandbox, 9_999, { from: Date.now() + 2_000, perSecond: 1, name: 'later' });

    const n8n = freshN8n();
    // Other nodes of the restarted n8n use the key first (5 reads of one link).
    for (let i = 0; i < 5; i += 1) await n8n.executeNode(user, { resource: 'link', operation: 'get', id: first.id as number });
    const before = sandbox.requests.length;
    const again = await create(n8n, saved(staticData), url, fields);
    expect(again).toMatchObject({ id: first.id, shorturl: first.shorturl, reused: true });
    expect(again.notReused).toBeUndefined();
    expect(creates(before)).toBe(0);
  });
});

/** Whether n8n would save the workflow's static data after this execution (its ObservableObject marks a change). */
const changed = (staticData: IDataObject) => (staticData as { __dataChanged?: boolean }).__dataChanged === true;

describe('Remember Made Links in the Workflow off', () => {
  it('writes no static data (n8n saves nothing): the record stays in this n8n process, which still reuses its links', async () => {
    const kept = { 'node:Google Sheets Trigger': { lastRow: 41 } };
    const staticData: IDataObject = saved(kept);
    const n8n = freshN8n();
    const options = { reuse: true, rememberMadeLinks: false };
    const row = { custom: 'not-remembered', password: 'secret-off' };
    const first = await create(n8n, staticData, 'https://example.com/not-remembered', row, options);
    expect(first).toMatchObject({ reused: false });
    expect(changed(staticData)).toBe(false);
    const again = await create(n8n, staticData, 'https://example.com/not-remembered', row, options);
    expect(again).toMatchObject({ id: first.id, reused: true });
    expect(changed(staticData)).toBe(false);
    await n8n.executeNode(
      user,
      { resource: 'link', operation: 'update', id: first.id as number, url: 'https://example.com/moved', updateFields: {} },
      undefined,
      {
        staticData,
      },
    );
    expect(changed(staticData)).toBe(false);
    // n8n reads 'global' as an empty object it does not count as a change; nothing else was written.
    expect(saved(staticData)).toEqual({ ...kept, global: {} });

    // On (the default), the same Create keeps its record beside what other nodes saved.
    await create(n8n, staticData, 'https://example.com/remembered', {});
    expect(changed(staticData)).toBe(true);
    expect(Object.keys((staticData.global as IDataObject).linkShortMadeLinks as IDataObject)).toHaveLength(1);
    expect(staticData['node:Google Sheets Trigger']).toEqual({ lastRow: 41 });
  });
});
