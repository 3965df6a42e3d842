// n8n's own "MCP Client" node (@n8n/n8n-nodes-langchain.mcpClient) against `linkshort-mcp --http`,
// through `n8n execute`: one workflow shortens, gets, finds and deletes a link, asks for the
// deleted link (the tool's error) and makes an e-mail QR code, every call in the node's manual
// input mode; another shows n8n's SSRF protection refusing the loopback server until it is allowed.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { assert, waitFor } from './checks.mjs';
import { freePort, N8N_CACHE, n8nCli, parseExecuteOutput, ROOT } from './n8n.mjs';

const require = createRequire(import.meta.url);
const CLI = join(ROOT, 'packages/mcp/dist/cli.js');
const MCP_CLIENT_NODE = '@n8n/n8n-nodes-langchain.mcpClient';
const LONG_URL = 'https://n8n.io/integrations/mcp-client/';
const EMAIL = {
  email: 'team@example.com',
  subject: 'Launch',
  body: 'See you there',
};

/** n8n's SSRF protection (off by default in n8n 2.41) turned on, with the loopback MCP server allowed as the README says. */
const SSRF_ON_LOOPBACK_ALLOWED = {
  N8N_SSRF_PROTECTION_ENABLED: 'true',
  N8N_SSRF_ALLOWED_IP_RANGES: '127.0.0.1/32',
};

/** Starts `linkshort-mcp --http PORT` on the account of `apiKey`; resolves once it lists its tools. */
export async function startMcpHttpServer(baseUrl, apiKey) {
  const port = await freePort();
  const child = spawn(process.execPath, [CLI, '--http', String(port)], {
    env: {
      ...process.env,
      LINKSHORT_BASE_URL: baseUrl,
      LINKSHORT_API_KEY: apiKey,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  const endpoint = `http://127.0.0.1:${port}/mcp`;
  let tools;
  await waitFor(
    `linkshort-mcp --http ${port} to list its tools`,
    async () => {
      if (child.exitCode !== null) throw new Error(`linkshort-mcp exited ${child.exitCode}: ${stderr}`);
      tools = await listTools(endpoint).catch(() => undefined);
      return tools !== undefined;
    },
    30_000,
    300,
  );
  return {
    endpoint,
    tools,
    stderr: () => stderr,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function listTools(endpoint) {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: {},
    }),
    signal: AbortSignal.timeout(5000),
  });
  if (!response.ok) throw new Error(`tools/list answered ${response.status}`);
  const text = await response.text();
  const message = text.startsWith('{')
    ? text
    : text
        .split('\n')
        .find((line) => line.startsWith('data:'))
        ?.slice(5);
  return JSON.parse(message).result.tools;
}

/**
 * The node's parameters as n8n's editor saves them in manual input mode: the tool picked from the
 * list, and a resource mapper whose fields are the ones the node itself derives from the tool's
 * input schema (its own `convertJsonSchemaToResourceMapperFields`), holding `values`.
 */
function mcpClientParameters(endpoint, tools, toolName, values) {
  const { convertJsonSchemaToResourceMapperFields } = require(join(N8N_CACHE, 'node_modules/@n8n/n8n-nodes-langchain/dist/nodes/mcp/McpClient/utils.js'));
  const tool = tools.find((candidate) => candidate.name === toolName);
  assert(tool, `linkshort-mcp does not list ${toolName}`);
  const fields = convertJsonSchemaToResourceMapperFields(tool.inputSchema).map((field) => ({ ...field, removed: !(field.id in values) }));
  return {
    serverTransport: 'httpStreamable',
    endpointUrl: endpoint,
    authentication: 'none',
    tool: {
      __rl: true,
      mode: 'list',
      value: toolName,
      cachedResultName: toolName,
    },
    inputMode: 'manual',
    parameters: {
      mappingMode: 'defineBelow',
      value: values,
      matchingColumns: [],
      schema: fields,
      attemptToConvertTypes: false,
      convertFieldsToString: false,
    },
    options: {},
  };
}

/** A workflow: a Manual Trigger, then the MCP Client nodes `steps` ({ name, tool, values, continueOnError }) one after another. */
function mcpClientWorkflow(id, name, endpoint, tools, steps) {
  const nodes = [
    {
      id: `${id}-trigger`,
      name: 'Start',
      type: 'n8n-nodes-base.manualTrigger',
      typeVersion: 1,
      position: [0, 0],
      parameters: {},
    },
  ];
  const connections = {};
  let previous = 'Start';
  steps.forEach((step, index) => {
    nodes.push({
      id: `${id}-${index}`,
      name: step.name,
      type: MCP_CLIENT_NODE,
      typeVersion: 1.1,
      position: [220 * (index + 1), 0],
      parameters: mcpClientParameters(endpoint, tools, step.tool, step.values),
      ...(step.continueOnError ? { onError: 'continueRegularOutput' } : {}),
    });
    connections[previous] = {
      main: [[{ node: step.name, type: 'main', index: 0 }]],
    };
    previous = step.name;
  });
  return {
    id,
    name,
    nodes,
    connections,
    settings: { executionOrder: 'v1' },
    active: false,
  };
}

const outputOf = (run, nodeName) => {
  const task = run.data.resultData.runData[nodeName]?.[0];
  assert(task, `the node "${nodeName}" did not run; the execution's error: ${JSON.stringify(run.data.resultData.error ?? null).slice(0, 1500)}`);
  assert(!task.error, `the node "${nodeName}" failed: ${JSON.stringify(task.error ?? null).slice(0, 1500)}`);
  const item = task.data.main[0]?.[0];
  assert(item, `the node "${nodeName}" gave no item`);
  return item;
};

/**
 * Adds the MCP Client checks to a suite: `check` from its checkList, n8n's `userFolder` and `port`
 * (no `n8n start` running), `importWorkflow(workflow)` (writes and imports it), and the sandbox.
 */
export async function mcpClientChecks({ check, userFolder, port, importWorkflow, sandbox }) {
  const mcp = await startMcpHttpServer(sandbox.baseUrl, sandbox.userKey);
  try {
    const chain = mcpClientWorkflow('lsMcpClientChain', 'MCP Client: a link from start to end', mcp.endpoint, mcp.tools, [
      { name: 'Shorten', tool: 'shorten_link', values: { url: LONG_URL } },
      {
        name: 'Get',
        tool: 'get_link',
        values: { id: "={{ $('Shorten').item.json.structuredContent.id }}" },
      },
      {
        name: 'Find',
        tool: 'find_links',
        values: {
          text: "={{ $('Shorten').item.json.structuredContent.shorturl }}",
        },
      },
      {
        name: 'Preview the delete',
        tool: 'delete_links',
        values: { ids: "={{ [$('Shorten').item.json.structuredContent.id] }}" },
      },
      {
        name: 'Delete',
        tool: 'delete_links',
        values: {
          ids: "={{ [$('Shorten').item.json.structuredContent.id] }}",
          confirmation: "={{ $('Preview the delete').item.json.structuredContent.confirmation }}",
        },
      },
      {
        name: 'Get the deleted link',
        tool: 'get_link',
        values: { id: "={{ $('Shorten').item.json.structuredContent.id }}" },
        continueOnError: true,
      },
      {
        name: 'E-mail QR code',
        tool: 'create_qr_code',
        values: { type: 'email', data: `={{ ${JSON.stringify(EMAIL)} }}` },
      },
      {
        name: 'E-mail QR code typed as text',
        tool: 'create_qr_code',
        values: { type: 'email', data: JSON.stringify(EMAIL) },
        continueOnError: true,
      },
    ]);
    const blocked = mcpClientWorkflow('lsMcpClientSsrf', 'MCP Client: SSRF protection', mcp.endpoint, mcp.tools, [
      { name: 'Account', tool: 'get_account', values: {} },
    ]);
    await importWorkflow(chain);
    await importWorkflow(blocked);

    const creates = () => sandbox.requests.filter((request) => request.method === 'POST' && request.path === '/api/url/add').length;
    const before = {
      creates: creates(),
      newestId: Math.max(0, ...sandbox.store.state.links.map((candidate) => candidate.id)),
    };
    let run;
    let createsInRun;
    await check("n8n's MCP Client node runs a workflow against linkshort-mcp --http (SSRF protection on, 127.0.0.1/32 allowed)", async () => {
      const result = await n8nCli(userFolder, port, ['execute', `--id=${chain.id}`, '--rawOutput'], { env: SSRF_ON_LOOPBACK_ALLOWED });
      run = parseExecuteOutput(result.stdout);
      createsInRun = creates() - before.creates;
      assert(
        run.data.resultData.runData['E-mail QR code typed as text'],
        `the workflow did not reach its end: ${JSON.stringify(run.data.resultData.error ?? null).slice(0, 1500)}; ${result.stderr.slice(-2000)}`,
      );
    });
    const ran = () => assert(run, 'the workflow did not run');

    let link;
    await check('MCP Client shorten_link (manual mode, url) makes one link in the sandbox and answers its id and short URL', async () => {
      ran();
      const { json } = outputOf(run, 'Shorten');
      link = json.structuredContent;
      assert(Number.isInteger(link?.id) && link.reused === false, `shorten_link answered ${JSON.stringify(json).slice(0, 1500)}`);
      // The workflow deletes the link later on: what the sandbox got is read from its request log.
      assert(createsInRun === 1 && link.id > before.newestId, `the sandbox got ${createsInRun} creates; the new id ${link.id} after ${before.newestId}`);
      const alias = link.shorturl?.startsWith(`${sandbox.baseUrl}/`) ? link.shorturl.slice(sandbox.baseUrl.length + 1) : '';
      assert(/^[A-Za-z]{5}$/.test(alias), `the short URL ${link.shorturl} is not the sandbox's with a generated alias`);
      assert(JSON.stringify(json.content?.[0]?.text) === JSON.stringify(link), 'the text content is not the structured answer');
    });

    await check('MCP Client get_link and find_links (by the short URL) give back the new link', async () => {
      ran();
      assert(link, 'no link was made');
      const got = outputOf(run, 'Get').json.structuredContent;
      // get_link reads the sandbox: the long URL asked for is the link's.
      assert(
        got?.details?.id === link.id && got.details.shorturl === link.shorturl && got.details.longurl === LONG_URL,
        `get_link answered ${JSON.stringify(got)}`,
      );
      const found = outputOf(run, 'Find').json.structuredContent;
      assert(
        found?.matches === 1 && found.links[0].id === link.id && found.links[0].shorturl === link.shorturl && found.links[0].longurl === LONG_URL,
        `find_links answered ${JSON.stringify(found).slice(0, 1500)}`,
      );
    });

    await check(
      'MCP Client delete_links (a preview, then its confirmation) removes the link, and get_link on it then fails with the tool\'s "Not found" text',
      async () => {
        ran();
        assert(link, 'no link was made');
        const deleted = outputOf(run, 'Delete').json;
        assert(
          !deleted.error && !sandbox.store.state.links.some((candidate) => candidate.id === link.id),
          `delete_links answered ${JSON.stringify(deleted)}, the link is still in the sandbox`,
        );
        const failed = outputOf(run, 'Get the deleted link').json;
        assert(/^Not found: Link does not exist\./.test(failed.error?.message ?? ''), `get_link on the deleted link gave ${JSON.stringify(failed)}`);
      },
    );

    await check('MCP Client create_qr_code type email (manual mode, data as an expression object) makes the code and its PNG as binary', async () => {
      ran();
      const { json, binary } = outputOf(run, 'E-mail QR code');
      const qr = json.structuredContent;
      const stored = sandbox.store.state.qrs.find((candidate) => candidate.id === qr?.id);
      assert(
        stored?.type === 'email' && JSON.stringify(stored.data) === JSON.stringify(EMAIL),
        `the sandbox holds ${JSON.stringify(stored)}; the tool said ${JSON.stringify(json).slice(0, 1500)}`,
      );
      assert(
        qr.link === `${sandbox.baseUrl}/qr/${stored.code}` && qr.image?.url === `${qr.link}.png` && qr.image.bytes > 100,
        `create_qr_code answered ${JSON.stringify(qr)}`,
      );
      const image = binary?.data_0;
      assert(image?.mimeType === 'image/png' && image.fileType === 'image', `the image is not binary data: ${JSON.stringify(binary ?? null).slice(0, 500)}`);
      assert(!json.content?.some((part) => part.type === 'image'), 'the image stayed in the JSON');
      // n8n keeps binary data in its user folder ("filesystem-v2:<path>"); the bytes must be the sandbox's PNG.
      assert(image.id?.startsWith('filesystem-v2:'), `binary data kept as ${image.id}`);
      const kept = readFileSync(join(userFolder, '.n8n/storage', image.id.slice('filesystem-v2:'.length)));
      const png = Buffer.from(await (await fetch(qr.image.url)).arrayBuffer());
      assert(
        kept.equals(png) && png.length === qr.image.bytes,
        `the binary (${kept.length} bytes) is not the sandbox's PNG (${png.length} bytes, the tool said ${qr.image.bytes})`,
      );
    });

    await check('MCP Client create_qr_code with the e-mail typed as JSON text in the form (what manual mode sends) makes the e-mail code', async () => {
      ran();
      const { json } = outputOf(run, 'E-mail QR code typed as text');
      const qr = json.structuredContent;
      const stored = sandbox.store.state.qrs.find((candidate) => candidate.id === qr?.id);
      assert(
        !json.error && stored?.type === 'email' && JSON.stringify(stored.data) === JSON.stringify(EMAIL),
        `gave ${JSON.stringify(json).slice(0, 1500)}; the sandbox holds ${JSON.stringify(stored ?? null)}`,
      );
    });

    await check("n8n's SSRF protection, once on, refuses the loopback MCP server until N8N_SSRF_ALLOWED_IP_RANGES allows it", async () => {
      const result = await n8nCli(userFolder, port, ['execute', `--id=${blocked.id}`, '--rawOutput'], { env: { N8N_SSRF_PROTECTION_ENABLED: 'true' } });
      const refused = parseExecuteOutput(result.stdout);
      const error = refused.data.resultData.runData.Account?.[0]?.error;
      assert(
        error?.message === 'Could not connect to your MCP server' && /restricted IP address/.test(error.description ?? ''),
        `expected the SSRF refusal, got ${JSON.stringify(error ?? refused.data.resultData.error ?? null).slice(0, 1500)}`,
      );
      const allowed = parseExecuteOutput(
        (await n8nCli(userFolder, port, ['execute', `--id=${blocked.id}`, '--rawOutput'], { env: SSRF_ON_LOOPBACK_ALLOWED })).stdout,
      );
      const account = outputOf(allowed, 'Account').json.structuredContent;
      const user = sandbox.store.state.users.find((candidate) => candidate.apiKey === sandbox.userKey);
      assert(account?.id === user?.id && account.email === user.email, `get_account answered ${JSON.stringify(account)} for ${JSON.stringify(user?.email)}`);
    });
  } finally {
    await mcp.stop();
  }
}
