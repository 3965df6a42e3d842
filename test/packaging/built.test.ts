/**
 * Suites that run built output say so when the build is older than its source
 * (test/support/built.cjs, called by scripts/run-tests.mjs and the helpers that load a build).
 */
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { staleBuilds } from "../support/built.cjs";

/** A file at `path` below `root`, last changed `at` (epoch seconds). */
function file(root: string, path: string, at: number): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), "");
  utimesSync(join(root, path), at, at);
}

const BUILT = Date.UTC(2026, 10, 26, 7, 0) / 1000;

describe("staleBuilds", () => {
  it("names the package, its build folder and the source file changed after the build", () => {
    const root = mkdtempSync(join(tmpdir(), "linkshort-built-"));
    file(root, "packages/mcp/dist/cli.js", BUILT);
    file(root, "packages/mcp/src/server.ts", BUILT - 60);
    file(root, "packages/mcp/src/tools/links.ts", BUILT + 90);
    expect(staleBuilds(["mcp"], root)).toEqual([
      "@linkshort/mcp's build (packages/mcp/dist, 2026-11-26 07:00:00 UTC) is older than its source (packages/mcp/src/tools/links.ts, 2026-11-26 07:01:30 UTC): tests of the build run the old code; run `npm run build`",
    ]);
  });

  it("says nothing of a build newer than every file of its source", () => {
    const root = mkdtempSync(join(tmpdir(), "linkshort-built-"));
    file(root, "packages/mcp/dist/cli.js", BUILT);
    file(root, "packages/mcp/src/server.ts", BUILT - 60);
    expect(staleBuilds(["mcp"], root)).toEqual([]);
  });

  it("counts the client's source for the n8n node, whose build bundles it", () => {
    const root = mkdtempSync(join(tmpdir(), "linkshort-built-"));
    file(root, "nodes/dist/nodes/LinkShort/LinkShort.node.js", BUILT);
    file(root, "nodes/nodes/LinkShort/LinkShort.node.ts", BUILT - 60);
    file(root, "packages/client/src/http.ts", BUILT + 1);
    expect(staleBuilds(["nodes"], root)).toEqual([expect.stringMatching(/^n8n-nodes-linkshort's build \(nodes\/dist, .*\(packages\/client\/src\/http\.ts, /)]);
  });

  it("counts the client's source for the MCP server, whose CLI bundles it", () => {
    const root = mkdtempSync(join(tmpdir(), "linkshort-built-"));
    file(root, "packages/mcp/dist/cli.js", BUILT);
    file(root, "packages/mcp/src/server.ts", BUILT - 60);
    file(root, "packages/client/src/http.ts", BUILT + 1);
    expect(staleBuilds(["mcp"], root)).toEqual([
      expect.stringMatching(/^@linkshort\/mcp's build \(packages\/mcp\/dist, .*\(packages\/client\/src\/http\.ts, /),
    ]);
  });

  it("names a package that is not built at all", () => {
    const root = mkdtempSync(join(tmpdir(), "linkshort-built-"));
    file(root, "packages/sandbox/src/server.ts", BUILT);
    expect(staleBuilds(["sandbox"], root)).toEqual(["@linkshort/sandbox is not built (no packages/sandbox/dist): run `npm run build`"]);
  });
});
