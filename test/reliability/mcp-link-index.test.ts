/**
 * find_links searches the server's link index: on a 10,000-link account the oldest link is found
 * by alias, by its short URL with a query and by a word of its title, with no page scan per call;
 * while the first sync runs, it answers at once from what is indexed and says so.
 */
import { LinkShortClient } from '@linkshort/client';
import { startSandbox, type Sandbox } from '@linkshort/sandbox';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { fillLinks } from '../../packages/client/test/fill-links';
import { ServerLinkIndex } from '../../packages/mcp/src/account/server-index';
import { connectInMemory } from '../../packages/mcp/test/in-memory';

const COUNT = 10_000;

let sandbox: Sandbox;
let client: LinkShortClient;
let linkIndex: ServerLinkIndex;
let mcpClient: Client;

interface Found {
  links: Array<{ id: number; alias: string; shorturl: string; longurl: string; title: string }>;
  matches: number;
  index: { known: number; serverCount: number | null; complete: boolean; lastFullSweep: string | null; summary: string };
}

const apiRequests = () => sandbox.requests.filter((request) => request.path.startsWith('/api/')).length;

async function find(args: Record<string, unknown>): Promise<Found> {
  const result = await mcpClient.callTool({ name: 'find_links', arguments: args });
  expect(result.isError).toBeFalsy();
  return result.structuredContent as unknown as Found;
}

beforeAll(async () => {
  // A server that caps pages at 100 (as some do): 100 pages at 20 requests a second, so the first
  // sync takes a few seconds, long enough to be seen under way.
  sandbox = await startSandbox({ port: 0, seed: 'minimal', maxPageSize: 100, rateLimit: { limit: 20, windowMs: 1000 } });
  fillLinks(sandbox, COUNT);
  client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey });
  linkIndex = new ServerLinkIndex(client, { minSyncIntervalMs: 0 });
  mcpClient = new Client({ name: 'link-index-test', version: '1.0.0' });
  await connectInMemory(mcpClient, { client, linkIndex });
});

afterAll(async () => {
  await linkIndex.stop();
  await mcpClient.close();
  await sandbox.close();
});

test('while the first sync runs, find_links answers at once from what is indexed and says how far it is', async () => {
  const firstSync = linkIndex.startFirstSync();
  while (linkIndex.index.freshness().known === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  const before = apiRequests();
  const started = Date.now();
  const early = await find({ text: 'aardvark' });
  expect(Date.now() - started).toBeLessThan(3000);
  expect(early.index.complete).toBe(false);
  expect(early.index.summary).toMatch(/^Indexed [\d,]+ of (about )?[\d,]+ links; older links may be missing until the first sync finishes\.$/);
  expect(early.index.known).toBeLessThan(COUNT);
  // The call itself read nothing: only the background sync's pages went out meanwhile.
  expect(sandbox.requests.slice(before).every((request) => request.path === '/api/urls')).toBe(true);
  await firstSync;
  expect(linkIndex.index.freshness().complete).toBe(true);
}, 60_000);

test('after the first sync, the oldest of 10,000 links is found by alias, by short URL with ?utm_source=x, and by a title word, one request per call', async () => {
  const byAlias = await find({ text: 'fill0' });
  const oldest = byAlias.links[0]!;
  expect(oldest).toMatchObject({ alias: 'fill0', longurl: 'https://example.com/fill/0', title: 'The aardvark page' });
  expect(byAlias.index).toMatchObject({ complete: true, serverCount: expect.any(Number) });
  expect(byAlias.index.known).toBeGreaterThanOrEqual(COUNT);
  expect(byAlias.index.lastFullSweep).toMatch(/^\d{4}-\d\d-\d\dT/);
  expect(byAlias.index.summary).toMatch(/^[\d,]+ links, all checked at /);

  for (const text of [`${oldest.shorturl}?utm_source=x`, 'aardvark']) {
    const before = apiRequests();
    const found = await find({ text });
    expect(found.links[0]!.id).toBe(oldest.id);
    // The newest page only (this index reads it on every call; by default at most every 10 s): no page scan.
    expect(apiRequests() - before).toBe(1);
  }
  const byTitle = await find({ text: 'aardvark' });
  expect(byTitle.matches).toBe(1);
});

test('a link made by a tool is found at once; one made elsewhere on the next call', async () => {
  const made = await mcpClient.callTool({ name: 'shorten_link', arguments: { url: 'https://example.com/zebra', metatitle: 'Zebra crossing' } });
  const { id } = made.structuredContent as { id: number };
  expect((await find({ text: 'zebra' })).links.map((link) => link.id)).toEqual([id]);

  const other = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey });
  const elsewhere = await other.links.create({ url: 'https://example.com/okapi', metatitle: 'Okapi sighting' });
  const before = apiRequests();
  expect((await find({ text: 'okapi' })).links.map((link) => link.id)).toEqual([elsewhere.id]);
  expect(apiRequests() - before).toBe(1);
});

test('a call cancelled during its read of the newest links still leaves the index usable', async () => {
  sandbox.faults.set([{ kind: 'delay', route: '^GET /api/urls', delayMs: 300 }]);
  try {
    const controller = new AbortController();
    const call = mcpClient.callTool({ name: 'find_links', arguments: { text: 'fill1' } }, undefined, { signal: controller.signal });
    call.catch(() => undefined);
    setTimeout(() => controller.abort(), 50);
    await expect(call).rejects.toThrow(/abort/i);
  } finally {
    sandbox.faults.clear();
  }
  expect((await find({ text: 'fill1' })).links[0]!.alias).toBe('fill1');
});
