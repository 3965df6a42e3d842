// The official MCP conformance suite against `linkshort-mcp --http` (over a sandbox account): the
// npm-latest 0.1.16 (revisions up to 2025-11-25) and the pinned 0.2.0-alpha.12 at 2025-11-25 and at
// 2026-07-28. The suite needs Node >= 22: it runs under the Node 24 the n8n harness keeps.
//
// Every check of a scenario that applies to this server (tools, and the MCP Apps view as its one resource) counts: SUCCESS passes, FAILURE and
// WARNING fail. The scenarios and checks that do not apply are listed below, each with why; a
// scenario listed nowhere fails, so that a new suite version cannot pass unread.
// Ends with "MCP conformance: N passed, N failed" (scripts/run-tests.mjs counts that line).
// Given scenario names (`node test/mcp-conformance/run.mjs input-required-result-tampered-state`),
// it runs only those, each with every suite that has it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(join(ROOT, 'packages/mcp/package.json'));
const CLI = join(ROOT, 'packages/mcp/dist/cli.js');

/** Each suite, run whole with `args`; one scenario of it runs with `--spec-version <revision>` (--requirements does not take --scenario). */
export const SUITES = [
  { label: '0.1.16 (up to 2025-11-25)', entry: '@modelcontextprotocol/conformance/dist/index.js', args: [] },
  { label: '0.2.0-alpha.12 --requirements 2025-11-25', entry: 'mcp-conformance-next/dist/index.js', args: ['--requirements', '2025-11-25'], revision: '2025-11-25' },
  { label: '0.2.0-alpha.12 --requirements 2026-07-28', entry: 'mcp-conformance-next/dist/index.js', args: ['--requirements', '2026-07-28'], revision: '2026-07-28' },
];

const oneScenario = (suite, scenario) => ['--scenario', scenario, ...(suite.revision ? ['--spec-version', suite.revision] : [])];

/** Scenarios every check of which applies to this server. */
export const APPLICABLE = new Set([
  'server-initialize',
  'ping',
  'tools-list',
  'dns-rebinding-protection',
  'server-stateless',
  'caching',
  'http-header-validation',
  'input-required-result-unsupported-methods',
  'server-sse-multiple-streams',
  'server-session-lifecycle',
  // The server serves resources since MCP Apps (the statistics view): listing, and the error for a URI it does not have.
  'resources-list',
  'sep-2164-resource-not-found',
]);

const FIXTURE = "calls the suite's own fixture tool (test_*), which a real server does not have;";
const NO_PROMPTS = 'the server offers no prompts or completions';
const FIXTURE_RESOURCE = "reads the suite's own fixture resource (test://...), which a real server does not have; the one resource it serves, the MCP Apps view: packages/mcp/test/apps.test.ts";

/** Scenarios that do not apply, with why. Where this server does what they test, its own tests say where. */
export const NOT_APPLICABLE = {
  'logging-set-level': 'the server declares no logging capability: it logs to stderr (MCP logging is deprecated in 2026-07-28)',
  'completion-complete': NO_PROMPTS,
  'tools-call-simple-text': `${FIXTURE} every tool's text and structured answer: packages/mcp/test/tools.test.ts, inspector.test.ts`,
  'tools-call-image': `${FIXTURE} image content: packages/mcp/test/shorten-and-qr.test.ts (QR codes)`,
  'tools-call-audio': `${FIXTURE} the server sends no audio`,
  'tools-call-embedded-resource': `${FIXTURE} the server sends no embedded resources`,
  'tools-call-mixed-content': `${FIXTURE} text with an image: packages/mcp/test/shorten-and-qr.test.ts`,
  'tools-call-with-logging': `${FIXTURE} the server sends no log notifications`,
  'tools-call-error': `${FIXTURE} tool errors: packages/mcp/test/tools.test.ts, failures.test.ts`,
  'tools-call-with-progress': `${FIXTURE} progress: packages/mcp/test/protocol-2026.test.ts (shorten_links)`,
  'tools-call-sampling': `${FIXTURE} the server asks for no sampling`,
  'tools-call-elicitation': `${FIXTURE} the delete confirmation by elicitation: packages/mcp/test/protocol-2026.test.ts, confirmation.test.ts`,
  'elicitation-sep1034-defaults': FIXTURE.slice(0, -1),
  'elicitation-sep1330-enums': FIXTURE.slice(0, -1),
  'json-schema-2020-12': `${FIXTURE} every schema compiled by a 2020-12-only validator: packages/mcp/test/schemas.test.ts`,
  'http-custom-header-server-validation': 'no tool declares x-mcp-header parameters (SEP-2243 custom headers)',
  'server-sse-polling': 'resuming an SSE stream needs a session and an event store; the server is stateless',
  'resources-read-text': FIXTURE_RESOURCE,
  'resources-read-binary': FIXTURE_RESOURCE,
  'resources-templates-read': `${FIXTURE_RESOURCE} (the server has no resource templates)`,
  'resources-subscribe': 'the server declares no resources.subscribe: its one resource, the MCP Apps view, changes only with its version',
  'resources-unsubscribe': 'the server declares no resources.subscribe: its one resource, the MCP Apps view, changes only with its version',
  'prompts-list': NO_PROMPTS,
  'prompts-get-simple': NO_PROMPTS,
  'prompts-get-with-args': NO_PROMPTS,
  'prompts-get-embedded-resource': NO_PROMPTS,
  'prompts-get-with-image': NO_PROMPTS,
};
for (const scenario of [
  'basic-elicitation',
  'basic-sampling',
  'basic-list-roots',
  'multiple-input-requests',
  'multi-round',
  'missing-input-response',
  'result-type',
  'capability-check',
  'ignore-extra-params',
  'validate-input',
]) {
  NOT_APPLICABLE[`input-required-result-${scenario}`] =
    `${FIXTURE} (it passes or fails on the missing tool alone) the delete confirmation by input_required: packages/mcp/test/protocol-2026.test.ts, confirmation.test.ts`;
}
NOT_APPLICABLE['input-required-result-non-tool-request'] = `${NO_PROMPTS} (it asks for input_required on prompts/get)`;
for (const scenario of [
  'lifecycle',
  'capability-negotiation',
  'wire-fields',
  'request-state-removal',
  'mrtr-input',
  'request-headers',
  'dispatch-and-envelope',
  'status-notifications',
  'required-task-error',
  'mrtr-composition',
]) {
  NOT_APPLICABLE[`tasks-${scenario}`] = 'the tasks extension, which the server does not offer (not scored for 2026-07-28)';
}

/**
 * Scenarios of a fixture tool whose every check applies to the server's delete confirmation: they run
 * through a relay that hands the fixture's calls (by name, with no arguments) to delete_link of a link
 * made for the scenario, the same name and arguments in every round, as a client's own rounds would be.
 * Each name: the suite's fixture tool.
 */
export const THROUGH_DELETE_LINK = {
  // Asked (input_required with inputRequests and a requestState), then answered with the state echoed: a complete result.
  'input-required-result-request-state': 'test_input_required_result_request_state',
  // Asked, then answered with the state altered: a JSON-RPC error (-32602), nothing deleted.
  'input-required-result-tampered-state': 'test_input_required_result_tampered_state',
};

/** Checks of applicable scenarios that need the suite's fixtures, with why. */
export const CHECKS_NOT_APPLICABLE = {
  'server-stateless/sep-2575-server-rejects-undeclared-capability': `${FIXTURE} test_missing_capability`,
  'server-stateless/sep-2575-missing-capability-http-400': `${FIXTURE} test_missing_capability`,
  'server-stateless/sep-2575-http-server-no-independent-requests-on-stream': `${FIXTURE} test_streaming_elicitation`,
  'server-stateless/sep-2575-server-no-log-without-loglevel': `${FIXTURE} test_logging_tool`,
  'caching/sep-2549-prompts-list-caching-hints': NO_PROMPTS,
  'caching/sep-2549-resources-read-caching-hints':
    'reads the first resource listed to the suite; the MCP Apps view is listed only to a client that declares the extension, which the suite does not (its caching hints: packages/mcp/test/apps.test.ts)',
  'server-sse-multiple-streams/server-sse-multiple-streams-session': 'a session-scoped stream: the server is stateless (0.1.16 warns that it has no session)',
};

/** Node >= 22 for the suite: the Node 24 binary the n8n harness keeps (installed alone, without n8n, on first use). */
async function node24() {
  const { ensureNode24 } = await import('../n8n/n8n.mjs');
  return await ensureNode24();
}

async function startServer() {
  const { startSandbox } = await import(join(ROOT, 'packages/sandbox/dist/index.js'));
  const sandbox = await startSandbox({ port: 0, rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  const child = spawn(process.execPath, [CLI, '--http', '0'], {
    env: { PATH: process.env.PATH ?? '', LINKSHORT_BASE_URL: sandbox.baseUrl, LINKSHORT_API_KEY: sandbox.userKey },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      stderr += chunk.toString();
      const address = /Streamable HTTP at (http:\/\/\S+)/.exec(stderr)?.[1];
      if (address) resolve(address);
    });
    child.once('exit', (code) => reject(new Error(`linkshort-mcp exited with ${code}: ${stderr}`)));
  });
  const makeLink = async (name) => {
    const response = await fetch(`${sandbox.baseUrl}/api/url/add`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.userKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `https://example.com/conformance/${name}` }),
    });
    const { id } = await response.json();
    return { id, exists: () => sandbox.store.state.links.some((link) => link.id === id) };
  };
  return {
    url,
    makeLink,
    stop: async () => {
      child.kill();
      await sandbox.close();
    },
  };
}

/** A relay to `serverUrl` that hands the calls of `fixtureTool` to delete_link of `linkId`; everything else goes on as it came. */
async function startDeleteLinkRelay(serverUrl, fixtureTool, linkId) {
  const relay = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', async () => {
      let body = Buffer.concat(chunks).toString('utf8');
      const headers = {};
      for (const name of ['content-type', 'accept', 'mcp-protocol-version', 'mcp-method', 'mcp-name']) {
        if (request.headers[name] !== undefined) headers[name] = request.headers[name];
      }
      try {
        const message = JSON.parse(body);
        if (message?.method === 'tools/call' && message.params?.name === fixtureTool) {
          message.params = { ...message.params, name: 'delete_link', arguments: { id: linkId } };
          headers['mcp-name'] = 'delete_link';
          body = JSON.stringify(message);
        }
      } catch {
        // Not JSON: the server says what it makes of it.
      }
      try {
        const answer = await fetch(serverUrl, { method: request.method, headers, ...(request.method === 'POST' ? { body } : {}) });
        response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        response.end(Buffer.from(await answer.arrayBuffer()));
      } catch (error) {
        response.writeHead(502).end(String(error));
      }
    });
  });
  await new Promise((resolve) => relay.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${relay.address().port}/mcp`, close: () => new Promise((resolve) => relay.close(resolve)) };
}

/** Each scenario's checks from the suite's output folder (one folder per scenario: <kind>-<scenario>-<timestamp>). */
function checksOf(outputDirectory) {
  return readdirSync(outputDirectory).map((folder) => {
    const file = join(outputDirectory, folder, 'checks.json');
    return {
      scenario: folder.replace(/^server-/, '').replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, ''),
      // A scenario that crashed wrote no checks: one failure, if it applies.
      checks: existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : [{ id: 'checks-written', status: 'FAILURE', errorMessage: 'the scenario ended without writing its checks' }],
    };
  });
}

/**
 * Runs a suite against `url` (whole, or the one scenario `args` name) and reads what it wrote. Not
 * spawnSync: a relay in this process must answer meanwhile.
 */
async function runSuite(node, suite, url, args) {
  const output = mkdtempSync(join(tmpdir(), 'linkshort-mcp-conformance-'));
  const child = spawn(node, [require.resolve(suite.entry), 'server', '--url', url, ...args, '--output-dir', output], { stdio: ['ignore', 'pipe', 'pipe'] });
  let said = '';
  const keep = (chunk) => (said = (said + chunk.toString()).slice(-4000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const status = await new Promise((resolve) => child.once('close', resolve));
  return { run: { status, said }, scenarios: checksOf(output) };
}

/** Whether a suite has a server scenario at its revision (from its `list`: "  - name [revision,...]" under "Server scenarios"). */
function suiteHas(node, suite, scenario) {
  const serverSection = spawnSync(node, [require.resolve(suite.entry), 'list'], { encoding: 'utf8' }).stdout.split('\n\n')[0];
  for (const line of serverSection.split('\n')) {
    const [, name, revisions] = /^ {2}- (\S+) \[([^\]]*)\]$/.exec(line) ?? [];
    if (name === scenario) return suite.revision === undefined || revisions.split(',').includes(suite.revision);
  }
  return false;
}

/** A scenario of THROUGH_DELETE_LINK, through the relay, on a link of its own; the tampered state must also leave the link. */
async function runThroughDeleteLink(node, suite, server, scenario) {
  const link = await server.makeLink(scenario);
  const relay = await startDeleteLinkRelay(server.url, THROUGH_DELETE_LINK[scenario], link.id);
  try {
    const { scenarios } = await runSuite(node, suite, relay.url, oneScenario(suite, scenario));
    const checks = scenarios.find((ran) => ran.scenario === scenario)?.checks ?? [{ id: 'checks-written', status: 'FAILURE', errorMessage: 'the scenario wrote no checks' }];
    if (scenario === 'input-required-result-tampered-state') {
      checks.push({ id: 'linkshort-nothing-deleted', status: link.exists() ? 'SUCCESS' : 'FAILURE', errorMessage: 'the link was deleted on a tampered state' });
    }
    return checks;
  } finally {
    await relay.close();
  }
}

async function main() {
  const only = process.argv.slice(2);
  const node = await node24();
  const server = await startServer();
  let passed = 0;
  let failed = 0;
  const count = (scenario, checks) => {
    for (const check of checks) {
      const why = CHECKS_NOT_APPLICABLE[`${scenario}/${check.id}`];
      if (why !== undefined) {
        console.log(`  not applicable  ${scenario} / ${check.id}: ${why}`);
      } else if (check.status === 'SUCCESS') {
        passed += 1;
        console.log(`  passed          ${scenario} / ${check.id}`);
      } else if (check.status === 'FAILURE' || check.status === 'WARNING') {
        failed += 1;
        console.log(`  FAILED          ${scenario} / ${check.id} (${check.status}): ${String(check.errorMessage ?? check.description ?? '').slice(0, 500)}`);
      }
    }
  };
  try {
    const ranNamed = new Set();
    for (const suite of SUITES) {
      if (only.length > 0) {
        for (const scenario of only.filter((name) => suiteHas(node, suite, name))) {
          ranNamed.add(scenario);
          console.log(`\n--- conformance ${suite.label}: ${scenario} ---`);
          if (THROUGH_DELETE_LINK[scenario] !== undefined) count(scenario, await runThroughDeleteLink(node, suite, server, scenario));
          else if (NOT_APPLICABLE[scenario] !== undefined) console.log(`  not applicable  ${scenario}: ${NOT_APPLICABLE[scenario]}`);
          else count(scenario, (await runSuite(node, suite, server.url, oneScenario(suite, scenario))).scenarios.find((ran) => ran.scenario === scenario)?.checks ?? [{ id: 'checks-written', status: 'FAILURE', errorMessage: 'the scenario wrote no checks' }]);
        }
        continue;
      }
      const { run, scenarios } = await runSuite(node, suite, server.url, suite.args);
      console.log(`\n--- conformance ${suite.label}: ${scenarios.length} scenarios run (exit ${run.status}) ---`);
      if (scenarios.length === 0) {
        failed += 1;
        console.log(`FAILED: the suite ran no scenario: ${run.said.slice(-2000)}`);
        continue;
      }
      for (const { scenario, checks } of scenarios) {
        if (THROUGH_DELETE_LINK[scenario] !== undefined) {
          console.log(`  through delete_link  ${scenario}:`);
          count(scenario, await runThroughDeleteLink(node, suite, server, scenario));
        } else if (NOT_APPLICABLE[scenario] !== undefined) {
          console.log(`  not applicable  ${scenario}: ${NOT_APPLICABLE[scenario]}`);
        } else if (!APPLICABLE.has(scenario)) {
          failed += 1;
          console.log(`  FAILED          ${scenario}: a scenario this test does not classify; read it and list it as applicable or not, with why`);
        } else {
          count(scenario, checks);
        }
      }
    }
    for (const scenario of only.filter((name) => !ranNamed.has(name))) {
      failed += 1;
      console.log(`  FAILED          ${scenario}: no suite has this scenario`);
    }
  } finally {
    await server.stop();
  }
  console.log(`MCP conformance: ${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
}

await main();
