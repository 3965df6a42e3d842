// The examples that need more than the sandbox and Slack, run end to end in the real n8n of e2e.mjs:
// rows of a table shortened with Reuse (a re-run adds nothing), the AI Agent with LinkShort as its
// tool (the model a local stand-in), a form submission shortened and e-mailed (a local SMTP
// catcher), and a Slack message for each new link with its campaign.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assert, waitFor } from './checks.mjs';
import { exampleWorkflow, n8nCli, nodeNamed, parseExecuteOutput } from './n8n.mjs';
import { standInCredentials, startChatModelStandIn, startSmtpCatcher } from '../../scripts/stand-ins.mjs';

/** The stand-ins, their credentials imported, and the four examples (Slack pointed at `catcher`); `close()` ends the stand-ins. */
export async function prepareMoreExamples({ userFolder, port, catcher }) {
  const smtp = await startSmtpCatcher();
  const model = await startChatModelStandIn();
  const file = join(userFolder, 'stand-in-credentials.json');
  writeFileSync(file, JSON.stringify(standInCredentials(smtp, model)));
  const imported = await n8nCli(userFolder, port, ['import:credentials', `--input=${file}`]);
  assert(imported.code === 0, `import:credentials (stand-ins) failed: ${imported.stderr}${imported.stdout}`);
  const workflows = {
    table: exampleWorkflow('shorten-table-rows-with-reuse.json'),
    agent: exampleWorkflow('ai-agent-shortens-and-reports-clicks.json'),
    formEmail: exampleWorkflow('shorten-form-links-and-email-them.json'),
    newLink: exampleWorkflow('slack-message-for-each-new-link.json', (workflow) => {
      nodeNamed(workflow, 'Post to Slack').parameters.url = `${catcher.url}/new-link`;
    }),
  };
  return { smtp, model, workflows, close: async () => Promise.all([smtp.close(), model.close()]) };
}

const execute = async (userFolder, port, id) => {
  const result = await n8nCli(userFolder, port, ['execute', `--id=${id}`, '--rawOutput']);
  try {
    return parseExecuteOutput(result.stdout).data.resultData;
  } catch {
    throw new Error(`n8n execute ${id} printed no result: ${result.stderr.slice(-2000)}${result.stdout.slice(-2000)}`);
  }
};
const outputOf = (resultData, node) => {
  if (resultData.error) throw new Error(`the run failed: ${JSON.stringify(resultData.error).slice(0, 1500)}`);
  return resultData.runData[node][0].data.main[0].map((item) => item.json);
};

/** What runs with `n8n execute`, before `n8n start`: the table twice, and the agent. */
export async function moreChecksBeforeStart({ check, userFolder, port, sandbox, more }) {
  const { workflows, model } = more;
  await check(
    'the table example shortens each row and writes its short URL back; run again, it adds no link and gives the same short URLs (reused)',
    async () => {
      const first = outputOf(await execute(userFolder, port, workflows.table.id), 'Write the short URL back');
      assert(
        first.length === 3 && first.every((row) => /^http:\/\/127\.0\.0\.1:\d+\/\w+$/.test(row.shortUrl) && row.url && row.name),
        `first run wrote ${JSON.stringify(first)}`,
      );
      const linksAfterFirst = sandbox.store.state.links.length;
      const second = outputOf(await execute(userFolder, port, workflows.table.id), 'Write the short URL back');
      assert(sandbox.store.state.links.length === linksAfterFirst, `the second run added ${sandbox.store.state.links.length - linksAfterFirst} links`);
      assert(
        JSON.stringify(second.map((row) => row.shortUrl)) === JSON.stringify(first.map((row) => row.shortUrl)),
        `the second run gave ${JSON.stringify(second)}`,
      );
      assert(
        second.every((row) => row.reused === true),
        `the second run did not say reused: ${JSON.stringify(second)}`,
      );
      const titled = sandbox.store.state.links.find((link) => link.url === 'https://n8n.io/workflows/');
      assert(titled?.metatitle === 'Workflow templates', `the row's name is not the link's title: ${JSON.stringify(titled)}`);
    },
  );

  await check(
    'the AI Agent example shortens the URL asked about through the LinkShort tool, reads its clicks through the other, and answers with both (the model a local stand-in)',
    async () => {
      const linksBefore = sandbox.store.state.links.length;
      const answer = outputOf(await execute(userFolder, port, workflows.agent.id), 'AI Agent')[0];
      const link = sandbox.store.state.links.find((candidate) => candidate.url === 'https://n8n.io/ai/');
      assert(link, `no link for the URL asked about (links ${linksBefore} -> ${sandbox.store.state.links.length})`);
      const shortUrl = `${sandbox.baseUrl}/${link.alias}`;
      assert(answer.output === `Shortened to ${shortUrl}: it has ${link.stats.clicks} clicks so far.`, `the agent answered ${JSON.stringify(answer)}`);
      // Asked three times: the question, then with the shortening tool's result, then with both tools' results.
      const toolResults = (model.requests.at(-1)?.messages ?? []).filter((message) => message.role === 'tool');
      assert(
        model.requests.length === 3 && toolResults.length === 2,
        `the model was asked ${model.requests.length} times, the last with ${toolResults.length} tool results`,
      );
    },
  );
}

/** What runs under `n8n start`: the form's submission e-mailed, and a new link's campaign posted. */
export async function moreChecksAfterStart({ check, n8n, sandbox, catcher, more, datePollsOf }) {
  await check("the form example: a submission of n8n's Form trigger is shortened and the short link e-mailed to the address given", async () => {
    const form = new FormData();
    form.append('field-0', 'https://example.com/from-the-form');
    form.append('field-1', 'reader@example.com');
    // Sent again only while n8n says it is not ready for it yet (503 while its database starts, 404 before the form is registered).
    let response;
    await waitFor(
      'n8n to take the form',
      async () => ![404, 503].includes((response = await fetch(`${n8n.url}/form/shorten-a-link`, { method: 'POST', body: form })).status),
      60_000,
      2000,
    );
    assert(response.ok, `the form answered ${response.status} ${(await response.text()).slice(0, 300)}`);
    await waitFor('the e-mail', () => more.smtp.messages.length > 0, 60_000);
    const [mail] = more.smtp.messages;
    const link = sandbox.store.state.links.find((candidate) => candidate.url === 'https://example.com/from-the-form');
    assert(link, 'the submitted URL was not shortened');
    assert(
      mail.to.includes('reader@example.com') && mail.subject === 'Your short link',
      `the e-mail went ${JSON.stringify({ to: mail.to, subject: mail.subject })}`,
    );
    assert(mail.text.includes(`${sandbox.baseUrl}/${link.alias} now leads to https://example.com/from-the-form`), `the e-mail reads ${mail.text}`);
  });

  await check('the new-link example posts one Slack message for a link made after activation, with its campaign', async () => {
    await waitFor("the new-link trigger's baseline", () => datePollsOf() >= 2, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const made = await fetch(`${sandbox.baseUrl}/api/url/add`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.userKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.com/spring?utm_source=newsletter&utm_medium=email&utm_campaign=spring-sale', custom: 'spring-news' }),
    }).then((answer) => answer.json());
    await waitFor(
      'the Slack message',
      () => catcher.messages.some((message) => message.path === '/new-link' && message.body.text.includes(made.shorturl)),
      150_000,
    );
    const sent = catcher.messages.filter((message) => message.path === '/new-link' && message.body.text.includes(made.shorturl));
    assert(sent.length === 1, `expected one message, got ${JSON.stringify(sent)}`);
    assert(
      sent[0].body.text === `New link ${made.shorturl} -> https://example.com/spring (source: newsletter, medium: email, campaign: spring-sale)`,
      sent[0].body.text,
    );
  });
}
