// Writes this extension as a self-contained folder for the Raycast store, which installs and
// builds each extension alone from its own lockfile: the client's core is copied in as source,
// imports of @linkshort/client/core (and /charts, /values) point at that copy, and zod becomes a
// direct dependency.
// Usage: node scripts/store-package.mjs <folder> [--install]
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = join(dirname(fileURLToPath(import.meta.url)), '..');
const clientSource = join(here, '../packages/client/src');
const [target, ...flags] = process.argv.slice(2);
if (!target) {
  console.error('usage: node scripts/store-package.mjs <folder> [--install]');
  process.exit(2);
}
rmSync(target, { recursive: true, force: true });
mkdirSync(target, { recursive: true });
for (const entry of ['src', 'assets', 'metadata', 'README.md', 'CHANGELOG.md', 'tsconfig.json', 'eslint.config.js', '.prettierrc']) {
  cpSync(join(here, entry), join(target, entry), { recursive: true });
}
// In the monorepo the client resolves to its source through tsconfig paths; the store folder has
// its own copy (below), so the paths go.
const tsconfig = JSON.parse(readFileSync(join(target, 'tsconfig.json'), 'utf8'));
delete tsconfig.compilerOptions.paths;
writeFileSync(join(target, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);

// The client's core, as source (the Node-only entry, its undici transport and file store are left out).
const vendor = join(target, 'src/vendor/linkshort-client');
const nodeOnly = new Set(['index.ts', 'undici-transport.ts', 'link-index/file-store.ts'].map((file) => join(clientSource, file)));
cpSync(clientSource, vendor, { recursive: true, filter: (path) => !nodeOnly.has(path) });

function rewrite(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (path !== vendor) rewrite(path);
      continue;
    }
    if (!/\.tsx?$/.test(name)) continue;
    const text = readFileSync(path, 'utf8');
    // core is vendor/core.ts, charts vendor/charts/index.ts, values vendor/values.ts.
    const next = text.replaceAll(/"@linkshort\/client\/(core|charts|values)"/g, (_, entry) => {
      const specifier = relative(dirname(path), join(vendor, entry));
      return `"${specifier.startsWith('.') ? specifier : `./${specifier}`}"`;
    });
    if (next !== text) writeFileSync(path, next);
  }
}
rewrite(join(target, 'src'));
// The copied client, and files whose import of it got a longer path, are written in the extension's
// own style, as the store's prettier check expects: by the prettier the package installs, when it
// does (versions of prettier 3 lay out a long method chain differently), else by this repository's.
const prettierIn = (folder) => join(dirname(createRequire(join(folder, 'package.json')).resolve('prettier/package.json')), 'bin/prettier.cjs');
const writeInStyle = (prettier) => execFileSync(process.execPath, [prettier, '--write', '--log-level=warn', '--config', join(target, '.prettierrc'), join(target, 'src')]);
writeInStyle(prettierIn(here));

const manifest = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));
const clientManifest = JSON.parse(readFileSync(join(here, '../packages/client/package.json'), 'utf8'));
delete manifest.dependencies['@linkshort/client'];
manifest.dependencies.zod = clientManifest.dependencies.zod;
for (const dev of ['react-test-renderer', '@types/react-test-renderer']) delete manifest.devDependencies[dev];
manifest.scripts = { build: 'ray build -e dist', dev: 'ray develop', lint: 'ray lint', 'fix-lint': 'ray lint --fix', publish: 'npx @raycast/api@latest publish' };
writeFileSync(join(target, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
writeFileSync(join(target, '.gitignore'), 'node_modules\ndist\nraycast-env.d.ts\n');

if (flags.includes('--install')) {
  // Its own lockfile, as the store installs it.
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: target, stdio: 'inherit' });
  writeInStyle(prettierIn(target));
}
console.log(`store package written to ${target}${existsSync(join(target, 'package-lock.json')) ? ' (with its lockfile)' : ''}`);
