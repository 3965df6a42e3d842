// Whether a package's build is older than its source: suites that run built output (the MCP
// server's CLI, the n8n node's dist, the sandbox's CLI) test the old code until `npm run build`.
// Checked by file times alone (a few hundred stats), so every run can afford it: by
// scripts/run-tests.mjs before the suites and by the test helpers that load a build.
'use strict';
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join, relative } = require('node:path');

const ROOT = join(__dirname, '../..');

/** Each build the tests load, and the sources it is made from (a bundled client included). */
const BUILDS = {
  client: { name: '@linkshort/client', dist: 'packages/client/dist', sources: ['packages/client/src'] },
  sandbox: { name: '@linkshort/sandbox', dist: 'packages/sandbox/dist', sources: ['packages/sandbox/src'] },
  mcp: { name: '@linkshort/mcp', dist: 'packages/mcp/dist', sources: ['packages/mcp/src', 'packages/client/src'] },
  nodes: { name: 'n8n-nodes-linkshort', dist: 'nodes/dist', sources: ['nodes/nodes', 'nodes/credentials', 'packages/client/src'] },
};

/** The newest file below `folder` whose name `wanted` accepts, as `{ path, mtimeMs }`, or undefined. */
function newestFile(folder, wanted) {
  let newest;
  if (!existsSync(folder)) return newest;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    const found = entry.isDirectory() ? newestFile(path, wanted) : wanted(entry.name) ? { path, mtimeMs: statSync(path).mtimeMs } : undefined;
    if (found && (!newest || found.mtimeMs > newest.mtimeMs)) newest = found;
  }
  return newest;
}

const clock = (mtimeMs) => new Date(mtimeMs).toISOString().slice(0, 19).replace('T', ' ');

/**
 * A sentence for each build among `keys` (all by default) that is missing or older than a file of
 * its source, naming the package, the build's folder and the newer source file; none when all are
 * up to date.
 */
function staleBuilds(keys = Object.keys(BUILDS), root = ROOT) {
  return keys.flatMap((key) => {
    const build = BUILDS[key];
    if (!build) throw new Error(`no build called ${key}: ${Object.keys(BUILDS).join(', ')}`);
    const built = newestFile(join(root, build.dist), (name) => name.endsWith('.js'));
    if (!built) return [`${build.name} is not built (no ${build.dist}): run \`npm run build\``];
    const sources = build.sources
      .map((folder) => newestFile(join(root, folder), (name) => /\.(ts|tsx|json)$/.test(name)))
      .filter((found) => found !== undefined);
    const newest = sources.sort((a, b) => b.mtimeMs - a.mtimeMs)[0];
    if (!newest || newest.mtimeMs <= built.mtimeMs) return [];
    return [
      `${build.name}'s build (${build.dist}, ${clock(built.mtimeMs)} UTC) is older than its source ` +
        `(${relative(root, newest.path)}, ${clock(newest.mtimeMs)} UTC): tests of the build run the old code; run \`npm run build\``,
    ];
  });
}

/** Warns (console.warn) once for each stale build among `keys`; answers whether there was any. */
function warnIfStale(keys) {
  const stale = staleBuilds(keys);
  for (const sentence of stale) console.warn(`warning: ${sentence}`);
  return stale.length > 0;
}

module.exports = { BUILDS, staleBuilds, warnIfStale };
