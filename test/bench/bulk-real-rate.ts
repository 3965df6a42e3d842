/**
 * Row 24 (issue 53): a bulk update of 100 links through update_links at the real 30 requests a
 * minute (the sandbox's windows are a minute long, not scaled), with the settings that ship: the
 * client as the CLI makes it (`clientFor`, its 20 s max wait), the server's 25 s call deadline, and
 * an MCP client that can ask the person (elicitation, answered yes and counted). The client plays the
 * model: it calls again with each answer's confirmation, after the answer's retryAfterSeconds when
 * it gives one. Measured from the preview's first call to the last confirmed answer: the calls made,
 * the prompts shown and the time beside the floor of requests / rate. About 11 minutes, mostly waiting.
 */
import { RateLimiter } from '@linkshort/client';
import { startSandbox } from '@linkshort/sandbox';
import { Client } from '@modelcontextprotocol/client';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { addLinks } from '../../packages/client/test/fill-links';
import { clientFor, DEFAULT_MAX_WAIT_SECONDS } from '../../packages/mcp/src/config/command-line';
import { connectInMemory } from '../../packages/mcp/test/in-memory';
import type { Row } from './row';

const LIMIT = 30;
const WINDOW_MS = 60_000;
const LINKS = 100;

interface Answer {
  stage: 'preview' | 'confirmed';
  confirmation: string | null;
  counts: Record<string, number>;
  retryAfterSeconds?: number;
}

export async function measureBulkRealRate(): Promise<Row[]> {
  const sandbox = await startSandbox({ port: 0, rateLimit: { limit: LIMIT, windowMs: WINDOW_MS } });
  const ids = addLinks(sandbox, LINKS, { from: Date.now() - 3_600_000, perSecond: 10, name: 'realrate', title: (i) => `real rate ${i}` });
  const client = clientFor(sandbox.baseUrl, sandbox.userKey, DEFAULT_MAX_WAIT_SECONDS, new RateLimiter());
  const mcp = new Client(
    { name: 'bench-asks', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } },
  );
  let prompts = 0;
  mcp.setRequestHandler('elicitation/create', () => {
    prompts += 1;
    return { action: 'accept', content: { confirm: true } };
  });
  const connection = await connectInMemory(mcp, { client });
  const writes = () => sandbox.requests.filter((request) => request.method === 'PUT').length;
  const updated = () => ids.filter((id) => sandbox.store.state.links.find((link) => link.id === id)!.metatitle === 'Real rate').length;
  let lastProgress = { progress: 0, total: 0 };
  let calls = 0;
  const call = async (args: Record<string, unknown>): Promise<Answer> => {
    const result = await mcp.callTool(
      { name: 'update_links', arguments: args },
      { timeout: 120_000, onprogress: (report) => void (report.total !== undefined && (lastProgress = { progress: report.progress, total: report.total })) },
    );
    calls += 1;
    if (result.isError) throw new Error(`update_links failed: ${JSON.stringify(result.content).slice(0, 300)}`);
    const answer = result.structuredContent as unknown as Answer;
    if (answer.confirmation !== null && answer.retryAfterSeconds !== undefined) await sleep(answer.retryAfterSeconds * 1000);
    return answer;
  };
  try {
    // The index's first sync, done before as a running server's is; then a fresh window, as a key at rest has.
    await mcp.callTool({ name: 'find_links', arguments: { text: 'realrate' } });
    await sleep(WINDOW_MS - (Date.now() % WINDOW_MS) + 50);
    const args = { search: { text: 'realrate', limit: LINKS }, set: { metatitle: 'Real rate' } };
    const requestsBefore = sandbox.requests.length;
    const started = performance.now();
    let answer = await call(args);
    while (answer.stage === 'preview' && answer.confirmation?.startsWith('r')) answer = await call({ ...args, confirmation: answer.confirmation });
    const previewCalls = calls;
    const changedByPreview = writes() + updated();
    const promptsInPreview = prompts;
    while (answer.confirmation !== null && calls < 60) answer = await call({ ...args, confirmation: answer.confirmation });
    const elapsed = performance.now() - started;
    const requests = sandbox.requests.length - requestsBefore;
    const floor = (requests / LIMIT) * WINDOW_MS;
    const done = updated();
    return [
      {
        figure: `24. update_links of ${LINKS} links found by a search at the real ${LIMIT} requests a minute, shipped defaults (25 s call deadline, ${DEFAULT_MAX_WAIT_SECONDS} s max wait, a client that asks the person): preview to last answer beside the floor (requests / rate)`,
        measured:
          `${(elapsed / 1000).toFixed(1)} s, ${calls} calls (${previewCalls} reading the preview, ${calls - previewCalls} confirming), ${requests} requests, ` +
          `${prompts} prompt${prompts === 1 ? '' : 's'}, ${done} updated, progress ${lastProgress.progress} of ${lastProgress.total}`,
        baseline: `${(floor / 1000).toFixed(1)} s (${requests} / ${LIMIT} a minute)`,
        ratio: (elapsed / floor).toFixed(3),
        goal: '<= 1.2, every link done, the person asked once',
        met: elapsed / floor <= 1.2 && done === LINKS && prompts === 1,
      },
      {
        figure: `24. same, links changed before the person's yes (the preview's ${previewCalls} calls)`,
        measured: `${changedByPreview} changed, ${promptsInPreview} prompts`,
        baseline: '0',
        ratio: '-',
        goal: '0 changed without a confirmation',
        met: changedByPreview === 0 && promptsInPreview === 0,
      },
    ];
  } finally {
    await connection.close();
    await sandbox.close();
  }
}
