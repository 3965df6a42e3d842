// LinkShort Trigger under n8n's durable scheduler (n8n 2.41.0): the "Alert Slack" example workflow
// polls a large account (1,500 links, pages capped at 100, so a pass takes two polls) on a server
// limited to 30 requests per 6 s (the real 30 a minute, its window scaled down). Checks: each
// scheduler setting exists in n8n's own source; n8n runs the trigger on the durable chain with
// durable cursors; every poll stays under 15 requests and none is abandoned; a poll whose answer
// comes slower than its budget stops at its deadline (its requests get the poll's remaining time),
// so none runs past it, and the next poll emits; a crossing reaches the next node exactly once. About 5 minutes (n8n polls at most once a minute).
// Ends with "n8n durable scheduler: N passed, N failed".
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assert, checkList, waitFor } from './checks.mjs';
import {
  ensureN8n,
  exampleAccount,
  exampleWorkflow,
  freePort,
  installNodePackage,
  N8N_CACHE,
  n8nCli,
  nodeNamed,
  ROOT,
  startN8n,
  writeLinkShortCredentials,
} from './n8n.mjs';
import { startSlackStandIn } from '../../scripts/slack-stand-in.mjs';

const require = createRequire(import.meta.url);
const { startSandbox } = require(join(ROOT, 'packages/sandbox/dist/index.js'));
const { check, fail, finish } = checkList('n8n durable scheduler');

const THRESHOLD = 100;
const LINKS = 1_500;
/** Where each setting is read in n8n 2.41.0 (@n8n/config), and the n8n version that brought it (n8n's docs). */
const SETTINGS = [
  ['N8N_SCHEDULER_ENABLED', 'scheduler.config.js', '2.36.0 (a preview from 2.32.0)'],
  ['N8N_SCHEDULER_POLL_TRIGGERS_ENABLED', 'scheduler.config.js', '2.36.0'],
  ['N8N_POLLER_DURABLE_CURSORS_ENABLED', 'scheduler.config.js', '2.36.0; from 2.37.0 only with the three others on'],
  ['N8N_USE_WORKFLOW_PUBLICATION_SERVICE', 'workflows.config.js', 'required by the durable chain'],
  ['N8N_SCHEDULER_POLL_TIMEOUT', 'scheduler.config.js', '2.37.0'],
];
/** A poll timeout of 10 s: n8n gives a poll a budget of 5 s of it (the rest a margin), and abandons it at 10 s. */
const POLL_TIMEOUT_S = 10;
const SCHEDULER_ENV = {
  N8N_SCHEDULER_ENABLED: 'true',
  N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
  N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
  N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
  N8N_SCHEDULER_POLL_TIMEOUT: String(POLL_TIMEOUT_S),
  N8N_LOG_LEVEL: 'debug',
};

/** The API requests the sandbox served, with when each arrived. */
const served = [];

/**
 * The trigger's polls as the sandbox saw them: its requests from `since` on, grouped by the pauses
 * between polls, and split where a request reads a page its group read before (a retry repeats only
 * the request just before it). That tells apart n8n's check run at publication from the scheduler's
 * first poll, which may follow it within seconds on a loaded machine: the durable scheduler keeps
 * nothing of the check run (it commits no cursor for it), so the first poll reads the same pages again.
 */
function pollsSeen(since) {
  const polls = [];
  let last = -Infinity;
  const pageOf = (request) => `${request.path}?${request.query.replace(/(^|&)limit=\d+/, '')}`;
  for (const request of served.slice(since)) {
    const earlier = polls.at(-1)?.slice(0, -1) ?? [];
    if (request.at - last > 10_000 || earlier.some((read) => pageOf(read) === pageOf(request))) polls.push([]);
    polls.at(-1).push(request);
    last = request.at;
  }
  return polls;
}

async function main() {
  await ensureN8n();
  const userFolder = mkdtempSync(join(tmpdir(), 'linkshort-n8n-scheduler-'));
  const sandbox = await startSandbox({ port: 0, seed: { links: LINKS }, rateLimit: { limit: 30, windowMs: 6_000 }, maxPageSize: 100 });
  sandbox.onApiRequest = ({ path, query }) => void served.push({ path, query: query.toString(), at: Date.now() });
  const catcher = await startSlackStandIn();
  const port = await freePort();
  let n8n;
  try {
    await check("each setting exists in n8n 2.41.0's own source", async () => {
      for (const [name, file] of SETTINGS) {
        const source = readFileSync(join(N8N_CACHE, 'node_modules/@n8n/config/dist/configs', file), 'utf8');
        assert(source.includes(`'${name}'`), `${name} is not read by @n8n/config's ${file}`);
      }
    });

    // Half the links past the threshold: the trigger cannot read the account in one snapshot, so it scans it over polls.
    const links = sandbox.store.state.links.filter((link) => link.userId === 2);
    links.forEach((link, i) => (link.stats.clicks = i % 2 === 0 ? 150 : 10));
    const crossing = links[links.length - 2];
    crossing.stats.clicks = THRESHOLD - 3;

    installNodePackage(userFolder);
    const credentialFile = writeLinkShortCredentials(join(userFolder, 'credentials.json'), [exampleAccount(sandbox.baseUrl, sandbox.userKey)]);
    const imported = await n8nCli(userFolder, port, ['import:credentials', `--input=${credentialFile}`], { env: SCHEDULER_ENV });
    assert(imported.code === 0, `import:credentials failed: ${imported.stderr}${imported.stdout}`);
    const workflow = exampleWorkflow('alert-slack-on-click-threshold.json', (edited) => {
      nodeNamed(edited, 'Link passed 100 clicks').parameters.threshold = THRESHOLD;
      nodeNamed(edited, 'Post to Slack').parameters.url = `${catcher.url}/slack`;
    });
    const file = join(userFolder, 'alert.json');
    writeFileSync(file, JSON.stringify(workflow));
    const importedWorkflow = await n8nCli(userFolder, port, ['import:workflow', `--input=${file}`], { env: SCHEDULER_ENV });
    assert(importedWorkflow.code === 0, `import:workflow failed: ${importedWorkflow.stderr}${importedWorkflow.stdout}`);
    const published = await n8nCli(userFolder, port, ['publish:workflow', `--id=${workflow.id}`], { env: SCHEDULER_ENV });
    assert(published.code === 0, `publish:workflow failed: ${published.stderr}${published.stdout}`);

    const requestsBefore = served.length;
    n8n = await startN8n(userFolder, port, { env: SCHEDULER_ENV });
    const lastPage = () => served.slice(requestsBefore).some((request) => request.path === '/api/urls' && /(^|&)page=15(&|$)/.test(request.query));

    await check('n8n runs the trigger on the durable scheduler with durable cursors', async () => {
      await waitFor('a poll run by the scheduler', () => /Poll returned (no )?new data/.test(n8n.output()), 150_000).catch((error) => {
        throw new Error(`${error.message}; n8n said: ${n8n.output().slice(-3000)}`);
      });
      assert(!/durable poll cursors stay disabled|cannot take over poll triggers/.test(n8n.output()), 'n8n kept the legacy poller');
    });

    await check(`the baseline of ${LINKS} links (15 pages of 100) is read over polls of at most 15 requests`, async () => {
      await waitFor('the last page of the baseline', lastPage, 180_000);
      const polls = pollsSeen(requestsBefore);
      assert(polls.length >= 2, `expected the baseline over several polls, saw ${polls.length}`);
      assert(
        polls.every((poll) => poll.length <= 15),
        `requests per poll: ${polls.map((poll) => poll.length).join(', ')}`,
      );
    });

    await check(
      'a crossing reaches the next node exactly once; the poll whose answer came slower than its budget stopped at its deadline instead of running past it',
      async () => {
        // Let the baseline's poll end, then slow the next poll's first request past its 5 s budget (not past the 10 s timeout):
        // the request is cut at the poll's deadline (the budget less a second), the poll stops, and the next one emits.
        await new Promise((resolve) => setTimeout(resolve, 5_000));
        const before = served.length;
        for (let i = 0; i < 3; i += 1) await (await fetch(`${sandbox.baseUrl}/${crossing.alias}`, { redirect: 'manual' })).text();
        sandbox.faults.set([{ kind: 'delay', delayMs: 6_000, times: 1 }]);
        await waitFor('the Slack message', () => catcher.messages.some((message) => message.path === '/slack'), 240_000).catch((error) => {
          throw new Error(`${error.message}; n8n said: ${n8n.output().slice(-3000)}`);
        });
        const pollsWhenSent = pollsSeen(before).length;
        await waitFor('one more poll', () => pollsSeen(before).length > pollsWhenSent, 90_000);
        await new Promise((resolve) => setTimeout(resolve, 5_000));
        const sent = catcher.messages.filter((message) => message.path === '/slack');
        assert(sent.length === 1, `expected exactly one message, got ${JSON.stringify(sent)}`);
        assert(sent[0].body.text.includes(`/${crossing.alias}`) && sent[0].body.text.includes(`passed ${THRESHOLD} clicks`), sent[0].body.text);
        assert((sandbox.faults.injected.delay ?? 0) >= 1, 'the slow answer was not exercised');
        assert(!/ran past n8n's poll budget/.test(n8n.output()), 'a poll ran past its budget although its requests end at its deadline');
      },
    );

    await check('no poll was abandoned, and none sent more than 15 requests', async () => {
      assert(!/Poll exceeded its timeout and was abandoned/.test(n8n.output()), 'n8n abandoned a poll');
      const polls = pollsSeen(requestsBefore);
      assert(
        polls.every((poll) => poll.length <= 15),
        `requests per poll: ${polls.map((poll) => poll.length).join(', ')}`,
      );
    });
  } finally {
    if (process.env.SCHEDULER_TRACE) writeFileSync(process.env.SCHEDULER_TRACE, JSON.stringify({ served, output: n8n?.output() }, null, 1));
    await n8n?.stop();
    await catcher.close();
    await sandbox.close();
    if (!process.env.KEEP_N8N_FOLDER) rmSync(userFolder, { recursive: true, force: true });
  }
  finish();
}

main().catch((error) => {
  console.error(error);
  fail('the suite ran to its end');
  finish();
});
