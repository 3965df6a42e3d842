// The official MCP conformance suite against `linkshort-mcp --http` (over a sandbox account): the
// npm-latest 0.1.16 (revisions up to 2025-11-25) and the pinned 0.2.0-alpha.12 at 2025-11-25 and at
// 2026-07-28, and the 2026-07-28 scenarios again against `--sign-in` (every request carrying a
// signed-in person's OAuth token, added by a proxy, since the suite sends none). The authorization
// server's scenarios (`authorization` command: its metadata, and the code grant with PKCE, the
// suite's sign-in link followed here as a person would, through the sign-in page) run against
// `--sign-in` too. The suite needs Node >= 22: it runs under the Node 24 the n8n harness keeps.
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
  {
    label: '0.2.0-alpha.12 --requirements 2025-11-25',
    entry: 'mcp-conformance-next/dist/index.js',
    args: ['--requirements', '2025-11-25'],
    revision: '2025-11-25',
  },
  {
    label: '0.2.0-alpha.12 --requirements 2026-07-28',
    entry: 'mcp-conformance-next/dist/index.js',
    args: ['--requirements', '2026-07-28'],
    revision: '2026-07-28',
  },
  // The same with everyone signing in (--sign-in): the suite sends no token of its own, so a proxy adds a signed-in person's.
  {
    label: '0.2.0-alpha.12 --requirements 2026-07-28, signed in (OAuth)',
    entry: 'mcp-conformance-next/dist/index.js',
    args: ['--requirements', '2026-07-28'],
    revision: '2026-07-28',
    signedIn: true,
  },
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
const FIXTURE_RESOURCE =
  "reads the suite's own fixture resource (test://...), which a real server does not have; the one resource it serves, the MCP Apps view: packages/mcp/test/apps.test.ts";

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
 * through a relay that hands the fixture's calls (by name, with no arguments) to delete_links of a link
 * made for the scenario with its preview's confirmation (the call that asks the person), the same name
 * and arguments in every round, as a client's own rounds would be.
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

/** The built server on a sandbox account; with `args` such as --sign-in. */
async function startServer(args = []) {
  const { startSandbox } = await import(join(ROOT, 'packages/sandbox/dist/index.js'));
  const sandbox = await startSandbox({ port: 0, rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  const child = spawn(process.execPath, [CLI, '--http', '0', ...args], {
    env: { PATH: process.env.PATH ?? '', LINKSHORT_BASE_URL: sandbox.baseUrl, LINKSHORT_API_KEY: args.includes('--sign-in') ? '' : sandbox.userKey },
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
    userKey: sandbox.userKey,
    stop: async () => {
      child.kill();
      await sandbox.close();
    },
  };
}

/** delete_links' preview of one link, asked of the server as a 2026-07-28 client asks (the envelope in each request): its confirmation. */
async function deletePreview(serverUrl, linkId) {
  const params = {
    name: 'delete_links',
    arguments: { ids: [linkId] },
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'conformance-relay', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  };
  const answer = await fetch(serverUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'delete_links',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }),
  });
  const text = await answer.text();
  const message = JSON.parse(
    text.startsWith('{')
      ? text
      : (text
          .split('\n')
          .find((line) => line.startsWith('data:'))
          ?.slice(5) ?? '{}'),
  );
  const confirmation = message.result?.structuredContent?.confirmation;
  if (typeof confirmation !== 'string') throw new Error(`delete_links answered no preview of link ${linkId}: ${text.slice(0, 500)}`);
  return confirmation;
}

/** A relay to `serverUrl` that hands the calls of `fixtureTool` to delete_links of `linkId` with its preview's confirmation; everything else goes on as it came. */
async function startDeleteLinkRelay(serverUrl, fixtureTool, linkId) {
  const deleteArguments = { ids: [linkId], confirmation: await deletePreview(serverUrl, linkId) };
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
          message.params = { ...message.params, name: 'delete_links', arguments: deleteArguments };
          headers['mcp-name'] = 'delete_links';
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
      checks: existsSync(file)
        ? JSON.parse(readFileSync(file, 'utf8'))
        : [{ id: 'checks-written', status: 'FAILURE', errorMessage: 'the scenario ended without writing its checks' }],
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
    const checks = scenarios.find((ran) => ran.scenario === scenario)?.checks ?? [
      { id: 'checks-written', status: 'FAILURE', errorMessage: 'the scenario wrote no checks' },
    ];
    if (scenario === 'input-required-result-tampered-state') {
      checks.push({ id: 'linkshort-nothing-deleted', status: link.exists() ? 'SUCCESS' : 'FAILURE', errorMessage: 'the link was deleted on a tampered state' });
    }
    return checks;
  } finally {
    await relay.close();
  }
}

/** The authorization server's scenarios (`authorization` command), against `linkshort-mcp --http --sign-in`. */
export const AUTHORIZATION_SCENARIOS = ['authorization-server-metadata-endpoint', 'authorization-code-grant'];

async function freePort() {
  const { createServer } = await import('node:net');
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * Signs in where the suite says to ("Access the following URL in your browser"), as a person
 * would: the sign-in page fetched, its form posted with the sandbox user's key, and the redirect
 * followed to the suite's callback.
 */
async function signInForTheSuite(authorizationUrl, issuer, apiKey) {
  const page = await fetch(authorizationUrl, { redirect: 'manual' });
  const html = await page.text();
  const field = (name) =>
    (new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '').replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code)));
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0];
  const answer = await fetch(`${issuer}/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: issuer, Cookie: cookie },
    body: new URLSearchParams({ request: field('request'), csrf_token: field('csrf_token'), api_key: apiKey }).toString(),
  });
  const location = answer.headers.get('location');
  if (answer.status !== 303 || location === null) throw new Error(`the sign-in answered ${answer.status}`);
  return location;
}

/** Runs the `authorization` command once (the code grant takes its endpoints from the metadata scenario's answer), signing in when it asks. */
async function runAuthorizationScenarios(node, output) {
  const server = await startServer(['--sign-in']);
  const issuer = new URL(server.url).origin;
  try {
    const port = await freePort();
    const registration = await fetch(`${issuer}/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_name: 'MCP conformance suite', redirect_uris: [`http://127.0.0.1:${port}/callback`] }),
    });
    const { client_id: clientId } = await registration.json();
    const args = ['authorization', '--url', issuer, '--client-id', clientId, '--resource', server.url, '--port', String(port), '--output-dir', output];
    const child = spawn(node, [require.resolve('mcp-conformance-next/dist/index.js'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let printed = '';
    let signedIn = false;
    const authorizationUrl = new RegExp(`^${issuer.replace(/[.]/g, '\\.')}/authorize\\?\\S+`, 'm');
    child.stdout.on('data', (chunk) => {
      printed += chunk.toString();
      const url = authorizationUrl.exec(printed)?.[0];
      if (url && !signedIn) {
        signedIn = true;
        signInForTheSuite(url, issuer, server.userKey)
          .then(async (location) => (await fetch(location)).text())
          .catch((error) => console.log(`  the sign-in for the suite failed: ${error.message}`));
      }
    });
    child.stderr.on('data', (chunk) => (printed += chunk.toString()));
    const timer = setTimeout(() => child.kill(), 60_000);
    await new Promise((resolve) => child.once('exit', resolve));
    clearTimeout(timer);
    if (printed.includes(server.userKey)) throw new Error("the API key appeared in the suite's output");
  } finally {
    await server.stop();
  }
}

/** An access token of the sandbox user's, through the sign-in page and the token endpoint. */
async function accessTokenFor(server) {
  const issuer = new URL(server.url).origin;
  const redirect = 'http://127.0.0.1:9/callback';
  const { client_id: clientId } = await (
    await fetch(`${issuer}/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ redirect_uris: [redirect] }) })
  ).json();
  const { createHash, randomBytes } = await import('node:crypto');
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirect,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: server.url,
  });
  const code = new URL(await signInForTheSuite(`${issuer}/authorize?${query}`, issuer, server.userKey)).searchParams.get('code');
  const body = new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: redirect });
  const tokens = await (await fetch(`${issuer}/token`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body })).json();
  return tokens.access_token;
}

/** A proxy in front of `server` that adds the bearer token to every request (the Host and every other header as sent). */
async function withBearer(server, token) {
  const { createServer, request } = await import('node:http');
  const target = new URL(server.url);
  const proxy = createServer((incoming, outgoing) => {
    const forwarded = request(
      {
        host: target.hostname,
        port: target.port,
        path: incoming.url,
        method: incoming.method,
        headers: { ...incoming.headers, authorization: `Bearer ${token}` },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${proxy.address().port}/mcp`,
    close: () =>
      new Promise((resolve) => {
        proxy.closeAllConnections();
        proxy.close(resolve);
      }),
  };
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
    const ranNamed = new Set(only.filter((name) => AUTHORIZATION_SCENARIOS.includes(name)));
    if (only.length === 0 || only.some((name) => AUTHORIZATION_SCENARIOS.includes(name))) {
      const authorization = mkdtempSync(join(tmpdir(), 'linkshort-mcp-conformance-authorization-'));
      await runAuthorizationScenarios(node, authorization);
      const ran = checksOf(authorization);
      console.log(`\n--- conformance 0.2.0-alpha.12 authorization (--sign-in): ${ran.length} scenarios run ---`);
      for (const scenario of new Set([...AUTHORIZATION_SCENARIOS, ...ran.map((entry) => entry.scenario.replace(/^authorization-server-/, ''))])) {
        if (only.length > 0 && !only.includes(scenario)) continue;
        const checks = AUTHORIZATION_SCENARIOS.includes(scenario)
          ? (ran.find((entry) => entry.scenario === `authorization-server-${scenario}`)?.checks ?? [
              { id: scenario, status: 'FAILURE', errorMessage: 'the scenario wrote no checks' },
            ])
          : [{ id: scenario, status: 'FAILURE', errorMessage: 'an authorization scenario this test does not classify; read it and list it' }];
        count(`authorization ${scenario}`, checks);
      }
    }
    for (const suite of SUITES) {
      if (only.length > 0) {
        for (const scenario of only.filter((name) => suiteHas(node, suite, name))) {
          ranNamed.add(scenario);
          console.log(`\n--- conformance ${suite.label}: ${scenario} ---`);
          if (THROUGH_DELETE_LINK[scenario] !== undefined) count(scenario, await runThroughDeleteLink(node, suite, server, scenario));
          else if (NOT_APPLICABLE[scenario] !== undefined) console.log(`  not applicable  ${scenario}: ${NOT_APPLICABLE[scenario]}`);
          else
            count(
              scenario,
              (await runSuite(node, suite, server.url, oneScenario(suite, scenario))).scenarios.find((ran) => ran.scenario === scenario)?.checks ?? [
                { id: 'checks-written', status: 'FAILURE', errorMessage: 'the scenario wrote no checks' },
              ],
            );
        }
        continue;
      }
      const signedIn = suite.signedIn ? await startServer(['--sign-in']) : undefined;
      const proxy = signedIn ? await withBearer(signedIn, await accessTokenFor(signedIn)) : undefined;
      const { run, scenarios } = await runSuite(node, suite, proxy?.url ?? server.url, suite.args).finally(async () => {
        await proxy?.close();
        await signedIn?.stop();
      });
      console.log(`\n--- conformance ${suite.label}: ${scenarios.length} scenarios run (exit ${run.status}) ---`);
      if (scenarios.length === 0) {
        failed += 1;
        console.log(`FAILED: the suite ran no scenario: ${run.said.slice(-2000)}`);
        continue;
      }
      for (const { scenario, checks } of scenarios) {
        if (THROUGH_DELETE_LINK[scenario] !== undefined) {
          console.log(`  through delete_links  ${scenario}:`);
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
