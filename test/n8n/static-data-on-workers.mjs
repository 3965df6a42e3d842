// Does n8n hand a queue-mode worker the workflow static data the previous production execution
// saved? A webhook workflow whose Code node counts its runs in `$getWorkflowStaticData('global')`,
// run 4 times on n8n main + 2 workers (Postgres, Redis). n8n 2.41.0 reads 0 every time (its
// execution snapshot leaves staticData out; the job asks the worker to load none), which is why
// Reuse Existing Link works per worker there (nodes/README.md). The queue-mode reuse check
// (reuse.mjs, run by queue.mjs) publishes the same workflow and runs `probeStaticDataOnWorkers`
// first, to know which reuse to demand. Alone it prints what each run read and what the database
// holds, and exits 0 when every run read the count the one before saved. Needs n8n installed:
// `LINKSHORT_N8N_CACHE=/work/n8n-cache node test/n8n/static-data-on-workers.mjs`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** POST /webhook/count-runs answers `{ read }`: the runs its static data counted before this one. */
export const COUNTER_WORKFLOW = {
  id: 'lsStaticDataCounter',
  name: 'Count runs in static data',
  settings: { executionOrder: 'v1' },
  connections: { Run: { main: [[{ node: 'Count', type: 'main', index: 0 }]] } },
  nodes: [
    {
      id: 'count-1',
      name: 'Run',
      type: 'n8n-nodes-base.webhook',
      typeVersion: 2,
      position: [0, 0],
      webhookId: '7c1e2d3f-0000-4000-8000-00000000d001',
      parameters: { httpMethod: 'POST', path: 'count-runs', responseMode: 'lastNode', options: {} },
    },
    {
      id: 'count-2',
      name: 'Count',
      type: 'n8n-nodes-base.code',
      typeVersion: 2,
      position: [220, 0],
      parameters: {
        jsCode: "const data = $getWorkflowStaticData('global');\nconst read = data.runs ?? 0;\ndata.runs = read + 1;\nreturn [{ json: { read } }];",
      },
    },
  ],
};

/**
 * Runs the counter `runs` times, one after another: `{ reads, stored, reaches }`, `reaches` true when
 * every run read the count the one before saved (static data reaches the workers' new executions),
 * false when every run read 0 (n8n 2.41), undefined for anything else.
 */
export async function probeStaticDataOnWorkers(n8nUrl, { runs = 4, storedOf = () => undefined } = {}) {
  const reads = [];
  const stored = [];
  for (let run = 0; run < runs; run += 1) {
    let response;
    // 404 (or no answer) until main has registered the webhook.
    for (const started = Date.now(); Date.now() - started < 300_000; await sleep(2000)) {
      response = await fetch(`${n8nUrl}/webhook/count-runs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).catch(
        () => undefined,
      );
      if (response && response.status !== 404 && response.status !== 503) break;
    }
    if (response?.status !== 200) throw new Error(`the static-data counter answered ${response?.status} ${await response?.text()}`);
    reads.push((await response.json()).read);
    // The execution saves its static data as it ends, just after the webhook's answer leaves.
    await sleep(1000);
    stored.push(storedOf());
  }
  const reaches = reads.every((read, run) => read === run) ? true : reads.every((read) => read === 0) ? false : undefined;
  return { reads, stored, reaches };
}

async function alone() {
  const { ensureN8n, installNodePackage } = await import('./n8n.mjs');
  const { startQueueStack } = await import('./queue-stack.mjs');
  await ensureN8n();
  const dir = mkdtempSync(join(tmpdir(), 'linkshort-static-data-'));
  const userFolder = join(dir, 'n8n');
  installNodePackage(userFolder);
  const ranOn = [];
  const stack = await startQueueStack({
    dir,
    userFolder,
    startTimeoutMs: 600_000,
    onOutput: (name, text) => ranOn.push(...[...text.matchAll(/Worker started execution (\d+)/g)].map((match) => `execution ${match[1]} on ${name}`)),
    prepare: async (cli, postgres) => {
      writeFileSync(join(dir, 'workflow.json'), JSON.stringify(COUNTER_WORKFLOW));
      await cli(['import:workflow', `--input=${join(dir, 'workflow.json')}`]);
      postgres.execute(`update workflow_entity set active = true, "activeVersionId" = "versionId" where id = '${COUNTER_WORKFLOW.id}'`);
    },
  });
  let probe;
  try {
    probe = await probeStaticDataOnWorkers(stack.url, {
      storedOf: () => stack.postgres.query(`select "staticData" from workflow_entity where id = '${COUNTER_WORKFLOW.id}'`)[0]?.staticData,
    });
    probe.reads.forEach((read, run) => console.log(`run ${run + 1}: read runs = ${read}; the database then holds ${JSON.stringify(probe.stored[run])}`));
    console.log(ranOn.join('; '));
  } finally {
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(probe.reaches ? 'n8n hands queue-mode workers the saved static data' : "n8n hands queue-mode workers none of the workflow's saved static data");
  process.exit(probe.reaches ? 0 : 1);
}

if (process.argv[1]?.endsWith('static-data-on-workers.mjs')) await alone();
