// `npm start`: builds what is missing, starts the sandbox with demo data, prints its address and
// keys, and shows one round trip with the client; then starts a local n8n (installed on first run)
// with the LinkShort nodes, a credential for the sandbox, the example workflows and an owner
// account. `--sandbox-only` skips n8n; `--once` stops after the round trip.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: {
    port: { type: "string", default: "8787" },
    once: { type: "boolean", default: false },
    "sandbox-only": { type: "boolean", default: false },
  },
});

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) {
    console.error(`\`${command} ${args.join(" ")}\` failed`);
    process.exit(result.status ?? 1);
  }
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const needsBuild = (pkg) => {
  const dist = join(root, "packages", pkg, "dist");
  return !existsSync(dist) || newestMtime(join(root, "packages", pkg, "src")) > newestMtime(dist);
};

if (!existsSync(join(root, "node_modules"))) {
  console.log("Installing dependencies...");
  // As in .ci/run: npm ci, or npm install where a registry mirror trimmed the lockfile's optional binaries.
  const ci = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: root, stdio: "inherit" });
  if (ci.status !== 0) run("npm", ["install", "--no-audit", "--no-fund"]);
}
if (needsBuild("client") || needsBuild("sandbox")) {
  console.log("Building @linkshort/client and @linkshort/sandbox...");
  run("npm", ["run", "build"]);
}

const require = createRequire(import.meta.url);
const { startSandbox } = require(join(root, "packages/sandbox/dist/index.js"));
const { LinkShortClient } = require(join(root, "packages/client/dist/index.js"));

const sandbox = await startSandbox({ port: Number(values.port), seed: "demo" });
console.log(`
linkshort sandbox (deployed mode) at ${sandbox.baseUrl}
  admin API key: ${sandbox.adminKey}
  user API key:  ${sandbox.userKey}
`);

const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey });
const account = await client.account.get();
const created = await client.links.create({ url: "https://github.com/n8n-io/n8n", metatitle: "n8n on GitHub" });
const visit = await fetch(created.shorturl, { redirect: "manual", headers: { "CF-IPCountry": "CA" } });
const { stats } = await client.links.get(created.id);
const top = [];
for await (const link of client.links.list({ order: "click", limit: 3 })) {
  top.push(`${link.shorturl} (${link.clicks} clicks)`);
  if (top.length === 3) break;
}
console.log(`One round trip with @linkshort/client, as ${account.username}:
  shortened https://github.com/n8n-io/n8n -> ${created.shorturl}
  visiting it answered ${visit.status} -> ${visit.headers.get("location")}
  its statistics now: ${stats.clicks} click, countries ${JSON.stringify(stats.topCountries)}
  most clicked: ${top.join(", ")}
`);

let n8n;
if (!values["sandbox-only"] && !values.once) n8n = await startLocalN8n(sandbox);

if (values.once) {
  await sandbox.close();
} else {
  console.log("Press Ctrl+C to stop.");
  const stop = async () => {
    await n8n?.stop();
    await sandbox.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

/** A local n8n with the node package, a credential pointing at the sandbox and the example workflows. */
async function startLocalN8n(sandbox) {
  const { ensureN8n, installNodePackage, n8nCli, ownerSession, startN8n } = await import("../test/n8n/n8n.mjs");
  const port = Number(process.env.N8N_PORT ?? 5678);
  const owner = { email: "owner@linkshort.local", firstName: "Link", lastName: "Short", password: "Linkshort-demo-1" };
  await ensureN8n();
  const userFolder = join(root, ".cache/n8n-user");
  mkdirSync(userFolder, { recursive: true });
  installNodePackage(userFolder);
  // The credential is written again at every start: the sandbox's keys are new each time.
  const credentials = join(userFolder, "linkshort-credential.json");
  writeFileSync(credentials, JSON.stringify([{ id: "linkshortAccount", name: "LinkShort account", type: "linkShortApi", data: { baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey } }]));
  await n8nCli(userFolder, port, ["import:credentials", `--input=${credentials}`]);
  const examples = join(root, "nodes/examples");
  for (const file of readdirSync(examples).filter((name) => name.endsWith(".json"))) {
    await n8nCli(userFolder, port, ["import:workflow", `--input=${join(examples, file)}`]);
  }
  const form = JSON.parse(readFileSync(join(examples, "shorten-links-from-a-form.json"), "utf8"));
  await n8nCli(userFolder, port, ["publish:workflow", `--id=${form.id}`]);
  console.log("Starting n8n...");
  const n8n = await startN8n(userFolder, port);
  await ownerSession(n8n.url, owner);
  console.log(`
n8n is running at ${n8n.url}
  log in as ${owner.email} / ${owner.password}
  the LinkShort nodes are installed; the credential "LinkShort account" points at the sandbox;
  the example workflows are imported, and "Shorten links from a form" is active:
    curl -s -X POST ${n8n.url}/webhook/shorten -H 'content-type: application/json' -d '{"url":"https://n8n.io"}'
`);
  return n8n;
}
