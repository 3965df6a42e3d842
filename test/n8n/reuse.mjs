// Reuse Existing Link in a real n8n (issue 52): a workflow whose production webhook shortens one
// row with Reuse Existing Link on, each row sent again after a restart of n8n (e2e.mjs) and on the
// other queue-mode worker (reuse-queue.mjs, run by queue.mjs). The record of the links the node made lives in the
// workflow's static data, which n8n saves after each production execution.
import { assert } from './checks.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The rows a new user would send twice: an alias, a password, both. */
export const REUSE_ROWS = [
  { url: 'https://example.com/reuse/alias', alias: 'reuse-alias' },
  { url: 'https://example.com/reuse/password', password: 'secret-reuse-1' },
  { url: 'https://example.com/reuse/both', alias: 'reuse-both', password: 'secret-reuse-2' },
];

/** A webhook (POST /webhook/reuse-record) answering with the LinkShort node's output for the row it is sent. */
export function reuseWorkflow(credential = { id: 'linkshortAccount', name: 'LinkShort account' }) {
  return {
    id: 'lsReuseRecord',
    name: 'Shorten with Reuse Existing Link',
    nodes: [
      {
        id: 'reuse-1',
        name: 'Row',
        type: 'n8n-nodes-base.webhook',
        typeVersion: 2,
        position: [0, 0],
        webhookId: '7c1e2d3f-0000-4000-8000-00000000c001',
        parameters: { httpMethod: 'POST', path: 'reuse-record', responseMode: 'lastNode', options: {} },
      },
      {
        id: 'reuse-2',
        name: 'Shorten',
        type: 'n8n-nodes-linkshort.linkShort',
        typeVersion: 1.2,
        position: [220, 0],
        parameters: {
          resource: 'link',
          operation: 'create',
          url: '={{ $json.body.url }}',
          additionalFields: { custom: "={{ $json.body.alias ?? '' }}", password: "={{ $json.body.password ?? '' }}" },
          options: { reuse: true },
        },
        credentials: { linkShortApi: credential },
      },
    ],
    connections: { Row: { main: [[{ node: 'Shorten', type: 'main', index: 0 }]] } },
    settings: { executionOrder: 'v1' },
  };
}

/** Sends one row to the workflow's production webhook: `{ status, text, body }` (body: the node's output, when JSON). */
export async function sendRow(n8nUrl, row) {
  // n8n answers before it has activated its workflows: 404 (or no connection, or 503 "Database is not ready", on a busy machine) until the webhook is registered.
  const send = () =>
    fetch(`${n8nUrl}/webhook/reuse-record`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(row) }).catch((error) => ({
      status: 404,
      error,
    }));
  let response = await send();
  for (const started = Date.now(); (response.status === 404 || response.status === 503) && Date.now() - started < 300_000; response = await send())
    await sleep(2000);
  if (response.error) throw response.error;
  const text = await response.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  // The execution saves its static data as it ends, just after the webhook's answer leaves; a failed
  // execution's log lines and record come a moment after the answer too.
  await sleep(response.status === 200 ? 1000 : 3000);
  return { status: response.status, text, body, type: response.headers.get('content-type') };
}

/**
 * Sends each row, one after another; the node's outputs. `logOf()` (queue mode: the n8n processes'
 * output lines) is quoted when a row fails: the answer says only "Error in workflow", the log says why.
 */
export async function sendRows(n8nUrl, rows = REUSE_ROWS, logOf = () => []) {
  const outputs = [];
  for (const row of rows) {
    const { status, text, body, type } = await sendRow(n8nUrl, row);
    assert(
      status === 200,
      `the row ${JSON.stringify(row)} answered ${status} ${text.slice(0, 500)}\n      n8n's log (last 15 lines):\n${logOf().slice(-15).join('\n')}`,
    );
    assert(body !== undefined, `the row ${JSON.stringify(row)} answered ${type}: ${text.slice(0, 500)}`);
    outputs.push(body);
  }
  return outputs;
}

export const createsOf = (requests) => requests.filter((request) => request.method === 'POST' && request.path === '/api/url/add');

/** e2e.mjs: each row sent, n8n restarted, each row sent again: the same links, `reused: true`, no create. */
export async function reuseAfterRestartChecks({ check, sandbox, n8nUrl, restart }) {
  let first;
  await check(
    'Reuse Existing Link: a row with an alias, one with a password and one with both, sent to the production webhook, each make their link',
    async () => {
      first = await sendRows(n8nUrl());
      first.forEach((output, i) => assert(output.reused === false && output.longurl === REUSE_ROWS[i].url, `row ${i}: ${JSON.stringify(output)}`));
    },
  );
  await check(
    'Reuse Existing Link after a restart of n8n: each row sent again answers with its first link, reused: true, and no create reaches the service',
    async () => {
      assert(first, 'the first runs failed');
      await restart();
      const before = sandbox.requests.length;
      const again = await sendRows(n8nUrl());
      again.forEach((output, i) =>
        assert(
          output.reused === true && output.id === first[i].id && output.notReused === undefined,
          `row ${i} after the restart: ${JSON.stringify(output)}, first ${JSON.stringify(first[i])}`,
        ),
      );
      const creates = createsOf(sandbox.requests.slice(before));
      assert(creates.length === 0, `${creates.length} creates after the restart`);
    },
  );
}

// Alone, without the rest of the suites: `node test/n8n/reuse.mjs restart` (one n8n, restarted) or
// `node test/n8n/reuse.mjs queue` (Redis, Postgres, main and two workers). Both need n8n installed.
async function alone(mode) {
  const { mkdirSync, mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
  const { createRequire } = await import('node:module');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { checkList } = await import('./checks.mjs');
  const n8nHelpers = await import('./n8n.mjs');
  const { ensureN8n, exampleAccount, freePort, installNodePackage, n8nCli, ROOT, startN8n, writeLinkShortCredentials } = n8nHelpers;
  const { startSandbox } = createRequire(import.meta.url)(join(ROOT, 'packages/sandbox/dist/index.js'));
  const { check, fail, finish } = checkList(`n8n reuse (${mode})`);
  await ensureN8n();
  const dir = mkdtempSync(join(tmpdir(), 'linkshort-reuse-'));
  let stack;
  let api;
  let sandboxPort = 0;
  if (mode === 'queue') {
    // The proxy tells which worker sent each request. The short URLs are on its address, as the
    // service's are on the address its clients use: reuse takes a link on another host for one on another domain.
    const { startAttributingProxy } = await import('./queue-stack.mjs');
    sandboxPort = await freePort();
    api = await startAttributingProxy(
      `http://127.0.0.1:${sandboxPort}`,
      (pid) => stack?.nameOf(pid),
      () => stack?.pids() ?? [],
    );
  }
  const sandbox = await startSandbox({ port: sandboxPort, publicUrl: api?.url, rateLimit: { limit: 100_000, windowMs: 60_000 } });
  const workflow = reuseWorkflow();
  const stops = [];
  try {
    if (mode === 'restart') {
      const port = await freePort();
      installNodePackage(dir);
      const run = async (args) => {
        const result = await n8nCli(dir, port, args, { timeoutMs: 600_000 });
        assert(result.code === 0, `n8n ${args.join(' ')} failed: ${result.stderr}${result.stdout}`);
      };
      await run([
        'import:credentials',
        `--input=${writeLinkShortCredentials(join(dir, 'credentials.json'), [exampleAccount(sandbox.baseUrl, sandbox.userKey)])}`,
      ]);
      writeFileSync(join(dir, 'reuse.json'), JSON.stringify(workflow));
      await run(['import:workflow', `--input=${join(dir, 'reuse.json')}`]);
      await run(['publish:workflow', `--id=${workflow.id}`]);
      let n8n = await startN8n(dir, port, { timeoutMs: 600_000 });
      stops.push(() => n8n.stop());
      const restart = async () => {
        await n8n.stop();
        n8n = await startN8n(dir, port, { timeoutMs: 600_000 });
      };
      await reuseAfterRestartChecks({ check, sandbox, n8nUrl: () => n8n.url, restart });
    } else {
      const { startQueueStack } = await import('./queue-stack.mjs');
      const { reuseAcrossWorkersChecks } = await import('./reuse-queue.mjs');
      const { COUNTER_WORKFLOW } = await import('./static-data-on-workers.mjs');
      const log = [];
      stops.push(() => api.close());
      const userFolder = join(dir, 'n8n');
      installNodePackage(userFolder);
      stack = await startQueueStack({
        dir,
        userFolder,
        startTimeoutMs: 600_000,
        onOutput: (name, text) =>
          log.push(
            ...text
              .split('\n')
              .filter((line) => line.trim())
              .map((line) => `${name}: ${line}`),
          ),
        prepare: async (cli, postgres) => {
          await cli(['import:credentials', `--input=${writeLinkShortCredentials(join(dir, 'credentials.json'), [exampleAccount(api.url, sandbox.userKey)])}`]);
          // The reuse workflow, and the counter that tells whether static data reaches the workers.
          const folder = join(dir, 'workflows');
          mkdirSync(folder);
          writeFileSync(join(folder, 'reuse.json'), JSON.stringify(workflow));
          writeFileSync(join(folder, 'counter.json'), JSON.stringify(COUNTER_WORKFLOW));
          await cli(['import:workflow', '--separate', `--input=${folder}`]);
          // As queue.mjs publishes: before main starts.
          postgres.execute(
            `update workflow_entity set active = true, "activeVersionId" = "versionId" where id in ('${workflow.id}', '${COUNTER_WORKFLOW.id}')`,
          );
        },
      });
      stops.unshift(() => stack.stop());
      const links = () => sandbox.store.state.links;
      await reuseAcrossWorkersChecks({ check, api, n8nUrl: stack.url, postgres: stack.postgres, workflowId: workflow.id, links, logOf: () => log });
    }
  } catch (error) {
    console.error(error);
    fail('the checks ran to their end');
  } finally {
    for (const stop of stops) await stop();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
  finish();
}

// Not awaited: a top-level await would hold reuse-queue.mjs's import of this module (a cycle) for ever.
if (process.argv[1]?.endsWith('reuse.mjs')) alone(process.argv[2] === 'queue' ? 'queue' : 'restart');
