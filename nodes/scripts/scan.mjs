// Runs n8n's verification scanner rules offline: over the source folder and over the files that
// `npm pack` would publish (unpacked), as the scanner does with a package fetched from the registry.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, renameSync, symlinkSync } from 'node:fs';
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
const packedFiles = execFileSync('tar', ['-tzf', join(work, tarball)])
	.toString()
	.trim()
	.split('\n')
	.map((name) => name.replace(/^package\//, ''));
console.log(`packed files: ${packedFiles.join(', ')}`);

// The tarball must load as n8n loads a community package: with nothing beside it but what n8n
// itself provides (n8n-workflow, luxon, zod). A node compiled file by file (`n8n-node build`)
// still requires @linkshort/client and fails here; only `npm run build` bundles it.
const isolated = join(work, 'isolated', 'node_modules');
mkdirSync(isolated, { recursive: true });
renameSync(packed, join(isolated, 'n8n-nodes-linkshort'));
const rootModules = join(root, '..', 'node_modules');
for (const provided of ['n8n-workflow', 'luxon', 'zod']) symlinkSync(join(rootModules, provided), join(isolated, provided));
const loader = `
const { dirname, join } = require('node:path');
const pkg = require('n8n-nodes-linkshort/package.json');
const base = dirname(require.resolve('n8n-nodes-linkshort/package.json'));
const loaded = {};
for (const entry of [...pkg.n8n.credentials, ...pkg.n8n.nodes]) {
	const exported = Object.values(require(join(base, entry)))[0];
	const instance = new exported();
	const icon = (instance.description ?? instance).icon;
	const icons = typeof icon === 'string' ? [icon] : Object.values(icon ?? {});
	loaded[entry] = { name: (instance.description ?? instance).name, icons: icons.map((i) => join(dirname(entry), i.replace(/^file:/, ''))) };
}
// Every file of the package the entries loaded (the chunk the node files share among them).
const files = Object.keys(require.cache).filter((file) => file.startsWith(base + '/')).map((file) => file.slice(base.length + 1));
console.log(JSON.stringify({ loaded, files }));
`;
let loaded;
let loadedFiles = [];
try {
	({ loaded, files: loadedFiles } = JSON.parse(
		execFileSync(process.execPath, ['-e', loader], { cwd: join(isolated, '..'), stdio: ['ignore', 'pipe', 'pipe'] }).toString(),
	));
	console.log(
		`packed package loads alone: ${Object.entries(loaded)
			.map(([entry, { name }]) => `${name} (${entry})`)
			.join(', ')}`,
	);
} catch (error) {
	failed = true;
	console.log(
		`packed package does NOT load alone (is dist from \`npm run build\`?): ${String(error.stderr ?? error)
			.split('\n')
			.find((line) => /Error/.test(line))}`,
	);
}

// What ships is exactly what n8n needs: each entry n8n loads and the files they load (the shared
// chunk), the codex file beside each node, the icons they name, and package.json, README.md,
// LICENSE. No sources, tests, maps or typings.
if (loaded) {
	const expected = new Set(['package.json', 'README.md', 'LICENSE', ...loadedFiles]);
	for (const [entry, { icons }] of Object.entries(loaded)) {
		expected.add(entry);
		if (entry.endsWith('.node.js')) expected.add(`${entry}on`);
		for (const icon of icons) expected.add(icon);
	}
	const missing = [...expected].filter((name) => !packedFiles.includes(name));
	const unexpected = packedFiles.filter((name) => !expected.has(name));
	if (missing.length > 0 || unexpected.length > 0) {
		failed = true;
		console.log(`packed file list is NOT as expected: missing ${missing.join(', ') || 'nothing'}; unexpected ${unexpected.join(', ') || 'nothing'}`);
	} else console.log(`packed file list is exactly what n8n needs (${packedFiles.length} files)`);
}
process.exit(failed ? 1 : 0);
