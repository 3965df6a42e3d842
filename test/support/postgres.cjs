// A throwaway Postgres (Debian's package) for tests: a cluster in a folder of the caller's, on a free
// loopback port, run as the `postgres` user when we are root (Postgres refuses root). Shared by the
// n8n queue-mode stack (test/n8n/queue-stack.mjs) and the MCP server's store tests; each run starts
// one cluster and makes one database per use in it. Ended by stop(), and should the caller die
// first, on this process's exit (test/support/children.cjs).
'use strict';
const { execFileSync, spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { collectOutput, killOnExit, release, track, waitForExit } = require('./children.cjs');
const { freePort } = require('./free-port.cjs');

const POSTGRES_USER = 'postgres';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The folder holding Postgres's binaries (Debian installs them per major version). */
function postgresBin() {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).filter((name) => existsSync(join(base, name, 'bin/initdb'))) : [];
  if (versions.length === 0) throw new Error('Postgres is not installed (no /usr/lib/postgresql/*/bin/initdb): apt-get install -y postgresql');
  return join(base, versions.sort((a, b) => Number(b) - Number(a))[0], 'bin');
}

/**
 * Starts Postgres with its cluster in `dir/postgres` (made by initdb on first use, kept after) and
 * makes the database `database`. Resolves with the connection settings (`database`, and `url` for
 * a postgres:// client), query helpers, stop() and start() (again, on the same port and data).
 */
async function startPostgres(dir, { database = 'n8n' } = {}) {
  const bin = postgresBin();
  const home = join(dir, 'postgres');
  const data = join(home, 'data');
  const sockets = join(home, 'sockets');
  mkdirSync(sockets, { recursive: true });
  // The postgres user must reach its folder through ours.
  chmodSync(dir, 0o755);
  const passwordFile = join(home, 'password');
  if (!existsSync(passwordFile)) writeFileSync(passwordFile, randomBytes(12).toString('hex'));
  const password = readFileSync(passwordFile, 'utf8').trim();
  // As root, the server runs as the `postgres` user (it refuses root); otherwise as ourselves.
  const root = process.getuid?.() === 0;
  if (root) execFileSync('chown', ['-R', `${POSTGRES_USER}:`, home]);
  const asPostgres = (command, args) => (root ? ['runuser', ['-u', POSTGRES_USER, '--', join(bin, command), ...args]] : [join(bin, command), args]);
  if (!existsSync(join(data, 'PG_VERSION'))) {
    execFileSync(
      ...asPostgres('initdb', [
        '-D',
        data,
        '-U',
        POSTGRES_USER,
        `--pwfile=${passwordFile}`,
        '--auth-local=trust',
        '--auth-host=scram-sha-256',
        '-E',
        'UTF8',
        '--no-sync',
      ]),
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
  }
  const port = await freePort();
  const env = { ...process.env, PGPASSWORD: password };
  const connection = ['-h', '127.0.0.1', '-p', String(port), '-U', POSTGRES_USER];
  let child;

  async function start() {
    child = spawn(
      ...asPostgres('postgres', [
        '-D',
        data,
        '-p',
        String(port),
        '-k',
        sockets,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
      ]),
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    track(child);
    const output = collectOutput(child);
    const since = Date.now();
    for (;;) {
      if (child.exitCode !== null) throw new Error(`postgres exited ${child.exitCode}: ${output()}`);
      try {
        execFileSync(join(bin, 'pg_isready'), [...connection, '-q'], { env, stdio: 'ignore' });
        break;
      } catch {
        if (Date.now() - since > 60_000) throw new Error(`postgres did not get ready: ${output()}`);
        await sleep(200);
      }
    }
    const postmaster = join(data, 'postmaster.pid');
    // runuser may stay between us and the postmaster: the postmaster's own pid is the one to signal.
    if (existsSync(postmaster)) killOnExit(Number(readFileSync(postmaster, 'utf8').split('\n')[0]));
  }

  async function stop() {
    const postmaster = join(data, 'postmaster.pid');
    const pid = existsSync(postmaster) ? Number(readFileSync(postmaster, 'utf8').split('\n')[0]) : undefined;
    try {
      // SIGINT: a fast shutdown (clients are disconnected at once).
      if (pid) process.kill(pid, 'SIGINT');
      else child.kill('SIGINT');
    } catch {
      // already gone
    }
    if (pid) release(pid);
    await waitForExit(child, 20_000);
  }

  await start();
  const exists = execFileSync(join(bin, 'psql'), [...connection, '-d', 'postgres', '-Atc', `select 1 from pg_database where datname = '${database}'`], { env })
    .toString()
    .trim();
  if (exists !== '1') execFileSync(join(bin, 'createdb'), [...connection, database], { env });
  return {
    database: { host: '127.0.0.1', port, user: POSTGRES_USER, password, database },
    url: `postgres://${POSTGRES_USER}:${password}@127.0.0.1:${port}/${database}`,
    /** Makes another database in the same cluster (one per test file); returns its URL. */
    createDatabase(name) {
      execFileSync(join(bin, 'createdb'), [...connection, name], { env });
      return `postgres://${POSTGRES_USER}:${password}@127.0.0.1:${port}/${name}`;
    },
    /** Runs statements; returns what psql prints. */
    execute(sql, on = database) {
      return execFileSync(join(bin, 'psql'), [...connection, '-d', on, '-v', 'ON_ERROR_STOP=1', '-Atc', sql], { env }).toString();
    },
    /** Runs a query and returns its rows as objects. */
    query(sql, on = database) {
      const text = execFileSync(join(bin, 'psql'), [...connection, '-d', on, '-Atc', `select coalesce(json_agg(row_to_json(q)), '[]') from (${sql}) q`], {
        env,
        maxBuffer: 64 * 1024 * 1024,
      }).toString();
      return JSON.parse(text);
    },
    stop,
    start,
  };
}

module.exports = { postgresBin, startPostgres };
