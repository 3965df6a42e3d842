/**
 * `npm run bench`: every figure is a ratio of two things measured side by side in this one run,
 * on loopback against the sandbox. Prints a table and writes test/bench/RESULTS.md.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { LinkShortClient, RateLimiter, RateLimitError, undiciTransport } from '@linkshort/client';
import { startSandbox, type Sandbox } from '@linkshort/sandbox';
import { fillLinks } from '../../packages/client/test/fill-links';
import type { Credentials } from '../nodes/harness';
import { PolledTrigger } from '../nodes/trigger-poller';
import type { INodeParameters } from 'n8n-workflow';
import { measureClickHistory } from './clicks';
import { measureFarYearClicks } from './clicks-far-year';
import { measureLinkIndex } from './link-index';
import { measureMcp } from './mcp';
import { measureSandbox } from './sandbox';
import { measureBulkImports, measureTriggers } from './triggers';
import { measureClickEvents } from './click-events';
import { measureStore } from './store';
import { measureSignInFlood } from './sign-in-flood';
import { measureStepBack } from './step-back';
import { measureColdStart } from './cold-start';
import { measureMcpTools } from './mcp-tools';
import { measureBulkRealRate } from './bulk-real-rate';
import { measureReuseRecord } from './reuse-record';
import { ms, percentile, type Row } from './row';

const rows: Row[] = [];
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const sleep = (duration: number) => new Promise((resolve) => setTimeout(resolve, duration));

/** The sandbox in a process of its own, so that its work does not land on the measured side. */
async function sandboxProcess(args: string[]): Promise<{ baseUrl: string; userKey: string; close: () => Promise<void> }> {
  const child = spawn(process.execPath, [join(__dirname, '../../packages/sandbox/dist/cli.js'), '--port', '0', '--json', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString()));
    child.once('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
  });
  const { baseUrl, userKey } = JSON.parse(line) as { baseUrl: string; userKey: string };
  return { baseUrl, userKey, close: async () => void child.kill('SIGTERM') };
}

async function clientOverhead() {
  const sandbox = await sandboxProcess(['--rate-limit', '1000000/60']);
  // One connection pool for both sides, so that only the client's own work differs.
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, transport: undiciTransport(agent) });
  const url = `${sandbox.baseUrl}/api/url/1`;
  const headers = { authorization: `Bearer ${sandbox.userKey}`, accept: 'application/json' };
  const raw = async () => {
    const response = await request(url, { headers, dispatcher: agent });
    return JSON.parse(await response.body.text()) as unknown;
  };
  for (let i = 0; i < 1000; i += 1) {
    await raw();
    await client.links.get(1);
  }
  const rawTimes: number[] = [];
  const clientTimes: number[] = [];
  for (let i = 0; i < 2000; i += 1) {
    // Alternating the two keeps drift (GC, CPU frequency) from favouring either.
    const order = i % 2 === 0 ? [raw, () => client.links.get(1)] : [() => client.links.get(1), raw];
    for (const call of order) {
      const started = performance.now();
      await call();
      (call === raw ? rawTimes : clientTimes).push(performance.now() - started);
    }
  }
  await sandbox.close();
  await agent.close();
  const p50 = percentile(clientTimes, 50) / percentile(rawTimes, 50);
  const p99 = percentile(clientTimes, 99) / percentile(rawTimes, 99);
  rows.push({
    figure: '1. client.links.get vs raw undici, p50 (2,000 calls)',
    measured: ms(percentile(clientTimes, 50)),
    baseline: ms(percentile(rawTimes, 50)),
    ratio: p50.toFixed(3),
    goal: '<= 1.15',
    met: p50 <= 1.15,
  });
  rows.push({
    figure: '1. same, p99',
    measured: ms(percentile(clientTimes, 99)),
    baseline: ms(percentile(rawTimes, 99)),
    ratio: p99.toFixed(3),
    goal: '(reported)',
    met: null,
  });
}

async function pacedBurst() {
  const windowMs = 2000;
  const limit = 30;
  const creates = 100;
  const theoretical = (Math.ceil(creates / limit) - 1) * windowMs;
  const sandbox = await startSandbox({ seed: 'minimal', rateLimit: { limit, windowMs } });
  const burst = async (client: LinkShortClient, tag: string) => {
    // Start at the beginning of a window, as the theoretical minimum assumes.
    await sleep(windowMs - (Date.now() % windowMs) + 5);
    const started = performance.now();
    const outcomes = await Promise.allSettled(Array.from({ length: creates }, (_, i) => client.links.create({ url: `https://example.com/${tag}/${i}` })));
    return {
      elapsed: performance.now() - started,
      failed: outcomes.filter((o) => o.status === 'rejected' && o.reason instanceof RateLimitError).length,
      other: outcomes.filter((o) => o.status === 'rejected' && !(o.reason instanceof RateLimitError)).length,
    };
  };
  const paced = await burst(new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter() } }), 'paced');
  const naive = await burst(new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: false, maxRetries: 0 }), 'naive');
  await sandbox.close();
  const ratio = paced.elapsed / theoretical;
  rows.push({
    figure: `2. 100 creates, limit ${limit}/${windowMs / 1000} s: paced time vs theoretical minimum`,
    measured: `${ms(paced.elapsed)}, ${paced.failed + paced.other} errors`,
    baseline: ms(theoretical),
    ratio: ratio.toFixed(3),
    goal: '<= 1.05, 0 errors',
    met: ratio <= 1.05 && paced.failed + paced.other === 0,
  });
  rows.push({
    figure: '2. same burst sent naively (no pacing, like a generic HTTP node)',
    measured: `${naive.failed} of ${creates} failed with the limit`,
    baseline: '-',
    ratio: '-',
    goal: '(reported)',
    met: null,
  });
}

/**
 * Separate Node processes on one API key (as n8n's queue-mode workers are): each paces alone, from
 * what the server's answers say. All start at the same window's beginning.
 */
async function multiProcessBurst() {
  const processes = 4;
  const perProcess = 25;
  const limit = 30;
  const windowMs = 2000;
  const total = processes * perProcess;
  const theoretical = (Math.ceil(total / limit) - 1) * windowMs;
  const sandbox = await startSandbox({ seed: 'minimal', rateLimit: { limit, windowMs } });
  const clientPath = join(__dirname, '../../packages/client/dist/index.js');
  // Each process loads the client, says it is ready, waits for the start time it is sent, then creates its links.
  const script = `
    const { LinkShortClient, RateLimitError } = require(${JSON.stringify(clientPath)});
    const [baseUrl, apiKey, tag, count] = process.argv.slice(1);
    const client = new LinkShortClient({ baseUrl, apiKey });
    process.stdout.write('ready\\n');
    process.stdin.once('data', async (startAt) => {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt) - Date.now())));
      const outcomes = await Promise.allSettled(Array.from({ length: Number(count) }, (_, i) => client.links.create({ url: 'https://example.com/' + tag + '/' + i })));
      const errors = outcomes.filter((o) => o.status === 'rejected').map((o) => (o.reason instanceof RateLimitError ? 'limit: ' : '') + String(o.reason && o.reason.message));
      process.stdout.write(JSON.stringify({ finishedAt: Date.now(), errors }) + '\\n');
      process.exit(0);
    });`;
  const children = Array.from({ length: processes }, (_, i) =>
    spawn(process.execPath, ['-e', script, sandbox.baseUrl, sandbox.userKey, `process-${i}`, String(perProcess)], { stdio: ['pipe', 'pipe', 'inherit'] }),
  );
  const lines = children.map(
    (child) =>
      new Promise<string[]>((resolve, reject) => {
        const received: string[] = [];
        let buffer = '';
        child.stdout.on('data', (chunk: Buffer) => {
          buffer += chunk.toString();
          const complete = buffer.split('\n');
          buffer = complete.pop() ?? '';
          received.push(...complete);
        });
        child.once('exit', (code) => (code === 0 ? resolve(received) : reject(new Error(`burst process exited ${code}`))));
      }),
  );
  await Promise.all(children.map((child) => new Promise((resolve) => child.stdout.once('data', resolve))));
  const startAt = (Math.floor(Date.now() / windowMs) + 1) * windowMs + 5;
  for (const child of children) child.stdin.end(String(startAt));
  const results = (await Promise.all(lines)).map(
    (received) => JSON.parse(received.find((line) => line.startsWith('{')) ?? '{}') as { finishedAt: number; errors: string[] },
  );
  const elapsed = Math.max(...results.map((result) => result.finishedAt)) - startAt;
  const errors = results.flatMap((result) => result.errors);
  const urls = sandbox.store.state.links.map((link) => link.url).filter((url) => url.startsWith('https://example.com/process-'));
  const duplicates = urls.length - new Set(urls).size;
  const missing = total - new Set(urls).size;
  const requests = sandbox.requests.filter((request) => request.method === 'POST' && request.path === '/api/url/add').length;
  await sandbox.close();
  const ratio = elapsed / theoretical;
  rows.push({
    figure: `2. ${processes} processes x ${perProcess} creates on one key, limit ${limit}/${windowMs / 1000} s: time vs theoretical minimum`,
    measured: `${ms(elapsed)}, ${requests} requests (${requests - total + missing} answered with the limit), ${errors.length} errors surfaced, ${duplicates} duplicates, ${missing} missing`,
    baseline: ms(theoretical),
    ratio: ratio.toFixed(3),
    goal: '<= 1.15, 0 errors, 0 duplicates',
    met: ratio <= 1.15 && errors.length === 0 && duplicates === 0 && missing === 0,
  });
  if (errors.length > 0) console.log(`multi-process burst errors: ${[...new Set(errors)].join('; ')}`);
}

/** n8n's engine is loaded only for the figures that need it: it installs async hooks that slow every await in the process. */
const n8nHarness = () => import('../nodes/harness');

async function pollingCost() {
  const sandbox = await startSandbox({ seed: 'minimal', rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  fillLinks(sandbox, 10_000, (i) => i % 97);
  const credentials: Credentials = { baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey };
  const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: false });
  const naivePages = Math.ceil(10_000 / 100);

  const measure = async (parameters: INodeParameters, makeNew: (count: number) => Promise<void>) => {
    const trigger = new PolledTrigger(() => sandbox, parameters);
    const pollOnce = async () => {
      const emitted = (await trigger.poll()).length;
      return { requests: trigger.lastRequests, emitted };
    };
    await pollOnce();
    const results: Array<{ fresh: number; requests: number; emitted: number }> = [];
    for (const fresh of [0, 1, 50]) {
      await makeNew(fresh);
      results.push({ fresh, ...(await pollOnce()) });
    }
    return results;
  };

  let counter = 0;
  const newLinks = await measure({ event: 'newLink' }, async (count) => {
    for (let i = 0; i < count; i += 1) await client.links.create({ url: `https://example.com/poll/${(counter += 1)}` });
  });
  const threshold = 100;
  let crossing = 0;
  const crossings = await measure({ event: 'linkClickThreshold', threshold }, async (count) => {
    for (let i = 0; i < count; i += 1) sandbox.store.state.links[(crossing += 1) * 37]!.stats.clicks = threshold + i;
  });
  const bulk = await quietPollAfterBulkImport(sandbox);
  const overlap = await overlappingPolls(sandbox, credentials, client);
  await sandbox.close();
  for (const [name, results] of [
    ['newLink', newLinks],
    ['linkClickThreshold', crossings],
  ] as const) {
    for (const { fresh, requests, emitted } of results) {
      const ratio = naivePages / requests;
      rows.push({
        figure: `3. ${name} poll at 10,000 links, ${fresh} new (emitted ${emitted})`,
        measured: `${requests} request${requests === 1 ? '' : 's'}`,
        baseline: `${naivePages} (every page of 100)`,
        ratio: `${ratio.toFixed(0)}x fewer`,
        goal: '>= 50x fewer',
        met: ratio >= 50 && emitted === fresh,
      });
    }
  }
  rows.push({
    figure: `3. newLink quiet poll after a bulk import of ${bulk.imported} links in one second (emitted ${bulk.emitted})`,
    measured: `${bulk.requests} request${bulk.requests === 1 ? '' : 's'} (the poll before: ${bulk.settling})`,
    baseline: `${bulk.importPages} (the pages the import fills)`,
    ratio: `${(bulk.importPages / bulk.requests).toFixed(0)}x fewer`,
    goal: '1 request',
    met: bulk.requests === 1 && bulk.emitted === bulk.imported,
  });
  rows.push({
    figure: `3. newLink: two polls in flight at once (slow server), ${overlap.created} new links`,
    measured: `${overlap.duplicates} duplicates, ${overlap.missing} missing; the overlapping poll made ${overlap.overlapRequests} requests`,
    baseline: `${overlap.created} links`,
    ratio: '-',
    goal: '0 duplicates, 0 missing',
    met: overlap.duplicates === 0 && overlap.missing === 0,
  });
}

/**
 * 250 links sharing one second at the top of a 10,000-link list: the poll that finds them, the
 * next one (which reads their second once more), then the quiet poll measured. Polls are two
 * seconds apart here (n8n's are at least a minute apart).
 */
async function quietPollAfterBulkImport(sandbox: Sandbox) {
  const trigger = new PolledTrigger(() => sandbox, { event: 'newLink' });
  const pollOnce = async () => {
    const emitted = (await trigger.poll()).length;
    return { requests: trigger.lastRequests, emitted };
  };
  await pollOnce();
  const imported = 250;
  const second = new Date(Date.now() + 1000).toISOString().slice(0, 19).replace('T', ' ');
  fillLinks(sandbox, imported, () => 0);
  for (const link of sandbox.store.state.links.slice(-imported)) link.date = second;
  const found = await pollOnce();
  await sleep(2_100);
  const settling = await pollOnce();
  await sleep(2_100);
  const quiet = await pollOnce();
  return { imported, emitted: found.emitted, importPages: found.requests, settling: settling.requests, requests: quiet.requests };
}

/** A poll slowed by the server while the next scheduled poll starts; then one more poll. */
async function overlappingPolls(sandbox: Sandbox, credentials: Credentials, client: LinkShortClient) {
  const { activeTrigger } = await n8nHarness();
  const trigger = activeTrigger(credentials, { event: 'newLink' });
  await trigger.poll();
  const created: number[] = [];
  for (let i = 0; i < 20; i += 1) created.push((await client.links.create({ url: `https://example.com/overlap/${i}` })).id);
  sandbox.faults.set([{ kind: 'delay', delayMs: 1_500, times: 1 }]);
  const slow = trigger.poll();
  await sleep(300);
  const before = sandbox.requests.length;
  await trigger.poll();
  const overlapRequests = sandbox.requests.length - before;
  await slow;
  sandbox.faults.clear();
  await trigger.poll();
  const emitted = trigger.emitted.flatMap((data) => (data[0] ?? []).map((item) => item.json.id as number));
  return {
    created: created.length,
    duplicates: emitted.length - new Set(emitted).size,
    missing: created.filter((id) => !emitted.includes(id)).length,
    overlapRequests,
  };
}

async function returnAll() {
  // The sandbox runs in its own process here, so that the heap measured is the client's alone.
  const sandbox = await sandboxProcess(['--rate-limit', '1000000/60', '--seed', 'minimal']);
  const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey });
  const urls = Array.from({ length: 10_000 }, (_, i) => `https://example.com/memory/${i}`);
  for (let i = 0; i < urls.length; i += 50) await Promise.all(urls.slice(i, i + 50).map((url) => client.links.create({ url })));
  let requestsMade = 0;
  const counting = new LinkShortClient({
    baseUrl: sandbox.baseUrl,
    apiKey: sandbox.userKey,
    transport: (request) => {
      requestsMade += 1;
      return transport(request);
    },
  });
  const transport = undiciTransport();
  const run = async (collect: boolean) => {
    gc();
    const base = process.memoryUsage().heapUsed;
    let peak = 0;
    const before = requestsMade;
    const kept: unknown[] = [];
    let count = 0;
    for await (const page of counting.links.list({ limit: 100 }).pages()) {
      count += page.items.length;
      if (collect) kept.push(...page.items);
      // Measured while the current page is still in hand: what this way of reading holds at its peak.
      gc();
      peak = Math.max(peak, process.memoryUsage().heapUsed - base);
      if (page.items.length === 0) break;
    }
    return { count, requests: requestsMade - before, peak, kept: kept.length };
  };
  await run(false);
  const streaming = await run(false);
  const collecting = await run(true);
  await sandbox.close();
  const mb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
  rows.push({
    figure: `4. Return All of 10,000 links: streaming (for await) vs collecting, peak heap`,
    measured: `${mb(streaming.peak)}, ${streaming.requests} requests, ${streaming.count} links`,
    baseline: `${mb(collecting.peak)}, ${collecting.requests} requests`,
    ratio: (streaming.peak / collecting.peak).toFixed(3),
    goal: '(reported; streaming holds one page)',
    met: null,
  });
}

async function nodeOverhead() {
  const { executeNode } = await n8nHarness();
  const sandbox = await startSandbox({ seed: 'minimal', rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  fillLinks(sandbox, 1000, () => 0);
  const credentials: Credentials = { baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey };
  const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey });
  const viaNode = async () => (await executeNode(credentials, { resource: 'link', operation: 'getMany', returnAll: true })).length;
  const viaClient = async () => (await client.links.list({ limit: 100 }).toArray()).length;
  await viaNode();
  await viaClient();
  const nodeTimes: number[] = [];
  const clientTimes: number[] = [];
  for (let i = 0; i < 15; i += 1) {
    for (const [call, times] of i % 2 === 0
      ? ([
          [viaNode, nodeTimes],
          [viaClient, clientTimes],
        ] as const)
      : ([
          [viaClient, clientTimes],
          [viaNode, nodeTimes],
        ] as const)) {
      const started = performance.now();
      const count = await call();
      if (count !== 1000) throw new Error(`expected 1,000 links, got ${count}`);
      times.push(performance.now() - started);
    }
  }
  await sandbox.close();
  rows.push({
    figure: '5. Get Many of 1,000 links through n8n-core vs the client alone (median of 15)',
    measured: ms(percentile(nodeTimes, 50)),
    baseline: ms(percentile(clientTimes, 50)),
    ratio: (percentile(nodeTimes, 50) / percentile(clientTimes, 50)).toFixed(3),
    goal: "(reported: the node's own overhead)",
    met: null,
  });
}

function raycastBundles() {
  const dist = join(__dirname, '../../raycast-extension/dist');
  if (!existsSync(dist)) {
    rows.push({
      figure: '6. Raycast bundles',
      measured: 'not built (run npm run build --workspace linkshort)',
      baseline: '-',
      ratio: '-',
      goal: 'Shorten Link < 150 KB',
      met: false,
    });
    return;
  }
  for (const file of readdirSync(dist)
    .filter((name) => name.endsWith('.js'))
    .sort()) {
    const size = statSync(join(dist, file)).size;
    const isShorten = file === 'shorten-link.js';
    rows.push({
      figure: `6. Raycast bundle ${file}`,
      measured: `${(size / 1024).toFixed(1)} KB`,
      baseline: isShorten ? '150 KB' : '-',
      ratio: isShorten ? (size / 1024 / 150).toFixed(3) : '-',
      goal: isShorten ? '< 150 KB' : '(reported)',
      met: isShorten ? size < 150 * 1024 : null,
    });
  }
}

async function main() {
  const only = process.argv.slice(2);
  const figures: Array<[string, () => Promise<void> | void]> = [
    ['overhead', clientOverhead],
    ['burst', pacedBurst],
    ['processes', multiProcessBurst],
    ['polling', pollingCost],
    ['memory', returnAll],
    ['node', nodeOverhead],
    ['raycast', raycastBundles],
    ['index', async () => void rows.push(...(await measureLinkIndex()))],
    ['clicks', () => void rows.push(...measureClickHistory())],
    ['clicks-far-year', () => void rows.push(...measureFarYearClicks())],
    ['mcp', async () => void rows.push(...(await measureMcp()))],
    ['sandbox', async () => void rows.push(...(await measureSandbox()))],
    ['charts', async () => void rows.push(...(await import('./charts')).measureCharts())],
    ['triggers', async () => void rows.push(...(await measureTriggers()))],
    ['bulk-imports', async () => void rows.push(...(await measureBulkImports()))],
    ['click-events', async () => void rows.push(...(await measureClickEvents()))],
    ['store', async () => void rows.push(...(await measureStore()))],
    ['sign-in-flood', async () => void rows.push(...(await measureSignInFlood()))],
    ['step-back', async () => void rows.push(...(await measureStepBack()))],
    ['cold-start', async () => void rows.push(...(await measureColdStart()))],
    ['mcp-tools', async () => void rows.push(...(await measureMcpTools()))],
    ['reuse-record', async () => void rows.push(...(await measureReuseRecord()))],
    ['bulk-real-rate', async () => void rows.push(...(await measureBulkRealRate()))],
  ];
  for (const [name, run] of figures) {
    if (only.length > 0 && !only.includes(name)) continue;
    process.stdout.write(`measuring ${name}...\n`);
    await run();
  }
  const header = '| figure | measured | side by side | ratio | goal | met |\n|---|---|---|---|---|---|';
  const table = [
    header,
    ...rows.map(
      (row) => `| ${row.figure} | ${row.measured} | ${row.baseline} | ${row.ratio} | ${row.goal} | ${row.met === null ? '-' : row.met ? 'yes' : 'NO'} |`,
    ),
  ].join('\n');
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const machine = `${cpu}, ${cpus().length} cores, ${(totalmem() / 1024 ** 3).toFixed(0)} GiB, Node ${process.version}, ${process.platform}/${process.arch}`;
  console.log(`\n${table}\n\n${machine}`);
  if (only.length === 0) {
    // Sections after the table (the `npm start` timings) are measured by hand and kept.
    const path = join(__dirname, 'RESULTS.md');
    const previous = existsSync(path) ? readFileSync(path, 'utf8') : '';
    const kept = previous.indexOf('\n## ') === -1 ? '' : previous.slice(previous.indexOf('\n## '));
    writeFileSync(
      path,
      `# Benchmark results\n\nMeasured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine}, by \`npm run bench\`.\nEach ratio compares two things measured side by side in the same run, on loopback against the sandbox.\n\n${table}\n${kept}`,
    );
  }
  const missed = rows.filter((row) => row.met === false);
  if (missed.length > 0) {
    console.log(`\n${missed.length} goal(s) not met: ${missed.map((row) => row.figure).join('; ')}`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
