// CI check: the store package installs from its own lockfile, outside the monorepo, and passes
// what `ray lint` runs offline (eslint, prettier, tsc) and `ray build`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(join(tmpdir(), 'linkshort-store-'));
const folder = join(work, 'linkshort');
const run = (command, args) => execFileSync(command, args, { cwd: folder, stdio: 'inherit' });
try {
  execFileSync(process.execPath, [join(here, 'scripts/store-package.mjs'), folder, '--install'], { stdio: 'inherit' });
  run('npx', ['ray', 'build', '-e', 'dist', '-o', 'dist', '-I']);
  run('npx', ['eslint', 'src']);
  run('npx', ['prettier', '--check', 'src', '--ignore-path', '.gitignore']);
  run('npx', ['tsc', '--noEmit']);
  console.log('store package: installs alone and builds');
} finally {
  rmSync(work, { recursive: true, force: true });
}
