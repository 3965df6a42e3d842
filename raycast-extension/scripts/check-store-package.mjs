// CI check: the store package installs from its own lockfile, outside the monorepo, and passes
// what `ray lint` runs offline (eslint, prettier, tsc) and `ray build`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(join(tmpdir(), 'linkshort-store-'));
const folder = join(work, 'linkshort');
const run = (command, args) => execFileSync(command, args, { cwd: folder, stdio: 'inherit' });
try {
  execFileSync(process.execPath, [join(here, 'scripts/store-package.mjs'), folder, '--install'], { stdio: 'inherit' });
  // The store's conventions: the template's scripts, no monorepo development notes, a metadata folder.
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
  for (const script of ['build', 'dev', 'lint', 'fix-lint', 'publish']) {
    if (!manifest.scripts[script]) throw new Error(`store package: no "${script}" script`);
  }
  if (/monorepo|workspace/i.test(readFileSync(join(folder, 'README.md'), 'utf8'))) throw new Error('store package: the README speaks of the monorepo');
  if (!existsSync(join(folder, 'metadata'))) throw new Error('store package: no metadata folder');
  run('npx', ['ray', 'build', '-e', 'dist', '-o', 'dist', '-I']);
  run('npx', ['eslint', 'src']);
  run('npx', ['prettier', '--check', 'src', '--ignore-path', '.gitignore']);
  run('npx', ['tsc', '--noEmit']);
  console.log('store package: installs alone and builds');
} finally {
  rmSync(work, { recursive: true, force: true });
}
