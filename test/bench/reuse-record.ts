/**
 * Reuse Existing Link after a restart (issue 52): what the first reuse costs when the link index
 * is new and the record of the links made comes from the workflow's static data (JSON), beside the
 * same reuse with the index warm, at an unbounded rate and at the service's real 30 requests a
 * minute with other requests already spent in the key's minute (the row's link older than the newest
 * page); the record's bytes at 10,000 made links; scrypt's cost per link.
 * Through the client as n8n's node calls it (`createLink` with a `MadeLinks` record).
 */
import { performance } from 'node:perf_hooks';
import { createLink, LinkIndex, LinkShortClient, MadeLinks, MAX_MADE_LINKS, RateLimiter } from '@linkshort/client';
import { startSandbox, type Sandbox } from '@linkshort/sandbox';
import { addLinks, fillLinks } from '../../packages/client/test/fill-links';
import { madeLinkEntry } from '../../packages/client/src/link-index/made-links';
import { hiddenOptionsKey } from '../../packages/client/src/link-index/reuse';
import { ms, percentile, type Row } from './row';

const LINKS = 10_000;
/** The service's rate (requests a minute per key), and the requests other nodes spent in the minute before the row. */
const REAL_RATE = 30;
const OTHER_REQUESTS = 5;
const apiRequests = (sandbox: Sandbox, from: number) => sandbox.requests.slice(from).filter((request) => request.path.startsWith('/api/'));
const newClient = (sandbox: Sandbox) => new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter() } });

/** One reuse of `row` with `index` and `record`: the requests it sent, how long it took, whether it was reused. */
async function reuseOnce(
  sandbox: Sandbox,
  client: LinkShortClient,
  index: LinkIndex,
  record: MadeLinks,
  row: { url: string; custom: string; password: string },
) {
  const before = sandbox.requests.length;
  const started = performance.now();
  const link = await createLink(client, index, row, { reuse: true, record });
  const time = performance.now() - started;
  const requests = apiRequests(sandbox, before);
  return { time, requests: requests.length, creates: requests.filter((request) => request.method === 'POST').length, reused: link.reused };
}

async function afterRestart(rows: Row[]) {
  const sandbox = await startSandbox({ seed: 'minimal', rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  try {
    fillLinks(sandbox, LINKS - 1);
    const row = { url: 'https://example.com/reuse-bench', custom: 'reuse-bench', password: 'secret-bench' };
    const record = new MadeLinks();
    // The account's links were all made by the workflow: the record holds each (without a password: the smaller record).
    for (const link of sandbox.store.state.links) {
      // What each was asked with (its digest is all the record keeps of it: the same length for every link).
      record.record(link.id, await madeLinkEntry(hiddenOptionsKey({}), undefined, JSON.stringify([link.url, link.alias])));
    }
    const made = await createLink(newClient(sandbox), new LinkIndex({ minSyncIntervalMs: 0 }), row, { reuse: true, record });
    const saved = JSON.stringify(record.state());

    const times: number[] = [];
    let restarted = { time: 0, requests: 0, creates: 0, reused: false };
    let warm = { time: 0, requests: 0, creates: 0, reused: false };
    const warmTimes: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      // A restart: a new client, an empty index, the record as n8n saved it.
      const client = newClient(sandbox);
      const index = new LinkIndex({ minSyncIntervalMs: 0 });
      const loaded = new MadeLinks();
      loaded.merge(JSON.parse(saved));
      restarted = await reuseOnce(sandbox, client, index, loaded, row);
      times.push(restarted.time);
      warm = await reuseOnce(sandbox, client, index, loaded, row);
      warmTimes.push(warm.time);
    }
    rows.push({
      figure: `21. Reuse Existing Link after a restart at ${LINKS.toLocaleString('en')} links, rate unbounded (new index, record from static data; alias and password), median of 5`,
      measured: `${ms(percentile(times, 50))}, ${restarted.requests} requests, ${restarted.creates} creates, reused ${restarted.reused}`,
      baseline: `warm index: ${ms(percentile(warmTimes, 50))}, ${warm.requests} requests`,
      ratio: (percentile(times, 50) / percentile(warmTimes, 50)).toFixed(1),
      goal: 'reused, 0 creates',
      met: restarted.reused && restarted.creates === 0 && made.reused === false,
    });
  } finally {
    await sandbox.close();
  }
}

/**
 * The same reuse at the service's real rate, `OTHER_REQUESTS` spent first by the restarted process, the
 * row's link below 9,999 newer ones (deeper than the new index's first read): a sandbox each round, so
 * that each round starts a fresh minute of the key.
 */
async function afterRestartAtRealRate(rows: Row[]) {
  const row = { url: 'https://example.com/reuse-bench-deep', custom: 'reuse-bench-deep', password: 'secret-bench' };
  const times: number[] = [];
  const warmTimes: number[] = [];
  let restarted = { time: 0, requests: 0, creates: 0, reused: false };
  let warm = { time: 0, requests: 0, creates: 0, reused: false };
  let allReused = true;
  for (let round = 0; round < 5; round += 1) {
    const sandbox = await startSandbox({ seed: 'minimal', rateLimit: { limit: REAL_RATE, windowMs: 60_000 } });
    try {
      const record = new MadeLinks();
      const made = await createLink(newClient(sandbox), new LinkIndex({ minSyncIntervalMs: 0 }), row, { reuse: true, record });
      const later = addLinks(sandbox, LINKS - 1, { from: Date.now() + 2_000, perSecond: 1, name: 'later' });
      // The record full: every later link made by the workflow too.
      for (const id of later) record.record(id, await madeLinkEntry(hiddenOptionsKey({}), undefined, `later ${id}`));
      const saved = JSON.stringify(record.state());

      const client = newClient(sandbox);
      for (let i = 0; i < OTHER_REQUESTS; i += 1) await client.account.get();
      const index = new LinkIndex({ minSyncIntervalMs: 0 });
      const loaded = new MadeLinks();
      loaded.merge(JSON.parse(saved));
      restarted = await reuseOnce(sandbox, client, index, loaded, row);
      times.push(restarted.time);
      allReused &&= restarted.reused && restarted.creates === 0 && made.reused === false;
      warm = await reuseOnce(sandbox, client, index, loaded, row);
      warmTimes.push(warm.time);
    } finally {
      await sandbox.close();
    }
  }
  rows.push({
    figure: `21. the same at the real ${REAL_RATE} requests a minute, ${OTHER_REQUESTS} other requests spent first, the link below ${(LINKS - 1).toLocaleString('en')} newer ones, median of 5`,
    measured: `${ms(percentile(times, 50))}, ${restarted.requests} requests, ${restarted.creates} creates, reused ${restarted.reused}`,
    baseline: `again, same index: ${ms(percentile(warmTimes, 50))}, ${warm.requests} requests`,
    ratio: (percentile(times, 50) / percentile(warmTimes, 50)).toFixed(1),
    goal: 'reused, 0 creates',
    met: allReused,
  });
}

async function recordSize(rows: Row[]) {
  const locked = hiddenOptionsKey({ password: 'x', parameters: [{ name: 'utm_source', value: 'newsletter' }] });
  // What was asked, as its digest: the same length for every link.
  const asked = JSON.stringify(['https://example.com/a/long/page', 'spring-sale', 'linkshort.example', '', '']);
  const hashed = await madeLinkEntry(locked, 'a password', asked);
  const plain = await madeLinkEntry(hiddenOptionsKey({}), undefined, asked);
  const bytes = (entry: string) => {
    const record = new MadeLinks();
    // Ids as a busy account's: seven digits.
    for (let id = 1_000_000; id < 1_000_000 + MAX_MADE_LINKS; id += 1) record.record(id, entry);
    return Buffer.byteLength(JSON.stringify({ linkShortMadeLinks: { 'https://linkshort.example 0123456789abcdef0123456789abcdef': record.state() } }));
  };
  const withPasswords = bytes(hashed);
  rows.push({
    figure: `21. the record's bytes in static data at ${MAX_MADE_LINKS.toLocaleString('en')} made links (its bound), every link with a password`,
    measured: `${(withPasswords / 1024).toFixed(0)} KB (${(withPasswords / MAX_MADE_LINKS).toFixed(0)} B/link)`,
    baseline: `no passwords: ${(bytes(plain) / 1024).toFixed(0)} KB`,
    ratio: '-',
    goal: '< 1 MB',
    met: withPasswords < 1024 * 1024,
  });

  const hashTimes: number[] = [];
  for (let i = 0; i < 20; i += 1) {
    const started = performance.now();
    await madeLinkEntry(locked, `password ${i}`);
    hashTimes.push(performance.now() - started);
  }
  const started = performance.now();
  for (let i = 0; i < 100; i += 1) await madeLinkEntry(locked, `row ${i}`);
  rows.push({
    figure: '21. scrypt of a link password (N 4096, r 8): one per row that gives a password, p50 of 20',
    measured: ms(percentile(hashTimes, 50)),
    baseline: `100 rows one after another: ${ms(performance.now() - started)}`,
    ratio: '-',
    goal: '(reported)',
    met: null,
  });
}

export async function measureReuseRecord(): Promise<Row[]> {
  const rows: Row[] = [];
  await afterRestart(rows);
  await afterRestartAtRealRate(rows);
  await recordSize(rows);
  return rows;
}
