// Reuse Existing Link in a real n8n (issue 52): a workflow whose production webhook shortens one
// row with Reuse Existing Link on, each row sent again after a restart of n8n (e2e.mjs) and on the
// other queue-mode worker (queue.mjs). The record of the links the node made lives in the
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

/**
 * Sends each row to the workflow's production webhook, one after another; the node's outputs.
 * `logOf()` (queue mode: the n8n processes' output lines) is quoted when a row fails: the answer
 * says only "Error in workflow", the worker's log says why.
 */
async function sendRows(n8nUrl, rows = REUSE_ROWS, logOf = () => []) {
  const outputs = [];
  for (const row of rows) {
    // n8n answers before it has activated its workflows: 404 (or no connection, or 503 "Database is not ready", on a busy machine) until the webhook is registered.
    const send = () => fetch(`${n8nUrl}/webhook/reuse-record`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(row) }).catch((error) => ({ status: 404, error }));
    let response = await send();
    for (const started = Date.now(); (response.status === 404 || response.status === 503) && Date.now() - started < 300_000; response = await send()) await sleep(2000);
    if (response.error) throw response.error;
    const body = await response.text();
    // The processes' lines about the failed execution come a moment after the answer.
    if (response.status !== 200) await sleep(3000);
    assert(response.status === 200, `the row ${JSON.stringify(row)} answered ${response.status} ${body.slice(0, 500)}\n      n8n's log (last 15 lines):\n${logOf().slice(-15).join('\n')}`);
    try {
      outputs.push(JSON.parse(body));
    } catch {
      throw new Error(`the row ${JSON.stringify(row)} answered ${response.headers.get('content-type')}: ${body.slice(0, 500)}`);
    }
    // The execution saves its static data as it ends, just after the webhook's answer leaves.
    await sleep(1000);
  }
  return outputs;
}

const createsOf = (requests) => requests.filter((request) => request.method === 'POST' && request.path === '/api/url/add');

/** e2e.mjs: each row sent, n8n restarted, each row sent again: the same links, `reused: true`, no create. */
export async function reuseAfterRestartChecks({ check, sandbox, n8nUrl, restart }) {
  let first;
  await check('Reuse Existing Link: a row with an alias, one with a password and one with both, sent to the production webhook, each make their link', async () => {
    first = await sendRows(n8nUrl());
    first.forEach((output, i) => assert(output.reused === false && output.longurl === REUSE_ROWS[i].url, `row ${i}: ${JSON.stringify(output)}`));
  });
  await check('Reuse Existing Link after a restart of n8n: each row sent again answers with its first link, reused: true, and no create reaches the service', async () => {
    assert(first, 'the first runs failed');
    await restart();
    const before = sandbox.requests.length;
    const again = await sendRows(n8nUrl());
    again.forEach((output, i) => assert(output.reused === true && output.id === first[i].id && output.notReused === undefined, `row ${i} after the restart: ${JSON.stringify(output)}, first ${JSON.stringify(first[i])}`));
    const creates = createsOf(sandbox.requests.slice(before));
    assert(creates.length === 0, `${creates.length} creates after the restart`);
  });
}

/**
 * queue.mjs: each row sent until one run of it went to the worker that did not make its link: every
 * answer the first link, `reused: true`, and no second create. `api` attributes each request to its n8n process.
 */
export async function reuseAcrossWorkersChecks({ check, api, n8nUrl, staticDataOf, logOf }) {
  await check('Reuse Existing Link across two queue-mode workers: rows made on one worker are reused on the other (reused: true, 0 creates), the record in Postgres holding no password', async () => {
    const created = [];
    const makers = [];
    for (const row of REUSE_ROWS) {
      const start = api.requests.length;
      const [output] = await sendRows(n8nUrl, [row], logOf);
      assert(output.reused === false, `${JSON.stringify(row)}: ${JSON.stringify(output)}`);
      created.push(output);
      makers.push(createsOf(api.requests.slice(start))[0]?.process);
    }
    const createsBefore = createsOf(api.requests).length;
    const reusedOn = REUSE_ROWS.map(() => new Set());
    for (let round = 0; round < 6 && REUSE_ROWS.some((_, i) => [...reusedOn[i]].every((worker) => worker === makers[i])); round += 1) {
      const start = api.requests.length;
      const outputs = await sendRows(n8nUrl, REUSE_ROWS, logOf);
      outputs.forEach((output, i) => assert(output.reused === true && output.id === created[i].id, `row ${i}, round ${round}: ${JSON.stringify(output)}`));
      // The reuse's one GET of the link tells which worker ran it.
      for (const request of api.requests.slice(start)) {
        const i = created.findIndex((link) => request.method === 'GET' && request.path === `/api/url/${link.id}`);
        if (i >= 0) reusedOn[i].add(request.process);
      }
    }
    console.log(`      links made by ${JSON.stringify(makers)}; reused on ${JSON.stringify(reusedOn.map((workers) => [...workers]))}`);
    assert(createsOf(api.requests).length === createsBefore, `${createsOf(api.requests).length - createsBefore} creates after the first runs`);
    assert(
      REUSE_ROWS.some((_, i) => [...reusedOn[i]].some((worker) => worker.startsWith('worker-') && worker !== makers[i])),
      `no row was reused on the other worker: made by ${JSON.stringify(makers)}, reused on ${JSON.stringify(reusedOn.map((workers) => [...workers]))}`,
    );
    const staticData = JSON.stringify(staticDataOf());
    assert(staticData.includes('linkShortMadeLinks') && !REUSE_ROWS.some((row) => row.password && staticData.includes(row.password)), `static data ${staticData.slice(0, 500)}`);
  });
}

// Alone, without the rest of the suites: `node test/n8n/reuse.mjs restart` (one n8n, restarted) or
// `node test/n8n/reuse.mjs queue` (Redis, Postgres, main and two workers). Both need n8n installed.
async function alone(mode) {
  const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
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
  const sandbox = await startSandbox({ port: 0, rateLimit: { limit: 100_000, windowMs: 60_000 } });
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
      await run(['import:credentials', `--input=${writeLinkShortCredentials(join(dir, 'credentials.json'), [exampleAccount(sandbox.baseUrl, sandbox.userKey)])}`]);
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
      const { startAttributingProxy, startQueueStack } = await import('./queue-stack.mjs');
      let stack;
      const log = [];
      const api = await startAttributingProxy(sandbox.baseUrl, (pid) => stack?.nameOf(pid), () => stack?.pids() ?? []);
      stops.push(() => api.close());
      const userFolder = join(dir, 'n8n');
      installNodePackage(userFolder);
      stack = await startQueueStack({
        dir,
        userFolder,
        startTimeoutMs: 600_000,
        onOutput: (name, text) => log.push(...text.split('\n').filter((line) => line.trim()).map((line) => `${name}: ${line}`)),
        prepare: async (cli, postgres) => {
          await cli(['import:credentials', `--input=${writeLinkShortCredentials(join(dir, 'credentials.json'), [exampleAccount(api.url, sandbox.userKey)])}`]);
          writeFileSync(join(dir, 'reuse.json'), JSON.stringify(workflow));
          await cli(['import:workflow', `--input=${join(dir, 'reuse.json')}`]);
          // As queue.mjs publishes: before main starts.
          postgres.execute(`update workflow_entity set active = true, "activeVersionId" = "versionId" where id = '${workflow.id}'`);
        },
      });
      stops.unshift(() => stack.stop());
      const staticDataOf = () => stack.postgres.query(`select "staticData" from workflow_entity where id = '${workflow.id}'`)[0]?.staticData;
      await reuseAcrossWorkersChecks({ check, api, n8nUrl: stack.url, staticDataOf, logOf: () => log });
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

if (process.argv[1]?.endsWith('reuse.mjs')) await alone(process.argv[2] === 'queue' ? 'queue' : 'restart');
