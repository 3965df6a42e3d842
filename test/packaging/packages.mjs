// The public packages of the repository and a way to pack them as npm would publish them.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const root = resolve(import.meta.dirname, "..", "..");

/** Every package published to npm (the Raycast extension goes to the Raycast store instead). */
export const publicPackages = ["packages/client", "packages/sandbox", "packages/mcp", "nodes"].map((dir) => {
  const manifest = JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8"));
  return { dir, name: manifest.name, manifest };
});

/** `npm pack` of one package into `destination`; returns the tarball's path. */
export function pack(dir, destination) {
  const output = execFileSync("npm", ["pack", "--pack-destination", destination, "--json", "--loglevel", "error"], {
    cwd: join(root, dir),
    stdio: ["ignore", "pipe", "pipe"],
  }).toString();
  const [{ filename }] = JSON.parse(output);
  return join(destination, filename);
}

/** Counts checks and ends with the "<name>: N passed, N failed" line the test runner reads. */
export function createChecks(suiteName) {
  let passed = 0;
  let failed = 0;
  return {
    async check(label, run) {
      try {
        const detail = await run();
        passed += 1;
        console.log(`ok     ${label}${detail ? ` (${detail})` : ""}`);
      } catch (error) {
        failed += 1;
        console.log(`FAILED ${label}: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
    finish() {
      console.log(`${suiteName}: ${passed} passed, ${failed} failed`);
      process.exitCode = failed > 0 ? 1 : 0;
    },
  };
}
