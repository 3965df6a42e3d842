// Copies icons and codex files next to the built nodes, as n8n expects them.
import { cpSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
for (const node of readdirSync(join(root, 'nodes'))) {
	for (const file of readdirSync(join(root, 'nodes', node))) {
		if (/\.(svg|png|json)$/.test(file)) cpSync(join(root, 'nodes', node, file), join(root, 'dist', 'nodes', node, file));
	}
}
