/**
 * A cancelled tool call stops asking the server (and spending the key's rate limit): find_links
 * reads at most the newest page and stops there, and shorten_links sends no further create.
 * (find_links no longer scans pages: it searches the server's link index, `mcp-link-index.test.ts`.)
 */
import { LinkShortClient } from '@linkshort/client';
import { startSandbox, type Sandbox } from '@linkshort/sandbox';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ServerLinkIndex } from '../../packages/mcp/src/account/server-index';
import { connectInMemory } from '../../packages/mcp/test/in-memory';

let sandbox: Sandbox;
let mcpClient: Client;
let linkIndex: ServerLinkIndex;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: { links: 1500 }, rateLimit: { limit: 10_000, windowMs: 60_000 } });
  const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey });
  linkIndex = new ServerLinkIndex(client, { minSyncIntervalMs: 0 });
  await linkIndex.startFirstSync();
  mcpClient = new Client({ name: 'cancellation-test', version: '1.0.0' });
  await connectInMemory(mcpClient, { client, linkIndex });
});

afterAll(async () => {
  await linkIndex.stop();
  await mcpClient.close();
  await sandbox.close();
});

const requestsTo = (method: string, path: string) => sandbox.requests.filter((request) => request.method === method && request.path === path).length;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('find_links over 1,500 links reads one page (the newest), not a scan', async () => {
  const before = requestsTo('GET', '/api/urls');
  const result = await mcpClient.callTool({ name: 'find_links', arguments: { text: 'no link has this text' } });
  expect(result.structuredContent).toMatchObject({ links: [], matches: 0, index: { complete: true } });
  expect(requestsTo('GET', '/api/urls') - before).toBe(1);
});

test('find_links cancelled (notifications/cancelled) while its page is on the way asks for no further page', async () => {
  sandbox.faults.set([{ kind: 'delay', route: '^GET /api/urls', delayMs: 300 }]);
  try {
    const before = requestsTo('GET', '/api/urls');
    const controller = new AbortController();
    const call = mcpClient.callTool({ name: 'find_links', arguments: { text: 'no link has this text' } }, undefined, { signal: controller.signal });
    call.catch(() => undefined);
    while (requestsTo('GET', '/api/urls') === before) await sleep(10);
    controller.abort();
    await expect(call).rejects.toThrow(/abort/i);
    await sleep(1500);
    expect(requestsTo('GET', '/api/urls') - before).toBe(1);
  } finally {
    sandbox.faults.clear();
  }
});

test('shorten_links cancelled while its first create is on the way sends no further create', async () => {
  sandbox.faults.set([{ kind: 'delay', route: '^POST /api/url/add', delayMs: 300 }]);
  try {
    const before = requestsTo('POST', '/api/url/add');
    const controller = new AbortController();
    const urls = Array.from({ length: 10 }, (_, index) => `https://example.com/cancelled/${index}`);
    const call = mcpClient.callTool({ name: 'shorten_links', arguments: { urls } }, undefined, { signal: controller.signal });
    call.catch(() => undefined);
    while (requestsTo('POST', '/api/url/add') === before) await sleep(10);
    controller.abort();
    await expect(call).rejects.toThrow(/abort/i);
    await sleep(1500);
    expect(requestsTo('POST', '/api/url/add') - before).toBe(1);
  } finally {
    sandbox.faults.clear();
  }
});
