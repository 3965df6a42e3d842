/**
 * n8n's own developer commands in nodes/: `n8n-node build` and `n8n-node dev` run plain `tsc` with
 * nodes/tsconfig.json. They must compile the node into nodes/dist (the entries package.json's
 * "n8n" field names, with codex files and icons) and write nothing anywhere else: not beside the
 * sources, not into packages/client/src.
 *
 * They run in a copy of the repository's relevant parts (root package.json and tsconfig.base.json,
 * nodes/, packages/client with its build), with node_modules linked to the real one, so that the
 * shared nodes/dist other tests use is left alone and every file the commands write is seen.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '../..');
const N8N_NODE = join(ROOT, 'node_modules/@n8n/node-cli/bin/n8n-node.mjs');
const COMMAND_TIMEOUT_MS = 240_000;

interface N8nPackage {
  n8n: { nodes: string[]; credentials: string[] };
}

function copyRepository(): string {
  for (const built of ['core.js', 'core.d.ts']) {
    if (!existsSync(join(ROOT, 'packages/client/dist', built))) {
      throw new Error(`packages/client/dist/${built} is missing: build the client first (npm run build)`);
    }
  }
  const copy = mkdtempSync(join(tmpdir(), 'linkshort-n8n-node-'));
  for (const file of ['package.json', 'tsconfig.base.json']) cpSync(join(ROOT, file), join(copy, file));
  cpSync(join(ROOT, 'nodes'), join(copy, 'nodes'), {
    recursive: true,
    filter: (source) => !['dist', 'node_modules'].includes(relative(join(ROOT, 'nodes'), source).split('/')[0] ?? ''),
  });
  for (const part of ['package.json', 'src', 'dist']) {
    cpSync(join(ROOT, 'packages/client', part), join(copy, 'packages/client', part), { recursive: true });
  }
  mkdirSync(join(copy, 'node_modules/@linkshort'), { recursive: true });
  for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
    if (entry !== '@linkshort') symlinkSync(join(ROOT, 'node_modules', entry), join(copy, 'node_modules', entry));
  }
  symlinkSync('../../packages/client', join(copy, 'node_modules/@linkshort/client'));
  return copy;
}

/** Every file of the copy outside node_modules, with its size and modification time. */
function snapshot(copy: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.name === 'node_modules' || entry.isSymbolicLink()) continue;
      if (entry.isDirectory()) walk(path);
      else {
        const stat = statSync(path);
        files.set(relative(copy, path), `${stat.size}:${stat.mtimeMs}`);
      }
    }
  };
  walk(copy);
  return files;
}

/** Files added or changed since `before`. */
function written(copy: string, before: Map<string, string>): string[] {
  return [...snapshot(copy)].filter(([path, stamp]) => before.get(path) !== stamp).map(([path]) => path);
}

/** Loads each n8n entry as n8n does (a plain require, outside jest) and returns its name. */
function loadEntries(packageDir: string): Record<string, string> {
  const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as N8nPackage;
  const entries = [...pkg.n8n.credentials, ...pkg.n8n.nodes];
  const script = `
		const loaded = {};
		for (const entry of ${JSON.stringify(entries)}) {
			const exported = Object.values(require(require('node:path').join(${JSON.stringify(packageDir)}, entry)))[0];
			const instance = new exported();
			loaded[entry] = (instance.description ?? instance).name;
		}
		console.log(JSON.stringify(loaded));`;
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`loading the n8n entries failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as Record<string, string>;
}

const EXPECTED_ENTRIES = {
  'dist/credentials/LinkShortApi.credentials.js': 'linkShortApi',
  'dist/nodes/LinkShort/LinkShort.node.js': 'linkShort',
  'dist/nodes/LinkShortTrigger/LinkShortTrigger.node.js': 'linkShortTrigger',
};
const EXPECTED_ASSETS = [
  'dist/nodes/LinkShort/LinkShort.node.json',
  'dist/nodes/LinkShortTrigger/LinkShortTrigger.node.json',
  'dist/nodes/LinkShort/linkshort.svg',
  'dist/nodes/LinkShort/linkshort.dark.svg',
];

function stripAnsi(text: string): string {
  return text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
}

describe('nodes/tsconfig.json', () => {
  test("sends editors and tools from @linkshort/client/core to the client's source, as the bundle does", () => {
    const configPath = join(ROOT, 'nodes/tsconfig.json');
    const config = ts.getParsedCommandLineOfConfigFile(configPath, undefined, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
    if (!config) throw new Error('nodes/tsconfig.json did not parse');
    const from = join(ROOT, 'nodes/nodes/LinkShort/LinkShort.node.ts');
    const resolved = ts.resolveModuleName('@linkshort/client/core', from, config.options, ts.sys).resolvedModule?.resolvedFileName;
    expect(relative(ROOT, resolved ?? '')).toBe('packages/client/src/core.ts');
    // That source belongs to a referenced project, so plain tsc types it from the built declarations and compiles none of it.
    expect(config.projectReferences?.map((reference) => relative(ROOT, reference.path))).toEqual(['nodes/tsconfig.client-core.json']);
  });
});

describe("n8n's developer commands in nodes/", () => {
  let copy: string;
  beforeAll(() => {
    copy = copyRepository();
  });
  afterAll(() => {
    rmSync(copy, { recursive: true, force: true });
  });

  test(
    'n8n-node build compiles into nodes/dist only: the entries n8n loads, codex files and icons',
    () => {
      const before = snapshot(copy);
      const run = spawnSync(process.execPath, [N8N_NODE, 'build'], { cwd: join(copy, 'nodes'), encoding: 'utf8' });
      expect({ status: run.status, output: run.status === 0 ? '' : stripAnsi(run.stdout + run.stderr) }).toEqual({ status: 0, output: '' });

      const changed = written(copy, before);
      expect(changed.filter((path) => !path.startsWith('nodes/dist/'))).toEqual([]);
      for (const file of [...Object.keys(EXPECTED_ENTRIES), ...EXPECTED_ASSETS]) {
        expect(changed).toContain(`nodes/${file}`);
      }
      expect(changed.filter((path) => /\.(ts|map)$/.test(path))).toEqual([]);
      expect(loadEntries(join(copy, 'nodes'))).toEqual(EXPECTED_ENTRIES);
    },
    COMMAND_TIMEOUT_MS,
  );

  test(
    'n8n-node dev links the package into its user folder and compiles it in watch mode',
    async () => {
      rmSync(join(copy, 'nodes/dist'), { recursive: true, force: true });
      const userFolder = join(copy, 'n8n-user');
      mkdirSync(userFolder);
      const before = snapshot(copy);
      // --external-n8n: n8n itself is not started (it would be fetched as n8n@latest); the
      // package's side of the loop is what is checked: the link and the watching compiler.
      const dev = spawn(process.execPath, [N8N_NODE, 'dev', '--external-n8n', '--custom-user-folder', userFolder], {
        cwd: join(copy, 'nodes'),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      const exited = new Promise<number | null>((done) => dev.on('exit', (code) => done(code)));
      dev.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      dev.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const compiled = new Promise<boolean>((done) => {
        const check = (): void => {
          if (/Found \d+ errors?\. Watching for file changes/.test(stripAnsi(output))) done(true);
        };
        dev.stdout.on('data', check);
        void exited.then(() => done(false));
      });
      try {
        expect(await compiled).toBe(true);
      } finally {
        if (dev.exitCode === null) {
          // n8n-node dev stops its compiler when it gets SIGTERM.
          dev.kill('SIGTERM');
          await exited;
        }
      }
      expect(stripAnsi(output)).toMatch(/Found 0 errors\. Watching for file changes/);

      const linked = join(userFolder, '.n8n/custom/node_modules/n8n-nodes-linkshort');
      expect(resolve(join(linked, '..'), readlinkSync(linked))).toBe(join(copy, 'nodes'));
      expect(loadEntries(linked)).toEqual(EXPECTED_ENTRIES);
      for (const asset of EXPECTED_ASSETS) expect(existsSync(join(linked, asset))).toBe(true);
      expect(written(copy, before).filter((path) => !path.startsWith('nodes/dist/'))).toEqual([]);
    },
    COMMAND_TIMEOUT_MS,
  );
});
