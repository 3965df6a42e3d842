import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, readlinkSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { startSandbox } from '@linkshort/sandbox';

/**
 * The sandbox's data file held by two sandboxes that cannot see each other's processes (two
 * containers on one volume), kill -9 in the middle of work, and a journal cut short.
 */

const root = join(__dirname, '../..');
const folder = () => mkdtempSync(join(tmpdir(), 'linkshort-sandbox-file-'));
const pidNamespace = () => {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return '';
  }
};

function startCli(args: string[]): { child: ChildProcess; ready: Promise<{ baseUrl: string; userKey: string }>; output: () => string } {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'packages/sandbox/src/cli.ts'), '--port', '0', '--json', '--rate-limit', '100000/60', ...args],
    {
      cwd: root,
      env: { ...process.env, TSX_TSCONFIG_PATH: join(root, 'tsconfig.json') },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const ready = new Promise<{ baseUrl: string; userKey: string }>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((candidate) => candidate.startsWith('{'));
      if (line) resolve(JSON.parse(line) as { baseUrl: string; userKey: string });
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
  return { child, ready, output: () => output };
}

const killed = async (child: ChildProcess) => {
  if (child.exitCode === null && child.signalCode === null) {
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await gone;
  }
};

async function api(baseUrl: string, key: string, method: 'GET' | 'POST', path: string, body?: unknown) {
  const response = await request(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.statusCode, json: (await response.body.json()) as { error: number | string; message?: string; id: number; shorturl: string } };
}

async function visit(url: string, method: 'GET' | 'HEAD' = 'GET') {
  const response = await request(url, { method });
  await response.body.dump();
  return { status: response.statusCode, location: response.headers.location };
}

describe('two sandboxes on one data file, in pid namespaces that cannot see each other', () => {
  jest.setTimeout(60_000);

  it('a lock held by a live sandbox on another host (a pid that means nothing here) is refused, naming that host, and the file is left alone', async () => {
    const dataFile = join(folder(), 'state.json');
    const lock = { token: 'f'.repeat(32), host: 'other-container', pid: 1, pidNamespace: 'pid:[1]', heartbeat: Date.now() };
    writeFileSync(`${dataFile}.lock`, JSON.stringify(lock));
    await expect(startSandbox({ dataFile })).rejects.toThrow(/in use by another sandbox \(process 1 on host "other-container", last heartbeat \d+ s ago/);
    expect(JSON.parse(readFileSync(`${dataFile}.lock`, 'utf8'))).toEqual(lock);
  });

  it('a lock from another host whose heartbeat stopped long ago is taken over', async () => {
    const dataFile = join(folder(), 'state.json');
    writeFileSync(
      `${dataFile}.lock`,
      JSON.stringify({ token: 'e'.repeat(32), host: 'gone-container', pid: process.pid, pidNamespace: 'pid:[1]', heartbeat: Date.now() - 3_600_000 }),
    );
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const sandbox = await startSandbox({ dataFile });
      await sandbox.close();
      expect(logged.mock.calls.flat().join('\n')).toMatch(/took over the lock .*heartbeat is 3600 s old/);
    } finally {
      logged.mockRestore();
    }
  });

  it('restarted after kill -9 under the same pid (pid 1 in a container), the sandbox takes over its own stale lock instead of refusing, naming itself', async () => {
    for (const leftOver of [
      `${process.pid}\n`,
      JSON.stringify({ token: 'd'.repeat(32), host: hostname(), pid: process.pid, pidNamespace: pidNamespace(), heartbeat: Date.now() }),
    ]) {
      const dataFile = join(folder(), 'state.json');
      writeFileSync(`${dataFile}.lock`, leftOver);
      const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
      try {
        const sandbox = await startSandbox({ dataFile });
        await sandbox.close();
      } finally {
        logged.mockRestore();
      }
    }
  });

  it('a second sandbox process never takes the file from a running one in another namespace, and a file changed behind its back stops a sandbox writing, never overwritten', async () => {
    const dataFile = join(folder(), 'state.json');
    const first = startCli(['--data', dataFile]);
    try {
      const { baseUrl, userKey } = await first.ready;
      // As a sandbox in another container sees the first one's lock: a pid that is not alive here, another host.
      const held = JSON.parse(readFileSync(`${dataFile}.lock`, 'utf8')) as Record<string, unknown>;
      expect(held).toMatchObject({ pid: first.child.pid, host: hostname(), heartbeat: expect.any(Number) });
      writeFileSync(`${dataFile}.lock`, JSON.stringify({ ...held, pid: 999_999, host: 'container-a' }));
      await expect(startSandbox({ dataFile })).rejects.toThrow(/in use by another sandbox \(process 999999 on host "container-a"/);
      const second = startCli(['--data', dataFile]);
      second.ready.catch(() => undefined);
      expect(await new Promise((resolve) => second.child.once('exit', resolve))).toBe(1);
      expect(second.output()).toContain('in use by another sandbox');

      // The first still owns the file and saves to it.
      const created = await api(baseUrl, userKey, 'POST', '/api/url/add', { url: 'https://example.com/owned' });
      expect(created.json).toMatchObject({ error: 0 });

      // Another writer changes the snapshot behind the first one's back.
      const foreign = readFileSync(dataFile, 'utf8').replace('"generation":', '"foreign":true,"generation":');
      writeFileSync(`${dataFile}.other`, foreign);
      renameSync(`${dataFile}.other`, dataFile);
      const refused = await api(baseUrl, userKey, 'POST', '/api/url/add', { url: 'https://example.com/refused' });
      expect(refused.status).toBe(503);
      expect(refused.json.message).toMatch(/changed, replaced or removed by someone else.*no longer saves changes/);
      const again = await api(baseUrl, userKey, 'POST', '/api/url/add', { url: 'https://example.com/refused-again' });
      expect(again.status).toBe(503);
      expect(readFileSync(dataFile, 'utf8')).toBe(foreign);
      expect(readFileSync(`${dataFile}.journal`, 'utf8')).not.toContain('refused');
      // Nothing unsaved is shown as made.
      const listed = await api(baseUrl, userKey, 'GET', '/api/urls?limit=100');
      expect(JSON.stringify(listed.json)).not.toContain('refused');
    } finally {
      await killed(first.child);
    }
  });
});

describe('the journal: a change costs a line, nothing acknowledged is lost on kill -9', () => {
  jest.setTimeout(60_000);

  it('creates and visits acknowledged before kill -9 are all there after a restart; the snapshot is not rewritten per change; a torn last journal line is ignored with a log line', async () => {
    const dataFile = join(folder(), 'state.json');
    const first = startCli(['--data', dataFile, '--seed', 'links:2000']);
    const made: Array<{ id: number; shorturl: string }> = [];
    try {
      const { baseUrl, userKey } = await first.ready;
      const snapshotBefore = statSync(dataFile);
      for (let i = 0; i < 25; i += 1) {
        const { json } = await api(baseUrl, userKey, 'POST', '/api/url/add', { url: `https://example.com/journal/${i}`, metatitle: `Journal ${i}` });
        expect(json.error).toBe(0);
        made.push({ id: json.id, shorturl: json.shorturl.replace(/\\\//g, '/') });
      }
      for (const link of made.slice(0, 10)) expect((await visit(link.shorturl)).status).toBe(302);
      const snapshotAfter = statSync(dataFile);
      // Every change went to the journal: the 2,000-link snapshot was not written again.
      expect([snapshotAfter.ino, snapshotAfter.size, snapshotAfter.mtimeMs]).toEqual([snapshotBefore.ino, snapshotBefore.size, snapshotBefore.mtimeMs]);
      expect(readFileSync(`${dataFile}.journal`, 'utf8').split('\n').length).toBeGreaterThanOrEqual(36);
    } finally {
      await killed(first.child);
    }
    // A write cut short by the kill: half a line at the end of the journal.
    appendFileSync(`${dataFile}.journal`, '{"links":{"put":[{"id":99999,"alias":"torn');
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const second = await startSandbox({ dataFile });
    try {
      expect(logged.mock.calls.flat().join('\n')).toMatch(/ignoring the torn last line of the journal/);
      const links = new Map(second.store.state.links.map((link) => [link.id, link]));
      expect(second.store.state.links.filter((link) => link.userId === 2)).toHaveLength(2025);
      made.forEach((link, index) => {
        expect(links.get(link.id)).toMatchObject({ url: `https://example.com/journal/${index}`, metatitle: `Journal ${index}` });
        expect(links.get(link.id)!.stats.clicks).toBe(index < 10 ? 1 : 0);
      });
      expect(links.has(99_999)).toBe(false);
    } finally {
      await second.close();
      logged.mockRestore();
    }
    // Closing folds the journal into the snapshot.
    expect(readFileSync(`${dataFile}.journal`, 'utf8').trim().split('\n')).toHaveLength(1);
    const third = await startSandbox({ dataFile });
    try {
      expect(third.store.state.links.filter((link) => link.userId === 2)).toHaveLength(2025);
    } finally {
      await third.close();
    }
  });
});
