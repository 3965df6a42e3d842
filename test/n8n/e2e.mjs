// The used-by workflows in a real n8n: workflows 1 and 3 through `n8n import:workflow` + `n8n
// execute`; workflows 2 and 4 (the weekly click digest) activated under `n8n start`, with clicks driven through the sandbox's short
// URLs until the threshold is crossed; the webhook of workflow 1; the credential test; and n8n's
// own MCP Client node against `linkshort-mcp --http` (mcp-client.mjs).
// Ends with "n8n e2e: N passed, N failed".
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
  n8nCli,
  nodeNamed,
  ownerSession,
  parseExecuteOutput,
  ROOT,
  startN8n,
  writeLinkShortCredentials,
} from './n8n.mjs';
import { mcpClientChecks } from './mcp-client.mjs';
import { moreChecksAfterStart, moreChecksBeforeStart, prepareMoreExamples } from './examples-e2e.mjs';
import { reuseAfterRestartChecks, reuseWorkflow } from './reuse.mjs';
import { startSlackStandIn } from '../../scripts/slack-stand-in.mjs';

const require = createRequire(import.meta.url);
const { startSandbox } = require(join(ROOT, 'packages/sandbox/dist/index.js'));
const THRESHOLD = 3;
const { check, fail, finish } = checkList('n8n e2e');

async function main() {
  await ensureN8n();
  const userFolder = mkdtempSync(join(tmpdir(), 'linkshort-n8n-'));
  const sandbox = await startSandbox({ port: 0 });
  const catcher = await startSlackStandIn();
  const port = await freePort();
  let n8n;
  let more;
  try {
    installNodePackage(userFolder);
    const credentialFile = writeLinkShortCredentials(join(userFolder, 'credentials.json'), [exampleAccount(sandbox.baseUrl, sandbox.userKey)]);
    const imported = await n8nCli(userFolder, port, ['import:credentials', `--input=${credentialFile}`]);
    assert(imported.code === 0, `import:credentials failed: ${imported.stderr}${imported.stdout}`);

    const workflows = {
      form: exampleWorkflow('shorten-links-by-webhook.json'),
      alert: exampleWorkflow('alert-slack-on-click-threshold.json', (workflow) => {
        nodeNamed(workflow, 'Link passed 100 clicks').parameters.threshold = THRESHOLD;
        nodeNamed(workflow, 'Post to Slack').parameters.url = `${catcher.url}/slack`;
      }),
      report: exampleWorkflow('weekly-link-report.json', (workflow) => {
        nodeNamed(workflow, 'Send the report').parameters.url = `${catcher.url}/report`;
      }),
      digest: exampleWorkflow('weekly-click-digest-to-slack.json', (workflow) => {
        nodeNamed(workflow, 'Post to Slack').parameters.url = `${catcher.url}/digest`;
      }),
      reuse: reuseWorkflow(),
    };
    const importWorkflow = async (workflow, key = workflow.id) => {
      const file = join(userFolder, `${key}.json`);
      writeFileSync(file, JSON.stringify(workflow));
      const result = await n8nCli(userFolder, port, ['import:workflow', `--input=${file}`]);
      assert(result.code === 0, `import:workflow ${key} failed: ${result.stderr}${result.stdout}`);
    };
    more = await prepareMoreExamples({ userFolder, port, catcher });
    Object.assign(workflows, more.workflows);
    for (const [key, workflow] of Object.entries(workflows)) await importWorkflow(workflow, key);

    await check('workflow 1 "Shorten links by webhook (JSON)" runs with n8n execute and shortens the sample URL', async () => {
      const result = await n8nCli(userFolder, port, ['execute', `--id=${workflows.form.id}`, '--rawOutput']);
      const run = parseExecuteOutput(result.stdout);
      const shortened = run.data.resultData.runData.Shorten[0].data.main[0][0].json;
      assert(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z]{5}$/.test(shortened.shorturl), `unexpected short URL ${JSON.stringify(shortened)}`);
      const stored = sandbox.store.state.links.find((link) => link.id === shortened.id);
      assert(stored?.url === 'https://docs.n8n.io/integrations/community-nodes/', 'the link is not in the sandbox');
    });

    await check('workflow 3 "Weekly link report" runs with n8n execute and sends the top links by clicks', async () => {
      const result = await n8nCli(userFolder, port, ['execute', `--id=${workflows.report.id}`, '--rawOutput']);
      const run = parseExecuteOutput(result.stdout);
      const report = run.data.resultData.runData['Write the report'][0].data.main[0][0].json;
      const expected = sandbox.store.state.links
        .filter((link) => link.userId === 2)
        .sort((a, b) => b.stats.clicks - a.stats.clicks || b.id - a.id)
        .slice(0, 5);
      assert(
        JSON.stringify(report.topLinks.map((link) => link.clicks)) === JSON.stringify(expected.map((link) => link.stats.clicks)),
        `top links ${JSON.stringify(report.topLinks)}`,
      );
      assert(report.text.startsWith('Most clicked links, all-time clicks to date:\n1. ') && report.text.includes('120 clicks'), report.text);
      const sent = catcher.messages.filter((message) => message.path === '/report');
      assert(sent.length === 1 && sent[0].body.text === report.text, `the catcher got ${JSON.stringify(sent)}`);
    });

    // Before `n8n start`: these run workflows with `n8n execute` in the same user folder.
    await mcpClientChecks({ check, userFolder, port, importWorkflow, sandbox });
    await moreChecksBeforeStart({ check, userFolder, port, sandbox, more });

    const alertLink = await fetch(`${sandbox.baseUrl}/api/url/add`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.userKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://n8n.io/integrations/', custom: 'alert-me' }),
    }).then((response) => response.json());

    for (const key of ['alert', 'form', 'digest', 'formEmail', 'newLink', 'reuse']) {
      const published = await n8nCli(userFolder, port, ['publish:workflow', `--id=${workflows[key].id}`]);
      assert(published.code === 0, `publish:workflow ${key} failed: ${published.stderr}${published.stdout}`);
    }
    const pollsOf = () => sandbox.requests.filter((request) => request.path === '/api/urls' && request.query.includes('order=click')).length;
    const pollsBeforeStart = pollsOf();
    // Only the digest's trigger lists links by date: its sampling pass over every link.
    const digestPassesOf = () => sandbox.requests.filter((request) => request.path === '/api/urls' && request.query.includes('order=date')).length;
    const digestPassesBeforeStart = digestPassesOf();
    n8n = await startN8n(userFolder, port);

    await check('workflow 2 activates: the trigger records its baseline on activation', async () => {
      await waitFor('the baseline poll', () => pollsOf() > pollsBeforeStart, 60_000).catch((error) => {
        throw new Error(`${error.message}; n8n said: ${n8n.output().slice(-3000)}`);
      });
    });

    await check(
      'workflow 4 "Weekly click digest to Slack" activates: its trigger samples every link on activation and posts nothing before its week ends',
      async () => {
        await waitFor("the digest trigger's first pass", () => digestPassesOf() > digestPassesBeforeStart, 60_000).catch((error) => {
          throw new Error(`${error.message}; n8n said: ${n8n.output().slice(-3000)}`);
        });
        await new Promise((resolve) => setTimeout(resolve, 3000));
        const troubles = n8n
          .output()
          .split('\n')
          .filter((line) => /Weekly click digest/.test(line) && /problem|error|fail/i.test(line));
        assert(troubles.length === 0, `n8n reported trouble with the digest: ${troubles.join('\n')}`);
      },
    );

    await check(`workflow 2 "Alert Slack" posts exactly one message naming the link once real clicks cross ${THRESHOLD}`, async () => {
      for (let i = 0; i < THRESHOLD; i += 1) await (await fetch(`${sandbox.baseUrl}/alert-me`, { redirect: 'manual' })).text();
      await waitFor('the Slack message', () => catcher.messages.some((message) => message.path === '/slack'), 150_000).catch((error) => {
        throw new Error(`${error.message}; n8n said: ${n8n.output().slice(-3000)}`);
      });
      const pollsWhenSent = pollsOf();
      await waitFor('one more poll', () => pollsOf() > pollsWhenSent, 90_000);
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const sent = catcher.messages.filter((message) => message.path === '/slack');
      assert(sent.length === 1, `expected exactly one message, got ${JSON.stringify(sent)}`);
      assert(sent[0].body.text.includes(alertLink.shorturl) && sent[0].body.text.includes(`passed ${THRESHOLD} clicks`), sent[0].body.text);
    });

    await moreChecksAfterStart({ check, n8n, sandbox, catcher, more, datePollsOf: () => digestPassesOf() - digestPassesBeforeStart });

    await check('workflow 4 posted no digest (its first week has not ended)', async () => {
      const sent = catcher.messages.filter((message) => message.path === '/digest');
      assert(sent.length === 0, `the digest posted ${JSON.stringify(sent)}`);
    });

    await check('workflow 1 answers its production webhook with the short URL', async () => {
      const response = await fetch(`${n8n.url}/webhook/shorten`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'https://example.com/from-a-form', alias: 'from-a-form' }),
      });
      const body = await response.json();
      assert(response.status === 200 && body.shortUrl === `${sandbox.baseUrl}/from-a-form`, `answered ${response.status} ${JSON.stringify(body)}`);
    });

    await check('workflow 1 answers a bad submission with HTTP 400 and the field-named error, and creates nothing', async () => {
      const linksBefore = sandbox.store.state.links.length;
      const response = await fetch(`${n8n.url}/webhook/shorten`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'not a url', alias: 'x' }),
      });
      const body = await response.json();
      assert(
        response.status === 400 && body.error === 'URL: must be a valid http or https URL; Custom Alias: must be 3 to 50 letters, digits or hyphens',
        `answered ${response.status} ${JSON.stringify(body)}`,
      );
      assert(sandbox.store.state.links.length === linksBefore, 'a link was created');
    });

    await check('the credential test succeeds with a good key and fails with a bad key or address, saying what to check', async () => {
      const session = await ownerSession(n8n.url, { email: 'owner@linkshort.test', firstName: 'Link', lastName: 'Short', password: 'Linkshort-test-1' });
      const test = async (apiKey) =>
        (
          await session.request('POST', '/credentials/test', {
            credentials: { id: 'linkshortAccount', name: 'LinkShort account', type: 'linkShortApi', data: { baseUrl: sandbox.baseUrl, apiKey } },
          })
        ).json?.data;
      const good = await test(sandbox.userKey);
      assert(good?.status === 'OK', `good key: ${JSON.stringify(good)}`);
      const bad = await test('0'.repeat(32));
      assert(bad?.status === 'Error', `bad key: ${JSON.stringify(bad)}`);
      assert(
        /^The service refused this API key\. Copy the key again/.test(bad.message),
        `a wrong key should get the credential's own message, got ${JSON.stringify(bad)}`,
      );
      const wrongAddress = (
        await session.request('POST', '/credentials/test', {
          credentials: {
            id: 'linkshortAccount',
            name: 'LinkShort account',
            type: 'linkShortApi',
            data: { baseUrl: `${sandbox.baseUrl}/nothing-here`, apiKey: sandbox.userKey },
          },
        })
      ).json?.data;
      assert(
        wrongAddress?.status === 'Error' && /^No API answered at this Base URL/.test(wrongAddress.message),
        `a wrong Base URL: ${JSON.stringify(wrongAddress)}`,
      );
      assert(!JSON.stringify(bad).includes('0'.repeat(32)), 'the bad key shows in the answer');
    });

    // Issue 52: Reuse Existing Link across a restart of n8n (last: it restarts n8n).
    await reuseAfterRestartChecks({
      check,
      sandbox,
      n8nUrl: () => n8n.url,
      restart: async () => {
        await n8n.stop();
        n8n = await startN8n(userFolder, port);
      },
    });
  } finally {
    await n8n?.stop();
    await more?.close();
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
