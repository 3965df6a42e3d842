/**
 * Link Create's "Reuse Existing Link" across n8n restarts and workers: the record of the links the
 * node made, kept in the workflow's static data. A restart is a second copy of the built node
 * loaded afresh (`jest.isolateModules`: its link index and memory empty), given the static data
 * as n8n saved it (JSON); two workers are two such copies.
 */
import type { IDataObject, INodeExecutionData, INodeParameters, NodeOperationError } from 'n8n-workflow';
import { startSandbox, type Sandbox } from '@linkshort/sandbox';
import { NOT_REUSED } from '@linkshort/client';
import type { Credentials } from './harness';
import { freshN8n, saved, type Harness } from './restart';

// Each restart loads n8n-core and the node again (a few seconds on a busy machine).
jest.setTimeout(120_000);

let sandbox: Sandbox;
let user: Credentials;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: { links: 200 }, rateLimit: { limit: 100_000, windowMs: 60_000 } });
  user = { baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey };
});
afterAll(() => sandbox.close());

const creates = (from: number) => sandbox.requests.slice(from).filter((request) => request.method === 'POST' && request.path === '/api/url/add').length;

async function create(n8n: Harness, staticData: IDataObject, url: string, fields: INodeParameters): Promise<IDataObject> {
  const [item] = await n8n.executeNode(user, { resource: 'link', operation: 'create', url, additionalFields: fields, options: { reuse: true } }, undefined, {
    staticData,
  });
  return (item as INodeExecutionData).json;
}

describe('Reuse Existing Link after a restart of n8n', () => {
  const rows: Array<[string, INodeParameters]> = [
    ['a custom alias', { custom: 'kept-after-restart' }],
    ['a password', { password: 'secret-restart-1' }],
    ['a password and an alias', { password: 'secret-restart-2', custom: 'locked-after-restart' }],
  ];

  it.each(rows)('the same row with %s, sent again after a restart, answers with the first link: reused, no second create', async (_name, fields) => {
    const url = `https://example.com/restart/${String(fields.custom ?? fields.password)}`;
    const staticData: IDataObject = {};
    const first = await create(freshN8n(), staticData, url, fields);
    expect(first).toMatchObject({ reused: false });
    expect(JSON.stringify(staticData)).not.toContain(String(fields.password ?? '\u0000'));

    const before = sandbox.requests.length;
    const again = await create(freshN8n(), saved(staticData), url, fields);
    expect(again).toMatchObject({ id: first.id, shorturl: first.shorturl, reused: true });
    expect(again.notReused).toBeUndefined();
    expect(creates(before)).toBe(0);
  });

  it('another password after a restart is not reused, and says why', async () => {
    const url = 'https://example.com/restart/other-password';
    const staticData: IDataObject = {};
    const first = await create(freshN8n(), staticData, url, { password: 'secret-one' });
    const other = await create(freshN8n(), saved(staticData), url, { password: 'secret-two' });
    expect(other).toMatchObject({ reused: false, notReused: NOT_REUSED.otherPassword });
    expect(other.id).not.toBe(first.id);
    expect(sandbox.store.state.links.find((link) => link.id === other.id)!.password).not.toBe(
      sandbox.store.state.links.find((link) => link.id === first.id)!.password,
    );
  });

  it('a link the record cannot prove (made elsewhere, or in a manual run, whose static data n8n does not save) is not reused, and the error says why', async () => {
    const url = 'https://example.com/restart/made-elsewhere';
    await fetch(`${sandbox.baseUrl}/api/url/add`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.userKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url, custom: 'made-elsewhere', password: 'secret-elsewhere' }),
    });
    const error = (await create(freshN8n(), {}, url, { custom: 'made-elsewhere', password: 'secret-elsewhere' }).catch(
      (e: unknown) => e,
    )) as NodeOperationError;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(/alias is taken/);
    expect(error.description).toContain(`Not reused: ${NOT_REUSED.unrecorded}.`);

    // Without an alias the service itself hands back its link for the same URL and options (one create): never another link.
    const before = sandbox.requests.length;
    const handedBack = await create(freshN8n(), {}, url, { password: 'secret-elsewhere' });
    expect(handedBack).toMatchObject({ reused: true, alias: 'made-elsewhere' });
    expect(creates(before)).toBe(1);
  });

  it('never hands back a link the workflow has since protected with a password, after a restart', async () => {
    const url = 'https://example.com/restart/later-locked';
    const staticData: IDataObject = {};
    const n8n = freshN8n();
    const made = await create(n8n, staticData, url, {});
    await n8n.executeNode(user, { resource: 'link', operation: 'update', id: made.id as number, url, updateFields: { password: 'secret-later' } }, undefined, {
      staticData,
    });
    const again = await create(freshN8n(), saved(staticData), url, {});
    expect(again.id).not.toBe(made.id);
    expect(sandbox.store.state.links.find((link) => link.id === again.id)!.password).toBeNull();
  });
});

describe('the record when executions save at once', () => {
  it("two executions of one n8n process each save both links; a record lost to another worker's save costs a new create, never another link", async () => {
    const start: IDataObject = {};
    const n8n = freshN8n();
    // Both executions load the same static data; the later save is the one n8n keeps.
    const execution1 = saved(start);
    const execution2 = saved(start);
    const a = await create(n8n, execution1, 'https://example.com/concurrent/a', { custom: 'concurrent-a' });
    const b = await create(n8n, execution2, 'https://example.com/concurrent/b', { custom: 'concurrent-b' });
    const again = await create(freshN8n(), saved(execution2), 'https://example.com/concurrent/a', { custom: 'concurrent-a' });
    expect(again).toMatchObject({ id: a.id, reused: true });
    expect(b.reused).toBe(false);

    // Two workers: each knows only its own link; the later save (worker 2's) lacks worker 1's.
    const worker1 = freshN8n();
    const worker2 = freshN8n();
    const w1 = saved(start);
    const w2 = saved(start);
    const c = await create(worker1, w1, 'https://example.com/concurrent/c', { password: 'secret-c' });
    await create(worker2, w2, 'https://example.com/concurrent/d', { password: 'secret-d' });
    const before = sandbox.requests.length;
    const lost = await create(freshN8n(), saved(w2), 'https://example.com/concurrent/c', { password: 'secret-c' });
    expect(creates(before)).toBe(1);
    // The service handed back its own link for the same options: the one asked for.
    expect(lost.id).toBe(c.id);
  });
});

describe('queue-mode workers of n8n 2, which hand each new execution no static data', () => {
  // n8n 2.41: the execution's stored workflow omits staticData and the job asks the worker to load
  // none, so every production execution on a worker starts from {} (test/n8n/reuse.mjs queue).
  it('a worker reuses the links it made itself; another worker cannot prove them, and the error says why', async () => {
    const url = 'https://example.com/workers/alias';
    const worker1 = freshN8n();
    const worker2 = freshN8n();
    const made = await create(worker1, {}, url, { custom: 'worker-alias', password: 'secret-worker' });
    expect(made.reused).toBe(false);

    const before = sandbox.requests.length;
    expect(await create(worker1, {}, url, { custom: 'worker-alias', password: 'secret-worker' })).toMatchObject({ id: made.id, reused: true });
    expect(creates(before)).toBe(0);

    const error = (await create(worker2, {}, url, { custom: 'worker-alias', password: 'secret-worker' }).catch((e: unknown) => e)) as NodeOperationError;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(/alias is taken/);
    expect(error.description).toContain('on another queue-mode worker');
  });
});
