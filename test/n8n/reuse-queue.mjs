// Reuse Existing Link on n8n's queue-mode workers (issue 52), checked against what n8n does: the
// same run first finds out, with static-data-on-workers.mjs's counter workflow published beside the
// reuse one, whether the workflow's saved static data reaches a worker's new execution.
// - It does (a future n8n): a row made on one worker is reused on the other.
// - It does not (n8n 2.41.0): each worker reuses only the links it made. A row sent again to the
//   worker that made its link is reused; a row with an alias sent to the other worker fails with
//   "That alias is taken" and the node's sentence naming the queue-mode cause, and makes nothing;
//   a row without one makes that worker its own link, saying why.
// Either way no answer is a wrong link, and the record in Postgres holds no password.
import { assert } from './checks.mjs';
import { createsOf, REUSE_ROWS, sendRow, sendRows } from './reuse.mjs';
import { probeStaticDataOnWorkers } from './static-data-on-workers.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const ROUNDS = 8;
/** What the node adds to a failure or a `notReused` when the record may be on another worker (NOT_REUSED.unrecorded). */
const QUEUE_MODE_CAUSE = 'on another queue-mode worker';

/** The newest execution of the workflow once it has ended, with its stored data (n8n's serialized run, text). */
async function lastExecution(postgres, workflowId) {
  for (let tries = 0; tries < 20; tries += 1, await sleep(500)) {
    const [run] = postgres.query(
      `select e.id, e.status, d.data from execution_entity e left join execution_data d on d."executionId" = e.id where e."workflowId" = '${workflowId}' order by e.id desc limit 1`,
    );
    if (run && run.status !== 'running' && run.status !== 'new') return run;
  }
  throw new Error(`the newest execution of ${workflowId} did not end`);
}

/** The error an execution ended with, from its stored data (n8n stores it `flatted`: each string and object by its index). */
function errorOf(storedData) {
  const table = JSON.parse(storedData ?? '[]');
  const revived = new Map();
  const revive = (index) => {
    const value = table[index];
    if (typeof value !== 'object' || value === null) return value;
    if (revived.has(index)) return revived.get(index);
    const out = Array.isArray(value) ? [] : {};
    revived.set(index, out);
    for (const [key, item] of Object.entries(value)) out[key] = typeof item === 'string' ? revive(Number(item)) : item;
    return out;
  };
  const error = revive(0)?.resultData?.error;
  return { message: String(error?.message), description: String(error?.description) };
}

/**
 * `api` attributes each request to its n8n process; `links()` is the service's links (the sandbox's
 * store); `postgres` is n8n's database, where `workflowId` is the reuse workflow.
 */
export async function reuseAcrossWorkersChecks({ check, api, n8nUrl, postgres, workflowId, links, logOf }) {
  await check(
    'Reuse Existing Link on two queue-mode workers, as far as n8n hands workers the static data (probed in the same run): a row is reused wherever its link is known, a row with an alias elsewhere fails saying why and makes nothing, no answer is a wrong link, the record in Postgres holds no password',
    async () => {
      const probe = await probeStaticDataOnWorkers(n8nUrl);
      assert(probe.reaches !== undefined, `the static-data counter read ${probe.reads.join(', ')} on 4 runs: neither every count saved before nor none`);
      console.log(
        probe.reaches
          ? `      static data reaches a worker's new executions (the counter read ${probe.reads.join(', ')}): demanding reuse across workers`
          : `      static data does NOT reach a worker's new executions (the counter read ${probe.reads.join(', ')}, as on n8n 2.41): demanding reuse on the worker that made the link, and the queue-mode error elsewhere`,
      );
      const created = [];
      const madeOn = [];
      for (const row of REUSE_ROWS) {
        const start = api.requests.length;
        const [output] = await sendRows(n8nUrl, [row], logOf);
        assert(output.reused === false, `${JSON.stringify(row)}: ${JSON.stringify(output)}`);
        created.push(output);
        // Per row: the link each worker knows of it (with static data reaching workers, every worker knows the first).
        madeOn.push(new Map([[createsOf(api.requests.slice(start))[0]?.process, output]]));
      }
      const seen = { reusedOnMaker: 0, reusedOnOther: 0, refusedOnOther: 0, madeAgainOnOther: 0 };
      const done = () => (probe.reaches ? seen.reusedOnOther > 0 : seen.reusedOnMaker > 0 && seen.refusedOnOther > 0);
      const landings = [];
      for (let round = 0; round < ROUNDS && !done(); round += 1) {
        for (const [i, row] of REUSE_ROWS.entries()) {
          const start = api.requests.length;
          const linksBefore = links().filter((link) => link.url === row.url).length;
          const answer = await sendRow(n8nUrl, row);
          const requests = api.requests.slice(start);
          const workers = [...new Set(requests.map((request) => request.process))];
          const [worker] = workers;
          const creates = createsOf(requests).length;
          const known = probe.reaches ? created[i] : madeOn[i].get(worker);
          const where = `row ${i} ${JSON.stringify(row)}, round ${round}, on ${workers.join('+')} (its links: ${JSON.stringify([...madeOn[i]].map(([maker, link]) => `${link.id} by ${maker}`))}): answered ${answer.status} ${answer.text.slice(0, 400)} after ${creates} creates`;
          assert(workers.length === 1 && worker.startsWith('worker-'), where);
          if (answer.status === 200) {
            const link = links().find((candidate) => candidate.id === answer.body?.id);
            assert(link?.url === row.url && (row.alias === undefined || link.alias === row.alias), `${where}: a wrong link ${JSON.stringify(link)}`);
          }
          if (known) {
            assert(answer.status === 200 && answer.body.reused === true && answer.body.id === known.id && creates === 0, where);
            seen[madeOn[i].has(worker) ? 'reusedOnMaker' : 'reusedOnOther'] += 1;
            landings.push(`${i}:reused@${worker}`);
          } else if (row.alias) {
            const run = await lastExecution(postgres, workflowId);
            const error = errorOf(run.data);
            assert(answer.status !== 200 && run.status === 'error', `${where}; execution ${run.id} ${run.status}`);
            assert(
              error.message.includes('That alias is taken') && error.description.includes(QUEUE_MODE_CAUSE),
              `${where}: execution ${run.id} failed with ${JSON.stringify(error)}, not "That alias is taken" and "${QUEUE_MODE_CAUSE}"`,
            );
            assert(links().filter((link) => link.url === row.url).length === linksBefore, `${where}: a link was made`);
            seen.refusedOnOther += 1;
            landings.push(`${i}:refused@${worker}`);
          } else if (answer.body?.reused === true) {
            // The row's own link, never another: handed back by the service (deployed servers hand back the link
            // they hold for a long URL asked again without an alias; the sandbox does as they do) after one create,
            // or reused with no create where the record of made links reached this worker after all (the probe
            // reads a counter in a few new executions; here one execution on the other worker was reused so, the record proving its password).
            const own = [...madeOn[i].values()].some((made) => made.id === answer.body.id);
            assert(answer.status === 200 && own && (creates === 1 || creates === 0), `${where}: handed back a link the row did not make`);
            const kind = creates === 0 ? 'reusedOnOther' : 'handedBackOnOther';
            seen[kind] = (seen[kind] ?? 0) + 1;
            landings.push(`${i}:${creates === 0 ? 'reused' : 'handed-back'}@${worker}`);
          } else {
            assert(answer.status === 200 && answer.body.reused === false && String(answer.body.notReused).includes(QUEUE_MODE_CAUSE) && creates === 1, where);
            madeOn[i].set(worker, answer.body);
            seen.madeAgainOnOther += 1;
            landings.push(`${i}:made@${worker}`);
          }
        }
      }
      console.log(
        `      first links made by ${JSON.stringify(madeOn.map((made) => [...made.keys()][0]))}; then ${landings.join(', ')}; ${JSON.stringify(seen)}`,
      );
      assert(
        done(),
        probe.reaches
          ? `in ${ROUNDS} rounds no row was reused on the other worker`
          : `in ${ROUNDS} rounds no row was both reused on its maker and refused elsewhere: ${JSON.stringify(seen)}`,
      );
      const [{ staticData }] = postgres.query(`select "staticData" from workflow_entity where id = '${workflowId}'`);
      const saved = JSON.stringify(staticData);
      assert(
        saved.includes('linkShortMadeLinks') && !REUSE_ROWS.some((row) => row.password && saved.includes(row.password)),
        `static data ${saved.slice(0, 500)}`,
      );
    },
  );
}
