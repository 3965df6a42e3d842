// Publishes each public package whose version in package.json is not on npm yet, with npm
// provenance, in dependency order (the client first), and tags it `<name>@<version>`.
// Run by .github/workflows/release.yml (as the `publish` command of changesets/action, which pushes
// the tags and opens a GitHub release for each "New tag:" line). `--dry-run` only says what it would do.
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..", "..");
const dryRun = process.argv.includes("--dry-run");
const PUBLIC_PACKAGES = ["packages/client", "packages/sandbox", "packages/mcp", "nodes"];

function isOnNpm(name, version) {
  const view = spawnSync("npm", ["view", `${name}@${version}`, "version", "--json"], { cwd: root, encoding: "utf8" });
  if (view.status === 0) return view.stdout.trim() !== "";
  if (/E404|404 Not Found/.test(view.stderr)) return false;
  throw new Error(`npm view ${name}@${version} failed: ${view.stderr.trim().split("\n").slice(-3).join(" ")}`);
}

for (const dir of PUBLIC_PACKAGES) {
  const { name, version, private: isPrivate } = JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8"));
  if (isPrivate) throw new Error(`${dir}/package.json is private but listed as public`);
  if (isOnNpm(name, version)) {
    console.log(`${name}@${version} is on npm already`);
    continue;
  }
  if (dryRun) {
    console.log(`would publish ${name}@${version} from ${dir}`);
    continue;
  }
  execFileSync("npm", ["publish", "--provenance", "--access", "public"], { cwd: join(root, dir), stdio: "inherit" });
  execFileSync("git", ["tag", `${name}@${version}`], { cwd: root, stdio: "inherit" });
  // The line changesets/action reads to push the tag and write a GitHub release.
  console.log(`New tag: ${name}@${version}`);
}
