// Runs n8n's verification scanner rules offline: over the source folder and over the files that
// `npm pack` would publish (unpacked), as the scanner does with a package fetched from the registry.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzePackage, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(join(tmpdir(), 'linkshort-scan-'));
execFileSync('npm', ['pack', '--pack-destination', work, '--silent'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
execFileSync('tar', ['-xzf', join(work, tarball), '-C', work]);
const packed = join(work, 'package');

let failed = false;
for (const [label, dir, patterns] of [
	['source', root, SOURCE_FILE_PATTERNS],
	['packed tarball', packed, undefined],
]) {
	const result = await analyzePackage(dir, patterns);
	console.log(`scanner over the ${label}: ${result.passed ? 'passed' : `FAILED (${result.message})`}`);
	if (!result.passed) {
		failed = true;
		if (result.details) console.log(result.details);
	}
}
console.log(`packed files: ${execFileSync('tar', ['-tzf', join(work, tarball)]).toString().trim().split('\n').join(', ')}`);
process.exit(failed ? 1 : 0);
