// `npm start`: builds what is missing, starts the sandbox with demo data, prints its address and
// keys, and shows one round trip with the client; then starts a local n8n (installed on first run)
// with the LinkShort nodes, a credential for the sandbox, the example workflows and an owner
// account. `--sandbox-only` skips n8n; `--once` stops after the round trip. `--queue` runs n8n in
// queue mode instead: Redis, Postgres, one main instance and two workers (see README, Scaling out).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { phase } from "./progress.mjs";
import { demoVisitHeaders } from "./demo-visits.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: {
    port: { type: "string", default: "8787" },
    once: { type: "boolean", default: false },
    "sandbox-only": { type: "boolean", default: false },
    queue: { type: "boolean", default: false },
  },
});

/** Runs a command quietly; on failure prints the end of its output and stops. */
function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const keep = (chunk) => (output = (output + chunk).slice(-20_000));
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("exit", (code) => {
      if (code === 0) return resolve();
      console.error(`\n\`${command} ${args.join(" ")}\` failed (exit ${code}):\n${output}`);
      process.exit(code ?? 1);
    });
  });
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

// What `npm run build` makes, each from its sources: built again only when a source is newer.
const builds = [
  ["packages/client/src", "packages/client/dist"],
  ["packages/sandbox/src", "packages/sandbox/dist"],
  ["packages/mcp/src", "packages/mcp/dist"],
  ["nodes/nodes", "nodes/dist"],
  ["nodes/credentials", "nodes/dist"],
];
const needsBuild = () =>
  builds.some(([src, dist]) => existsSync(join(root, src)) && (!existsSync(join(root, dist)) || newestMtime(join(root, src)) > newestMtime(join(root, dist))));

const withN8n = !values["sandbox-only"] && !values.once;
const n8nHarness = await import("../test/n8n/n8n.mjs");
// n8n's first install takes minutes: it starts at once, in the background, while the rest is prepared.
let n8nStep = "Installing n8n";
const n8nStartedAt = Date.now();
const n8nInstall = withN8n && !n8nHarness.n8nInstalled() ? n8nHarness.ensureN8n({ quiet: true, onStep: (title) => (n8nStep = title) }) : undefined;
n8nInstall?.catch(() => {}); // reported where it is awaited
const next = (what) => (withN8n ? what : values.once ? "the round trip" : "the sandbox");

if (!existsSync(join(root, "node_modules"))) {
  await phase("Installing dependencies (npm ci)", next("building"), () => run("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"]));
}
if (needsBuild()) {
  await phase("Building the client, the sandbox, the MCP server and the n8n nodes", next("the sandbox demo"), () => run("npm", ["run", "build"]));
}

const require = createRequire(import.meta.url);
const { startSandbox, demoWeekVisits } = require(join(root, "packages/sandbox/dist/index.js"));
const { LinkShortClient } = require(join(root, "packages/client/dist/index.js"));

// The sandbox's clock: the real one, except while the demo's week of visits is replayed.
let replayingAt;
const sandbox = await startSandbox({ port: Number(values.port), seed: "demo", now: () => replayingAt ?? Date.now() });
const replayStarted = Date.now();
const week = demoWeekVisits(replayStarted);
for (const visit of week) {
  replayingAt = visit.at;
  const answer = await fetch(`${sandbox.baseUrl}/${visit.alias}`, { redirect: "manual", headers: demoVisitHeaders(visit) });
  await answer.arrayBuffer();
}
replayingAt = undefined;
console.log(`
linkshort sandbox (deployed mode) at ${sandbox.baseUrl}
  replayed a week of ${week.length} clicks on the demo links in ${((Date.now() - replayStarted) / 1000).toFixed(1)} s (each at its time on the sandbox's clock)
  open ${sandbox.baseUrl}/ in a browser: the demo account's links and QR codes with their clicks as charts, and each link's last 7 days
  admin API key: ${sandbox.adminKey}
  user API key:  ${sandbox.userKey}
`);

// The MCP server's configuration for an AI assistant (Claude Desktop, Cursor, ...), pointing at this sandbox.
const mcpConfig = {
  mcpServers: {
    linkshort: {
      command: "node",
      args: [join(root, "packages/mcp/dist/cli.js")],
      env: { LINKSHORT_BASE_URL: sandbox.baseUrl, LINKSHORT_API_KEY: sandbox.userKey },
    },
  },
};
console.log(`MCP server for AI assistants (README, "Use with an AI assistant"): add to the assistant's MCP configuration
${JSON.stringify(mcpConfig, null, 2)}
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
if (!values["sandbox-only"] && !values.once) n8n = values.queue ? await startQueueN8n(sandbox) : await startLocalN8n(sandbox);

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

/**
 * The example workflows as imported by `npm start`: their Slack messages go to SLACK_WEBHOOK_URL when
 * set (a real Slack incoming webhook), otherwise to a local stand-in that prints each message here.
 */
async function demoExamples(userFolder) {
  const { examplesPointedAt, startSlackStandIn } = await import("./slack-stand-in.mjs");
  const real = process.env.SLACK_WEBHOOK_URL;
  const slackUrl = real ?? (await startSlackStandIn({ print: true })).url;
  const examples = examplesPointedAt(join(root, "nodes/examples"), join(userFolder, "examples"), slackUrl);
  // The form example's e-mail and the AI Agent example's model go to local stand-ins: their credentials point there.
  const { standInCredentials, startChatModelStandIn, startSmtpCatcher } = await import("./stand-ins.mjs");
  const smtp = await startSmtpCatcher({ print: true });
  const model = await startChatModelStandIn();
  const standIns = standInCredentials(smtp, model);
  const slackNote = real
    ? "the Slack examples post to SLACK_WEBHOOK_URL"
    : `the Slack examples post to a local stand-in (${slackUrl}) that prints each message here; set SLACK_WEBHOOK_URL to a Slack incoming webhook to post to Slack`;
  const standInNote = `e-mails of "Shorten a link from a form and e-mail it" go to a local SMTP stand-in (${smtp.host}:${smtp.port}) that prints each one here; the AI Agent example's "OpenAI account" is a local stand-in model (${model.url}) with scripted answers: give it your own key and leave Base URL empty to use OpenAI`;
  return { examples, slackNote, standIns, standInNote };
}

/** The file `import:credentials` reads: the LinkShort credential for the sandbox and the stand-ins' (SMTP, the model). */
function demoCredentials(userFolder, sandbox, standIns) {
  const file = n8nHarness.writeLinkShortCredentials(join(userFolder, "linkshort-credential.json"), [
    n8nHarness.exampleAccount(sandbox.baseUrl, sandbox.userKey),
  ]);
  writeFileSync(file, JSON.stringify([...JSON.parse(readFileSync(file, "utf8")), ...standIns]));
  return file;
}

/** The examples published at start, so that they answer at once: the JSON webhook and the form. */
const publishedExamples = (examples) =>
  ["shorten-links-by-webhook.json", "shorten-form-links-and-email-them.json"].map((file) => JSON.parse(readFileSync(join(examples, file), "utf8")).id);

/** A local n8n with the node package, a credential pointing at the sandbox and the example workflows. */
async function startLocalN8n(sandbox) {
  const { installNodePackage, n8nCli, ownerSession, startN8n } = n8nHarness;
  const port = Number(process.env.N8N_PORT ?? 5678);
  const owner = { email: "owner@linkshort.local", firstName: "Link", lastName: "Short", password: "Linkshort-demo-1" };
  if (n8nInstall)
    await phase(
      () => n8nStep,
      "starting n8n",
      () => n8nInstall,
      { startedAt: n8nStartedAt },
    );
  const userFolder = join(root, ".cache/n8n-user");
  mkdirSync(userFolder, { recursive: true });
  const { examples, slackNote, standIns, standInNote } = await demoExamples(userFolder);
  await phase("Installing the LinkShort nodes, the credential and the example workflows into n8n", "starting n8n", async () => {
    installNodePackage(userFolder);
    // The credentials are written again at every start: the sandbox's keys and the stand-ins' ports are new each time.
    const credentials = demoCredentials(userFolder, sandbox, standIns);
    await n8nCli(userFolder, port, ["import:credentials", `--input=${credentials}`]);
    // One n8n command for the whole folder: each command starts n8n anew (about 10 to 25 s here).
    await n8nCli(userFolder, port, ["import:workflow", "--separate", `--input=${examples}`]);
    for (const id of publishedExamples(examples)) await n8nCli(userFolder, port, ["publish:workflow", `--id=${id}`]);
  });
  const n8n = await phase("Starting n8n", undefined, () => startN8n(userFolder, port));
  await ownerSession(n8n.url, owner);
  console.log(`
n8n is running at ${n8n.url}
  log in as ${owner.email} / ${owner.password}
  the LinkShort nodes are installed; the credential "LinkShort account" points at the sandbox;
  the example workflows are imported; "Shorten links by webhook (JSON)" and "Shorten a link from a form and e-mail it" are active:
    curl -s -X POST ${n8n.url}/webhook/shorten -H 'content-type: application/json' -d '{"url":"https://n8n.io"}'
    open ${n8n.url}/form/shorten-a-link
  ${slackNote}
  ${standInNote}
`);
  return n8n;
}

/** The same demo in n8n's queue mode: Redis, Postgres, one main instance and two workers, data kept in .cache/n8n-queue. */
async function startQueueN8n(sandbox) {
  const { installNodePackage, ownerSession } = n8nHarness;
  const { startQueueStack } = await import("../test/n8n/queue-stack.mjs");
  const owner = { email: "owner@linkshort.local", firstName: "Link", lastName: "Short", password: "Linkshort-demo-1" };
  if (n8nInstall)
    await phase(
      () => n8nStep,
      "starting n8n in queue mode",
      () => n8nInstall,
      { startedAt: n8nStartedAt },
    );
  const dir = join(root, ".cache/n8n-queue");
  const userFolder = join(dir, "n8n");
  mkdirSync(userFolder, { recursive: true });
  const { examples, slackNote, standIns, standInNote } = await demoExamples(userFolder);
  const stack = await phase("Starting Redis, Postgres, n8n main and two workers (queue mode)", undefined, async () => {
    installNodePackage(userFolder);
    return startQueueStack({
      dir,
      userFolder,
      mainPort: Number(process.env.N8N_PORT ?? 5678),
      logLevel: "warn",
      prepare: async (cli) => {
        // The credentials are written again at every start: the sandbox's keys and the stand-ins' ports are new each time.
        await cli(["import:credentials", `--input=${demoCredentials(userFolder, sandbox, standIns)}`]);
        await cli(["import:workflow", "--separate", `--input=${examples}`]);
        // Workflows are published before main starts: publish:workflow has no effect on a running main.
        for (const id of publishedExamples(examples)) await cli(["publish:workflow", `--id=${id}`]);
      },
    });
  });
  await ownerSession(stack.url, owner);
  const { host, port, user, password, database } = stack.database;
  console.log(`
n8n is running in queue mode at ${stack.url} (main: editor, triggers, webhooks)
  workers:  ${stack.workers.map((worker) => `${worker.name} (health ${worker.healthUrl})`).join(", ")}
  Redis:    ${stack.redis.host}:${stack.redis.port}
  Postgres: postgres://${user}:${password}@${host}:${port}/${database}
  data:     ${dir}
  log in as ${owner.email} / ${owner.password}
  the LinkShort nodes are installed; the credential "LinkShort account" points at the sandbox;
  the example workflows are imported; "Shorten links by webhook (JSON)" and "Shorten a link from a form and e-mail it" are active (their executions run on the workers):
    curl -s -X POST ${stack.url}/webhook/shorten -H 'content-type: application/json' -d '{"url":"https://n8n.io"}'
    open ${stack.url}/form/shorten-a-link
  ${slackNote}
  ${standInNote}
`);
  return stack;
}
