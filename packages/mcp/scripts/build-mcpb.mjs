#!/usr/bin/env node
/**
 * Builds `linkshort-mcp.mcpb`, the one-click bundle for Claude Desktop: a zip of `manifest.json`
 * and `server/cli.js`, the built CLI (dist/cli.js, `npm run build` first), which has every dependency
 * bundled in (a bundle has no npm install).
 * Needs the `zip` command (Info-ZIP; on Windows, use WSL or `tar -a -c -f out.zip`).
 *
 *   npm run build:mcpb --workspace @linkshort/mcp      # writes packages/mcp/linkshort-mcp.mcpb
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const staging = join(root, "build", "mcpb");
const output = join(root, "linkshort-mcp.mcpb");

const manifest = JSON.parse(readFileSync(join(root, "manifest.json"), "utf8"));
const packageJson = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
if (manifest.version !== packageJson.version) throw new Error(`manifest.json version ${manifest.version} is not package.json's ${packageJson.version}`);

rmSync(staging, { recursive: true, force: true });
mkdirSync(join(staging, "server"), { recursive: true });
const cli = join(root, "dist", "cli.js");
if (!existsSync(cli)) throw new Error(`${cli} is not built: run npm run build --workspace @linkshort/mcp first`);
copyFileSync(cli, join(staging, "server", "cli.js"));
copyFileSync(join(root, "manifest.json"), join(staging, "manifest.json"));
rmSync(output, { force: true });
try {
  execFileSync("zip", ["-q", "-r", "-X", output, "manifest.json", "server"], { cwd: staging, stdio: "inherit" });
} catch (error) {
  throw new Error(`could not run zip (${error.code ?? error.message}): install Info-ZIP's zip, or zip ${staging} by hand into ${output}`);
}
process.stdout.write(`wrote ${output}\n`);
