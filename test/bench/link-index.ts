/**
 * The link index beside what a front end did without it: search latency from the index vs a scan
 * of the account's pages, requests for a quiet sync, the first full sync at the API's rate (a
 * scaled window) vs the floor of pages / rate, and the index's memory at 100,000 links.
 */
import { performance } from 'node:perf_hooks';
import { createLink, LinkIndex, LinkShortClient, RateLimiter, type IndexMeta, type LinkIndexStore, type StoredLink } from '@linkshort/client';
import { ServerLinkIndex } from '../../packages/mcp/src/account/server-index';
import { startSandbox, type Sandbox } from '@linkshort/sandbox';
import { fillLinks } from '../../packages/client/test/fill-links';
import { ms, percentile, type Row } from './row';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const apiRequests = (sandbox: Sandbox, from: number) => sandbox.requests.slice(from).filter((request) => request.path.startsWith('/api/')).length;

async function searchAndQuietSync(rows: Row[]) {
  const sandbox = await startSandbox({ seed: 'minimal', rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  try {
    fillLinks(sandbox, 10_000);
    const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter() } });
    const index = new LinkIndex({ minSyncIntervalMs: 0 });
    await index.sync(client);

    const queries = ['fill0', 'aardvark', `${index.search('fill0').links[0]!.shorturl}?utm_source=x`, 'fill123', 'no such link', 'example.com/fill/9999'];
    const indexTimes: number[] = [];
    for (let round = 0; round < 50; round += 1) {
      for (const query of queries) {
        const started = performance.now();
        index.search(query, 20);
        indexTimes.push(performance.now() - started);
      }
    }
    // What a front end did before: page through the account, filtering each page, until the end.
    const scanTimes: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      const started = performance.now();
      const found = [];
      for await (const link of client.links.list({ order: 'date', limit: 100 })) if (link.title.toLowerCase().includes('aardvark')) found.push(link);
      scanTimes.push(performance.now() - started);
    }
    const p50 = percentile(indexTimes, 50);
    rows.push({
      figure: '7. search of a 10,000-link account, p50: index vs scan of its pages (no rate limit)',
      measured: ms(p50),
      baseline: ms(percentile(scanTimes, 50)),
      ratio: (p50 / percentile(scanTimes, 50)).toFixed(5),
      goal: 'index p50 < 5 ms',
      met: p50 < 5,
    });
    rows.push({
      figure: '7. same, p99',
      measured: ms(percentile(indexTimes, 99)),
      baseline: ms(percentile(scanTimes, 99)),
      ratio: (percentile(indexTimes, 99) / percentile(scanTimes, 99)).toFixed(5),
      goal: '(reported)',
      met: null,
    });

    const before = sandbox.requests.length;
    await index.sync(client, { force: true });
    const quiet = apiRequests(sandbox, before);
    rows.push({
      figure: '7. requests for a quiet sync of a 10,000-link account',
      measured: String(quiet),
      baseline: '1',
      ratio: quiet.toFixed(3),
      goal: '1',
      met: quiet === 1,
    });
  } finally {
    await sandbox.close();
  }
}

async function firstSyncAtTheRate(rows: Row[]) {
  // The API's 30 a minute, with the window scaled to 3 s so the run takes seconds, not minutes.
  const limit = 30;
  const windowMs = 3_000;
  // A server capping pages at 100 (with large pages the whole sync is a dozen requests).
  const sandbox = await startSandbox({ seed: 'minimal', maxPageSize: 100, rateLimit: { limit, windowMs } });
  try {
    fillLinks(sandbox, 10_000);
    const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter() } });
    const index = new LinkIndex({ sleep: (duration) => new Promise((resolve) => setTimeout(resolve, duration)) });
    const before = sandbox.requests.length;
    const started = performance.now();
    await index.sync(client, { wait: true });
    const elapsed = performance.now() - started;
    const requests = apiRequests(sandbox, before);
    const floor = (requests / limit) * windowMs;
    rows.push({
      figure: `7. first full sync of 10,000 links at ${limit} per window (${windowMs / 1000} s standing for 60 s), server capping pages at 100: ${requests} requests`,
      measured: ms(elapsed),
      baseline: `${ms(floor)} (requests / rate)`,
      ratio: (elapsed / floor).toFixed(3),
      goal: '<= 1.3x the floor',
      met: elapsed / floor <= 1.3,
    });
  } finally {
    await sandbox.close();
  }
}

function indexMemory(rows: Row[]) {
  const count = 100_000;
  const makeLinks = (): StoredLink[] =>
    Array.from({ length: count }, (_, i) => ({
      id: i + 1,
      alias: `alias${i}`,
      shorturl: `https://s.example/alias${i}`,
      longurl: `https://example.com/articles/${i}/a-long-article-title-for-the-index`,
      title: `Article number ${i} about something`,
      description: i % 3 === 0 ? `A description of article ${i}` : '',
      date: '2026-01-01 00:00:00',
      clicks: i % 97,
      seen: 1,
    }));
  const meta: IndexMeta = {
    version: 1,
    account: 'bench',
    frontierId: count,
    sweep: null,
    generation: 1,
    lastFullSweepAt: 1,
    lastSyncAt: 1,
    serverCount: count,
    serverCountExact: true,
  };
  // As a file store or the API hands them over: parsed from JSON (flat strings, not the template literals' concatenations).
  const store: LinkIndexStore = {
    load: () => Promise.resolve({ meta, links: JSON.parse(JSON.stringify(makeLinks())) as StoredLink[] }),
    save: () => Promise.resolve(),
  };
  return (async () => {
    // The heap and the array buffers: the table's hash tables and its search filter are typed arrays,
    // kept outside the heap, whose buffers are freed after the collection that finds them dead.
    const inUse = async () => {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 50));
      gc();
      const { heapUsed, arrayBuffers } = process.memoryUsage();
      return heapUsed + arrayBuffers;
    };
    const baseline = await inUse();
    const index = new LinkIndex({ store, account: 'bench' });
    await index.load();
    index.search('');
    const used = (await inUse()) - baseline;
    const started = performance.now();
    index.search('article 99999');
    const searchMs = performance.now() - started;
    rows.push({
      figure: `7. index memory for 100,000 links (search of them: ${ms(searchMs)})`,
      measured: `${(used / 1024 / 1024).toFixed(1)} MB`,
      baseline: '-',
      ratio: `${(used / count) | 0} B/link`,
      goal: '< 400 B/link (search p50 < 5 ms: the 10,000-link row)',
      met: used / count < 400,
    });
  })();
}

/** n8n's "By URL": 3 items naming the account's oldest link, in a process that has not indexed the account yet. */
async function byUrlInN8n(rows: Row[]) {
  const { executeNode } = await import('../nodes/harness');
  const sandbox = await startSandbox({ seed: { links: 3_000 }, rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  try {
    const oldest = sandbox.store.state.links.filter((link) => link.userId === 2).reduce((a, b) => (a.id < b.id ? a : b));
    const credentials = { baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey };
    const before = sandbox.requests.length;
    const id = { __rl: true, mode: 'url', value: `${sandbox.baseUrl}/${oldest.alias}` };
    await executeNode(credentials, { resource: 'link', operation: 'get', id }, [{ json: {} }, { json: {} }, { json: {} }]);
    const lookups = (from: number) => sandbox.requests.slice(from).filter((request) => request.path === '/api/urls').length;
    const requests = lookups(before);
    const scan = Math.ceil(sandbox.store.state.links.filter((link) => link.userId === 2).length / 100);
    rows.push({
      figure:
        '7. n8n By URL: list requests to resolve 3 items naming the oldest link of a 3,000-link account (first use: the index is built; the 3 Gets not counted)',
      measured: String(requests),
      baseline: `${scan} (pages of one scan)`,
      ratio: (requests / scan).toFixed(3),
      goal: 'at most one scan',
      met: requests <= scan,
    });
    const again = sandbox.requests.length;
    await executeNode(credentials, { resource: 'link', operation: 'get', id }, [{ json: {} }, { json: {} }, { json: {} }]);
    const later = lookups(again);
    rows.push({
      figure: '7. same, the next execution (index complete)',
      measured: String(later),
      baseline: '1 (a sync of what changed)',
      ratio: later.toFixed(3),
      goal: 'no scan: at most 1',
      met: later <= 1,
    });
  } finally {
    await sandbox.close();
  }
}

/** Requests a reuse costs beyond the sync before its lookup: the GET that confirms the link (a hit) or the create (a miss). */
async function reuseCost(rows: Row[]) {
  const sandbox = await startSandbox({ seed: 'minimal', rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  try {
    fillLinks(sandbox, 1_000);
    const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter() } });
    const index = new LinkIndex();
    index.watch(client);
    await index.sync(client);
    const beyondLookup = async (url: string) => {
      const before = sandbox.requests.length;
      const answer = await createLink(client, index, { url, utm: { source: 'bench' } }, { reuse: true });
      return { answer, requests: sandbox.requests.slice(before).filter((request) => request.path.startsWith('/api/') && request.path !== '/api/urls').length };
    };
    const miss = await beyondLookup('https://example.com/reuse-bench');
    const hit = await beyondLookup('https://example.com/reuse-bench');
    rows.push({
      figure: `7. requests a reuse costs beyond the lookup's sync: a hit (reused: ${hit.answer.reused}, the GET that confirms it) / a miss (the create)`,
      measured: `${hit.requests} / ${miss.requests}`,
      baseline: '0 before (no confirmation: deleted, re-pointed or expired links were handed back)',
      ratio: hit.requests.toFixed(3),
      goal: '<= 1 beyond the lookup',
      met: hit.answer.reused && hit.requests <= 1 && miss.requests <= 1,
    });
  } finally {
    await sandbox.close();
  }
}

/**
 * The MCP server's first sync of 5,000 links at 30 a minute (the window scaled to 3 s), with a tool
 * call's request every tenth of a window through the server's one client (as get_account sends it),
 * each with the tool deadline and the rate-limit wait scaled the same (25 s and 20 s of 60).
 */
async function toolCallsDuringFirstSync(rows: Row[]) {
  const limit = 30;
  const windowMs = 3_000;
  const scale = windowMs / 60_000;
  // A server capping pages at 100, so that the first sync spans many windows.
  const sandbox = await startSandbox({ seed: 'minimal', maxPageSize: 100, rateLimit: { limit, windowMs } });
  const client = new LinkShortClient({
    baseUrl: sandbox.baseUrl,
    apiKey: sandbox.userKey,
    rateLimit: { limiter: new RateLimiter(), maxWaitMs: 20_000 * scale },
  });
  const server = new ServerLinkIndex(client);
  try {
    fillLinks(sandbox, 5_000);
    const started = performance.now();
    const firstSync = server.startFirstSync();
    let served = 0;
    let refused = 0;
    let slowest = 0;
    while (!server.index.freshness().complete) {
      await new Promise((resolve) => setTimeout(resolve, windowMs / 10));
      const call = performance.now();
      try {
        await client.account.get({ signal: AbortSignal.timeout(25_000 * scale) });
        served += 1;
      } catch {
        refused += 1;
      }
      slowest = Math.max(slowest, performance.now() - call);
    }
    await firstSync;
    const elapsed = performance.now() - started;
    const pages = sandbox.requests.filter((request) => request.path === '/api/urls').length;
    rows.push({
      figure: `7. MCP first sync of 5,000 links at ${limit}/window (${windowMs / 1000} s standing for 60 s), server capping pages at 100: tool calls served of those made, one each tenth of a window (slowest ${ms(slowest)})`,
      measured: `${served} of ${served + refused}`,
      baseline: 'before: 6 of 8 get_account calls refused 5 s after start',
      ratio: (served / Math.max(1, served + refused)).toFixed(3),
      goal: 'every call within its deadline',
      met: refused === 0 && slowest <= 25_000 * scale,
    });
    const floor = ((pages + served) / limit) * windowMs;
    rows.push({
      figure: `7. same, the first sync's total time beside the floor ((${pages} pages + ${served} calls) / rate)`,
      measured: ms(elapsed),
      baseline: ms(floor),
      ratio: (elapsed / floor).toFixed(3),
      goal: '<= 1.3x the floor',
      met: elapsed / floor <= 1.3,
    });
  } finally {
    await server.stop();
    await sandbox.close();
  }
}

export async function measureLinkIndex(): Promise<Row[]> {
  const rows: Row[] = [];
  await reuseCost(rows);
  await toolCallsDuringFirstSync(rows);
  await byUrlInN8n(rows);
  await searchAndQuietSync(rows);
  await firstSyncAtTheRate(rows);
  await indexMemory(rows);
  return rows;
}
