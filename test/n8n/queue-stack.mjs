// n8n in queue mode for tests and `npm start -- --queue`: Redis and Postgres (Debian packages) run
// as this process's own children on free loopback ports with their data in a folder of ours, then
// one n8n main instance and N workers share them. Postgres is test/support/postgres.cjs's (it runs
// as the `postgres` user under runuser when we are root). Everything started here is ended by stop(), and should the
// caller die first, on this process's exit (test/support/children.cjs).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { freePort, n8nCli, startN8n } from './n8n.mjs';
import children from '../support/children.cjs';
import postgres from '../support/postgres.cjs';

const { collectOutput, track, waitForExit } = children;
const { startPostgres } = postgres;
export const { postgresBin } = postgres;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts redis-server on a free loopback port, without persistence. */
export async function startRedis(dir) {
  const port = await freePort();
  const child = track(
    spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const output = collectOutput(child);
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server exited ${child.exitCode}: ${output()}`);
    const pong = await new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
      socket.on('data', (data) => {
        socket.destroy();
        resolve(String(data).startsWith('+PONG'));
      });
      socket.on('error', () => resolve(false));
    });
    if (pong) break;
    if (Date.now() - started > 20_000) throw new Error(`redis-server did not answer PING: ${output()}`);
    await sleep(200);
  }
  return {
    host: '127.0.0.1',
    port,
    stop: async () => {
      child.kill('SIGTERM');
      await waitForExit(child, 5000);
    },
  };
}

/** The inode of the loopback TCP socket whose local port is `localPort` and remote port `remotePort`. */
function socketInode(localPort, remotePort) {
  const hex = (port) => port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10) continue;
      if (fields[1].endsWith(`:${hex(localPort)}`) && fields[2].endsWith(`:${hex(remotePort)}`)) return fields[9];
    }
  }
  return undefined;
}

/** The process (pid) holding a socket inode, among `pids` (and their children) and then any process. */
function socketOwner(inode, pids) {
  if (inode === undefined) return undefined;
  const holds = (pid) => {
    try {
      return readdirSync(`/proc/${pid}/fd`).some((fd) => {
        try {
          return readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`;
        } catch {
          return false;
        }
      });
    } catch {
      return false;
    }
  };
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
  const known = new Set(pids);
  return pids.find(holds) ?? all.filter((pid) => known.has(parentOf(pid))).find(holds) ?? all.find(holds);
}

function parentOf(pid) {
  try {
    // The command name may hold spaces and parentheses: the fields after its closing one are fixed.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/**
 * Which process sent what arrives on this server-side loopback socket: its end of the connection is
 * found in /proc (Linux). Returns that process and its ancestors (pids, nearest first), to be named
 * later by nameOfSender: a process may send before its starter knows its name.
 */
export function senderOf(socket, candidates = []) {
  const chain = [];
  let pid = socketOwner(socketInode(socket.remotePort, socket.localPort), candidates);
  while (pid && pid > 1 && chain.length < 20) {
    chain.push(pid);
    pid = parentOf(pid);
  }
  return chain;
}

/** The name `nameOf` gives the nearest named process of a sender chain (see senderOf), or "unknown". */
export function nameOfSender(chain, nameOf) {
  for (const pid of chain) {
    const name = nameOf(pid);
    if (name !== undefined) return name;
  }
  return 'unknown';
}

/**
 * A pass-through HTTP server in front of `target` that records every request with the process that
 * sent it (see senderOf): { process, method, path, query, at, limited }.
 */
export async function startAttributingProxy(target, nameOf, candidates = () => []) {
  const targetUrl = new URL(target);
  const requests = [];
  const server = createServer((request, response) => {
    const [path, query = ''] = (request.url ?? '').split('?');
    const sender = senderOf(request.socket, candidates());
    const record = {
      get process() {
        return nameOfSender(sender, nameOf);
      },
      method: request.method,
      path,
      query: query ? `?${query}` : '',
      at: Date.now(),
      /** Whether the answer was the API's limit answer (HTTP 200 with error 429, or HTTP 429). */
      limited: undefined,
    };
    requests.push(record);
    const upstream = httpRequest(
      { host: targetUrl.hostname, port: targetUrl.port, method: request.method, path: request.url, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        let head = '';
        answer.on('data', (chunk) => (head = head.length < 64 ? head + chunk : head));
        answer.on('end', () => (record.limited = answer.statusCode === 429 || /^\{"error":429/.test(head)));
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/**
 * Starts Redis, Postgres, then (after `prepare(cli, postgres)` has imported what the caller needs
 * with n8n's CLI against that database) one n8n main instance and `workers` workers in queue mode, all
 * sharing `userFolder`. `onOutput(name, text)` receives every process's output.
 */
export async function startQueueStack({
  dir,
  userFolder,
  workers = 2,
  concurrency = 5,
  mainPort,
  prepare,
  onOutput,
  logLevel = 'info',
  extraEnv = {},
  startTimeoutMs = 180_000,
}) {
  const [redis, postgres] = await Promise.all([startRedis(dir), startPostgres(dir, { database: 'n8n' })]);
  const stack = { redis, postgres, main: undefined, workers: [] };
  const names = new Map();
  try {
    const port = mainPort ?? (await freePort());
    const encryptionKeyFile = join(dir, 'encryption-key');
    if (!existsSync(encryptionKeyFile)) writeFileSync(encryptionKeyFile, randomBytes(24).toString('hex'));
    const env = {
      EXECUTIONS_MODE: 'queue',
      QUEUE_BULL_REDIS_HOST: redis.host,
      QUEUE_BULL_REDIS_PORT: String(redis.port),
      N8N_ENCRYPTION_KEY: readFileSync(encryptionKeyFile, 'utf8').trim(),
      OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
      N8N_LOG_LEVEL: logLevel,
      ...extraEnv,
    };
    const database = postgres.database;
    let migrated = false;
    const cli = async (args) => {
      migrated = true;
      const result = await n8nCli(userFolder, port, args, { database, env });
      if (result.code !== 0)
        throw new Error(`n8n ${args.join(' ')} failed (${result.code ?? result.signal}): ${result.stderr.slice(-2000)}${result.stdout.slice(-2000)}`);
      return result;
    };
    stack.cli = cli;
    await prepare?.(cli, postgres);

    const workerPorts = [];
    for (let i = 0; i < workers; i += 1) workerPorts.push({ port: await freePort(), broker: await freePort(), health: await freePort() });
    const startMain = async () => {
      const main = await startN8n(userFolder, port, { database, env, onOutput: (text) => onOutput?.('main', text), timeoutMs: startTimeoutMs });
      names.set(main.pid, 'main');
      return main;
    };
    const startWorker = async (index) => {
      const name = `worker-${index + 1}`;
      const { port: workerPort, broker, health } = workerPorts[index];
      const worker = await startN8n(userFolder, workerPort, {
        database,
        args: ['worker', `--concurrency=${concurrency}`],
        env: { ...env, N8N_RUNNERS_BROKER_PORT: String(broker), QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(health) },
        readyUrl: `http://127.0.0.1:${health}/healthz`,
        onOutput: (text) => onOutput?.(name, text),
        timeoutMs: startTimeoutMs,
      });
      names.set(worker.pid, name);
      return Object.assign(worker, { name, healthUrl: `http://127.0.0.1:${health}/healthz` });
    };
    // Any n8n command brings the database schema up to date: after `prepare`'s, main and workers
    // start at once; otherwise main (which migrates) goes first.
    const mainStarting = startMain();
    if (!migrated) await mainStarting.catch(() => {});
    const [main, ...started] = await Promise.allSettled([mainStarting, ...workerPorts.map((_, index) => startWorker(index))]);
    if (main.status === 'fulfilled') stack.main = main.value;
    stack.workers = started.filter((result) => result.status === 'fulfilled').map((result) => result.value);
    const failed = [main, ...started].find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    Object.assign(stack, {
      url: stack.main.url,
      database,
      /** The name ("main", "worker-1", ...) of an n8n process by pid, or undefined. */
      nameOf: (pid) => names.get(pid),
      /** The pids of the n8n processes running now. */
      pids: () => [stack.main.pid, ...stack.workers.map((worker) => worker.pid)],
      async restartMain() {
        await stack.main.stop();
        stack.main = await startMain();
      },
      async restartWorker(index, { crash = false } = {}) {
        await (crash ? stack.workers[index].kill() : stack.workers[index].stop());
        stack.workers[index] = await startWorker(index);
      },
    });
  } catch (error) {
    await stopQueueStack(stack);
    throw error;
  }
  stack.stop = () => stopQueueStack(stack);
  return stack;
}

async function stopQueueStack(stack) {
  await Promise.all([stack.main?.stop(), ...stack.workers.map((worker) => worker.stop())]);
  await Promise.all([stack.redis?.stop(), stack.postgres?.stop()]);
}
