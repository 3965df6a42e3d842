import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { startSandbox } from '@linkshort/sandbox';
import { ms, percentile, type Row } from './row';

/**
 * The sandbox with a data file at 100,000 links beside the same at 100 links: p99 of a create and
 * of a visit (a click saved), each answered only once written. Before the journal every change
 * rewrote the whole file, so the cost grew with the account.
 */

const CREATES = 300;
const VISITS = 300;

async function timings(links: number): Promise<{ create: number[]; visit: number[] }> {
  const folder = mkdtempSync(join(tmpdir(), 'linkshort-bench-sandbox-'));
  const sandbox = await startSandbox({ dataFile: join(folder, 'state.json'), seed: { links }, rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  const headers = { authorization: `Bearer ${sandbox.userKey}`, 'content-type': 'application/json' };
  try {
    // Warm up: the first list builds the account's index, as a real first request would.
    await (await request(`${sandbox.baseUrl}/api/urls?limit=1`, { headers })).body.dump();
    const create: number[] = [];
    const shortUrls: string[] = [];
    for (let i = 0; i < CREATES; i += 1) {
      const started = performance.now();
      const response = await request(`${sandbox.baseUrl}/api/url/add`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: `https://example.com/bench/${i}`, metatitle: `Bench ${i}` }),
      });
      const body = (await response.body.json()) as { error: number; shorturl: string };
      create.push(performance.now() - started);
      if (body.error !== 0) throw new Error(`create ${i} failed: ${JSON.stringify(body)}`);
      shortUrls.push(body.shorturl.replace(/\\\//g, '/'));
    }
    const visit: number[] = [];
    for (let i = 0; i < VISITS; i += 1) {
      const started = performance.now();
      const response = await request(shortUrls[i % shortUrls.length]!, { headers: { referer: `https://ref${i % 7}.example/` } });
      await response.body.dump();
      visit.push(performance.now() - started);
      if (response.statusCode !== 302) throw new Error(`visit ${i} answered ${response.statusCode}`);
    }
    return { create, visit };
  } finally {
    await sandbox.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

export async function measureSandbox(): Promise<Row[]> {
  // A first run warms the JIT and the HTTP client, so that the 100-link baseline is not its cold start.
  await timings(100);
  const small = await timings(100);
  const large = await timings(100_000);
  const row = (what: string, measured: number[], baseline: number[]): Row => {
    const [m, b] = [percentile(measured, 99), percentile(baseline, 99)];
    return {
      figure: `Sandbox ${what} p99 with a data file: 100,000 links vs 100`,
      measured: ms(m),
      baseline: ms(b),
      ratio: `${(m / b).toFixed(2)}x`,
      goal: 'within 2x',
      met: m <= 2 * b,
    };
  };
  return [row('create', large.create, small.create), row('visit', large.visit, small.visit)];
}
