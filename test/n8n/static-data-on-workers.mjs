// Does n8n hand a queue-mode worker the workflow static data the previous production execution
// saved? A webhook workflow whose Code node counts its runs in `$getWorkflowStaticData('global')`,
// run 4 times on n8n main + 2 workers (Postgres, Redis). Prints what each run read and what the
// database holds; exits 0 when every run read the count the one before saved. n8n 2.41.0 reads 0
// every time (its execution snapshot leaves staticData out; the job asks the worker to load none),
// which is why Reuse Existing Link works per worker there (nodes/README.md). Needs n8n installed:
// `LINKSHORT_N8N_CACHE=/work/n8n-cache node test/n8n/static-data-on-workers.mjs`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureN8n, installNodePackage } from './n8n.mjs';
import { startQueueStack } from './queue-stack.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const RUNS = 4;
const workflow = {
  id: 'lsStaticDataCounter',
  name: 'Count runs in static data',
  settings: { executionOrder: 'v1' },
  connections: { Run: { main: [[{ node: 'Count', type: 'main', index: 0 }]] } },
  nodes: [
    { id: 'count-1', name: 'Run', type: 'n8n-nodes-base.webhook', typeVersion: 2, position: [0, 0], webhookId: '7c1e2d3f-0000-4000-8000-00000000d001', parameters: { httpMethod: 'POST', path: 'count-runs', responseMode: 'lastNode', options: {} } },
    {
      id: 'count-2',
      name: 'Count',
      type: 'n8n-nodes-base.code',
      typeVersion: 2,
      position: [220, 0],
      parameters: { jsCode: "const data = $getWorkflowStaticData('global');\nconst read = data.runs ?? 0;\ndata.runs = read + 1;\nreturn [{ json: { read } }];" },
    },
  ],
};

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
    writeFileSync(join(dir, 'workflow.json'), JSON.stringify(workflow));
    await cli(['import:workflow', `--input=${join(dir, 'workflow.json')}`]);
    postgres.execute(`update workflow_entity set active = true, "activeVersionId" = "versionId" where id = '${workflow.id}'`);
  },
});
let roundTrips = true;
try {
  for (let run = 0; run < RUNS; run += 1) {
    let response;
    // 404 until main has registered the webhook.
    for (const started = Date.now(); Date.now() - started < 300_000; await sleep(2000)) {
      response = await fetch(`${stack.url}/webhook/count-runs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).catch(() => undefined);
      if (response?.status === 200) break;
    }
    const { read } = await response.json();
    // The execution saves its static data as it ends, just after the webhook's answer leaves.
    await sleep(1000);
    const stored = stack.postgres.query(`select "staticData" from workflow_entity where id = '${workflow.id}'`)[0]?.staticData;
    console.log(`run ${run + 1}: read runs = ${read}; the database then holds ${JSON.stringify(stored)}`);
    if (read !== run) roundTrips = false;
  }
  console.log(ranOn.join('; '));
} finally {
  await stack.stop();
  rmSync(dir, { recursive: true, force: true });
}
console.log(roundTrips ? 'n8n hands queue-mode workers the saved static data' : "n8n hands queue-mode workers none of the workflow's saved static data");
process.exit(roundTrips ? 0 : 1);
