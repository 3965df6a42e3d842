/**
 * Addresses made of long runs of slashes, from a workflow (By URL) and from the server (a short
 * URL in an answer), through the built node and n8n-core. A trailing-slash regex such as /\/+$/
 * backtracks quadratically over such a run (200,000 slashes: several seconds per call, once per record);
 * the node trims them in one pass, so each of these finishes in milliseconds. The 5-second bound
 * below only tells a freeze (quadratic trimming takes minutes here) from a finish; it is no speed goal.
 */
import { NodeOperationError, type INodeParameterResourceLocator } from 'n8n-workflow';
import { startSandbox, type Sandbox } from '@linkshort/sandbox';
import { executeNode, testCredential, type Credentials } from './harness';

let sandbox: Sandbox;
let user: Credentials;

const SLASHES = '/'.repeat(200_000);
const FREEZE_MS = 5_000;

/** Runs `work` and fails if it held the event loop for what can only be a freeze. */
async function withoutFreezing<T>(work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    expect(Math.round(performance.now() - started)).toBeLessThan(FREEZE_MS);
  }
}

const rl = (mode: string, value: string): INodeParameterResourceLocator => ({ __rl: true, mode, value });

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowMs: 60_000 } });
  user = { baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey };
});
afterAll(() => sandbox.close());

describe('By URL with an address of 200,000 slashes', () => {
  it('a link: fails with "not found" after one pass over the account, without freezing on the address', async () => {
    const address = `https://short.example${SLASHES}x`;
    const error = await withoutFreezing(() => executeNode(user, { resource: 'link', operation: 'get', id: rl('url', address) })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeOperationError);
    expect((error as Error).message).toMatch(/^No link has the short URL or alias /);
  });

  it('a QR code: the same', async () => {
    const address = `https://short.example/qr${SLASHES}x`;
    const error = await withoutFreezing(() => executeNode(user, { resource: 'qrCode', operation: 'get', id: rl('url', address) })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeOperationError);
    expect((error as Error).message).toMatch(/^No QR code has the URL /);
  });

  it('an address ending in slashes still finds its link', async () => {
    const link = sandbox.store.state.links.find((candidate) => candidate.userId === 2 && candidate.alias === 'n8n')!;
    const [item] = await withoutFreezing(() => executeNode(user, { resource: 'link', operation: 'get', id: rl('url', `${sandbox.baseUrl}/n8n${SLASHES}`) }));
    expect(item!.json.id).toBe(link.id);
  });
});

describe('a short URL from the server with 200,000 slashes before its alias', () => {
  it('Get (simplified) gives its alias, and By URL reads past it', async () => {
    const template = sandbox.store.state.links.find((candidate) => candidate.userId === 2)!;
    const id = sandbox.store.nextId('links');
    sandbox.store.state.links.push({ ...template, id, alias: 'slashy', domain: `https://short.example${SLASHES}`, url: 'https://example.com/slashy' });
    const [simple] = await withoutFreezing(() => executeNode(user, { resource: 'link', operation: 'get', id: rl('id', String(id)) }));
    expect(simple!.json).toMatchObject({ id, alias: 'slashy' });
    const [found] = await withoutFreezing(() => executeNode(user, { resource: 'link', operation: 'get', id: rl('url', 'slashy') }));
    expect(found!.json.id).toBe(id);
  });
});

describe('the credential test', () => {
  it('trims trailing slashes and /api from the Base URL', async () => {
    expect(await testCredential({ ...user, baseUrl: `${sandbox.baseUrl}/api//` })).toMatchObject({ status: 'OK' });
    expect(await testCredential({ ...user, baseUrl: `${sandbox.baseUrl}//` })).toMatchObject({ status: 'OK' });
  });

  it('a Base URL with 200,000 slashes inside is read without freezing', async () => {
    const answer = await withoutFreezing(async () => await testCredential({ ...user, baseUrl: `${sandbox.baseUrl}${SLASHES}x` }));
    expect(answer.status).toBe('Error');
  });
});
