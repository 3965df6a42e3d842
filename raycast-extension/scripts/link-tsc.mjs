// `ray build` type-checks with ./node_modules/.bin/tsc; in the monorepo npm hoists TypeScript to
// the root, so point the local path at it (the standalone store folder installs its own).
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = join(dirname(fileURLToPath(import.meta.url)), '..');
const local = join(here, 'node_modules/.bin/tsc');
if (!existsSync(local)) {
  const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin/tsc');
  mkdirSync(dirname(local), { recursive: true });
  symlinkSync(tsc, local);
}
