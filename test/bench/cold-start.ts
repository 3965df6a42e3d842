/**
 * Row 22 (`npm run bench -- cold-start`, issue 53): a client spawns the stdio server for every
 * conversation, so its start is felt each time. The built server (packages/mcp/dist/cli.js) beside a
 * minimal server on the v1 SDK (v1-minimal-server.cjs), each spawned cold by the same client code and
 * driven through initialize, tools/list and its first tool call (get_account against the sandbox), in
 * alternating runs. Then each one's memory at rest: RSS and heap after a full gc, 2 s after that
 * answer, with nothing asked of it (read through report-memory.cjs, preloaded into both alike).
 */
import { startSandbox } from '@linkshort/sandbox';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { MCP_CLI } from '../support/mcp-process';
import { ms, percentile, type Row } from './row';

const V1_SERVER = join(__dirname, 'v1-minimal-server.cjs');
const REPORT_MEMORY = join(__dirname, 'report-memory.cjs');
const RUNS = 15;
const MEMORY_RUNS = 3;
const AT_REST_MS = 2_000;
const GOAL_RATIO = 1.0;

interface Server {
  label: string;
  script: string;
}

/** What a conversation's client does first: initialize, initialized, tools/list, then one tool call; resolves with the process at rest. */
async function firstAnswer(server: Server, env: Record<string, string>, nodeOptions: string[] = []): Promise<{ child: ChildProcess; elapsed: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeOptions, server.script], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr!.resume();
  const send = (message: object) => child.stdin!.write(`${JSON.stringify(message)}\n`);
  try {
    const elapsed = await new Promise<number>((resolve, reject) => {
      let buffered = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        for (let newline = buffered.indexOf('\n'); newline >= 0; newline = buffered.indexOf('\n')) {
          const message = JSON.parse(buffered.slice(0, newline)) as { id?: number; result?: { tools?: unknown[]; structuredContent?: unknown } };
          buffered = buffered.slice(newline + 1);
          if (message.id === 1) {
            send({ jsonrpc: '2.0', method: 'notifications/initialized' });
            send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
          } else if (message.id === 2) {
            if (!message.result?.tools?.length) reject(new Error(`${server.label}: tools/list answered ${JSON.stringify(message).slice(0, 300)}`));
            send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_account', arguments: {} } });
          } else if (message.id === 3) {
            if (message.result?.structuredContent === undefined)
              reject(new Error(`${server.label}: get_account answered ${JSON.stringify(message).slice(0, 300)}`));
            resolve(performance.now() - started);
          }
        }
      });
      child.once('exit', (code) => reject(new Error(`${server.label} exited with ${code}`)));
      send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'linkshort-bench', version: '1.0.0' } },
      });
    });
    return { child, elapsed };
  } catch (error) {
    child.kill();
    throw error;
  }
}

/** RSS and heap used after a full gc, `AT_REST_MS` after the first answer. */
async function memoryAtRest(server: Server, env: Record<string, string>): Promise<{ rss: number; heapUsed: number }> {
  const { child } = await firstAnswer(server, env, ['-r', REPORT_MEMORY]);
  try {
    await new Promise((resolve) => setTimeout(resolve, AT_REST_MS));
    let stderr = '';
    const line = new Promise<string>((resolve) => {
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const found = /^memory (.+)$/m.exec(stderr);
        if (found) resolve(found[1]!);
      });
    });
    child.kill('SIGUSR2');
    const usage = JSON.parse(await line) as { rss: number; heapUsed: number };
    return { rss: usage.rss, heapUsed: usage.heapUsed };
  } finally {
    child.kill();
  }
}

const MB = 1024 * 1024;
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
const spread = (times: number[]) => `${ms(percentile(times, 50))} (min ${ms(Math.min(...times))}, max ${ms(Math.max(...times))})`;

export async function measureColdStart(): Promise<Row[]> {
  const sandbox = await startSandbox({ port: 0, rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  const env = { LINKSHORT_BASE_URL: sandbox.baseUrl, LINKSHORT_API_KEY: sandbox.userKey };
  const servers: Server[] = [
    { label: 'the built server', script: MCP_CLI },
    { label: 'the minimal v1 server', script: V1_SERVER },
  ];
  const times: number[][] = servers.map(() => []);
  try {
    // One start of each first, unmeasured, so both find their files in the page cache.
    for (const server of servers) (await firstAnswer(server, env)).child.kill();
    for (let run = 0; run < RUNS; run += 1) {
      // Alternating, and which goes first too, so load from elsewhere falls on both alike.
      const order = run % 2 === 0 ? [0, 1] : [1, 0];
      for (const index of order) {
        const { child, elapsed } = await firstAnswer(servers[index]!, env);
        child.kill();
        times[index]!.push(elapsed);
      }
    }
    const memory: Array<Array<{ rss: number; heapUsed: number }>> = servers.map(() => []);
    for (let run = 0; run < MEMORY_RUNS; run += 1) {
      for (const [index, server] of servers.entries()) memory[index]!.push(await memoryAtRest(server, env));
    }
    const [built, v1] = times as [number[], number[]];
    const ratio = percentile(built, 50) / percentile(v1, 50);
    const [builtMemory, v1Memory] = memory.map((runs) => ({
      rss: percentile(
        runs.map((run) => run.rss),
        50,
      ),
      heapUsed: percentile(
        runs.map((run) => run.heapUsed),
        50,
      ),
    })) as [{ rss: number; heapUsed: number }, { rss: number; heapUsed: number }];
    return [
      {
        figure: `22. MCP over stdio: cold start to the first tool answer (spawn, initialize, tools/list, get_account), built server vs a minimal v1-SDK server, median of ${RUNS} alternating (min, max)`,
        measured: spread(built),
        baseline: spread(v1),
        ratio: ratio.toFixed(3),
        goal: `<= ${GOAL_RATIO.toFixed(1)} (before: 1.39 from runs apart)`,
        met: ratio <= GOAL_RATIO,
      },
      {
        figure: `22. same, memory at rest ${AT_REST_MS / 1000} s after the first answer, after a full gc: RSS; heap used (median of ${MEMORY_RUNS})`,
        measured: `${mb(builtMemory.rss)}; ${mb(builtMemory.heapUsed)}`,
        baseline: `${mb(v1Memory.rss)}; ${mb(v1Memory.heapUsed)}`,
        ratio: `${(builtMemory.rss / v1Memory.rss).toFixed(3)}; ${(builtMemory.heapUsed / v1Memory.heapUsed).toFixed(3)}`,
        goal: '(reported)',
        met: null,
      },
    ];
  } finally {
    await sandbox.close();
  }
}
