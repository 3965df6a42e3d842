// What someone outside the repository gets: `npm pack` of the client, the sandbox and the MCP
// server, installed together into an empty folder (third-party dependencies from the registry),
// then used only through what was installed: `npx linkshort-sandbox` serves the API,
// `npx linkshort-mcp` answers initialize, tools/list and get_account over stdio against it, and
// an ES module and a CommonJS script import the client and call the sandbox.
// Run by scripts/run-tests.mjs ("packed tarballs").
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { createChecks, pack } from "./packages.mjs";

const STEP_DEADLINE_MS = 30_000;
const checks = createChecks("packed tarballs");
const work = mkdtempSync(join(tmpdir(), "linkshort-tarballs-"));
const app = join(work, "app");
const started = [];

/** Starts a command of the installed app in its own process group (npx starts the bin as a child). */
function startInApp(args, env = {}) {
  const child = spawn("npx", ["--no", "--", ...args], {
    cwd: app,
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  });
  started.push(child);
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    if (stderr.length < 4096) stderr += chunk;
  });
  child.stderrText = () => stderr.replace(/^npm warn .*\n?/gm, "").trim();
  return child;
}

function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    // already gone
  }
}

/** Resolves with the first stdout line `accept` returns a value for, or rejects at the deadline. */
function waitForLine(child, label, accept) {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    const timer = setTimeout(() => finish(new Error(`${label}: no answer within ${STEP_DEADLINE_MS / 1000} s ${child.stderrText()}`)), STEP_DEADLINE_MS);
    const onExit = (code) => finish(new Error(`${label}: exited (${code}) ${child.stderrText()}`));
    function finish(error, value) {
      clearTimeout(timer);
      lines.removeListener("line", onLine);
      child.removeListener("exit", onExit);
      lines.close();
      if (error) reject(error);
      else resolve(value);
    }
    function onLine(line) {
      let value;
      try {
        value = accept(line);
      } catch {
        return;
      }
      if (value !== undefined) finish(undefined, value);
    }
    lines.on("line", onLine);
    child.once("exit", onExit);
  });
}

function runScript(file, env) {
  return execFileSync(process.execPath, [file], { cwd: app, env: { ...process.env, ...env }, timeout: STEP_DEADLINE_MS, stdio: ["ignore", "pipe", "pipe"] })
    .toString()
    .trim();
}

try {
  const tarballs = [];
  await checks.check("npm pack @linkshort/client, @linkshort/sandbox, @linkshort/mcp", () => {
    for (const dir of ["packages/client", "packages/sandbox", "packages/mcp"]) tarballs.push(pack(dir, work));
    return tarballs.map((file) => file.slice(work.length + 1)).join(", ");
  });

  await checks.check("the tarballs install into an empty folder", () => {
    mkdirSync(app);
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "tarball-check", private: true }));
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--prefer-offline", "--loglevel", "error", ...tarballs], {
      cwd: app,
      timeout: 5 * 60_000,
      stdio: ["ignore", "pipe", "pipe"],
    });
    // The sandbox and the MCP server must use the packed client, not a copy from a registry.
    const nested = ["sandbox", "mcp"].filter((name) => existsSync(join(app, "node_modules", "@linkshort", name, "node_modules", "@linkshort", "client")));
    if (nested.length > 0) throw new Error(`a second @linkshort/client under ${nested.join(", ")}`);
    const installed = JSON.parse(readFileSync(join(app, "package-lock.json"), "utf8")).packages["node_modules/@linkshort/client"];
    if (!installed?.resolved?.startsWith("file:")) throw new Error(`@linkshort/client came from ${installed?.resolved}`);
  });

  let sandbox;
  await checks.check("npx linkshort-sandbox starts and serves the API", async () => {
    const child = startInApp(["linkshort-sandbox", "--port", "0", "--seed", "demo", "--json"]);
    sandbox = await waitForLine(child, "linkshort-sandbox", (line) => {
      const value = JSON.parse(line);
      return typeof value.baseUrl === "string" ? value : undefined;
    });
    const response = await fetch(`${sandbox.baseUrl}/api/account`, {
      headers: { Authorization: `Bearer ${sandbox.userKey}` },
      signal: AbortSignal.timeout(STEP_DEADLINE_MS),
    });
    const body = await response.json();
    if (response.status !== 200 || String(body.error) !== "0" || !body.data?.email)
      throw new Error(`GET /api/account answered ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
    sandbox.accountEmail = body.data.email;
    return `${sandbox.baseUrl}, account ${body.data.email}`;
  });
  if (!sandbox) throw new Error("no sandbox, the other checks cannot run");
  const clientEnv = { LINKSHORT_BASE_URL: sandbox.baseUrl, LINKSHORT_API_KEY: sandbox.userKey };

  await checks.check("an ES module imports @linkshort/client and @linkshort/client/core and creates a link", () => {
    writeFileSync(
      join(app, "check.mjs"),
      `import { LinkShortClient, ValidationError } from "@linkshort/client";
import { LinkShortClient as CoreClient } from "@linkshort/client/core";
if (typeof CoreClient !== "function" || typeof ValidationError !== "function") throw new Error("missing exports");
const client = new LinkShortClient({ baseUrl: process.env.LINKSHORT_BASE_URL, apiKey: process.env.LINKSHORT_API_KEY });
const created = await client.links.create({ url: "https://example.com/from-esm" });
const { details } = await client.links.get(created.id);
console.log(JSON.stringify({ shorturl: created.shorturl, longurl: details.longurl }));
`,
    );
    const result = JSON.parse(runScript("check.mjs", clientEnv));
    if (result.longurl !== "https://example.com/from-esm" || !result.shorturl.startsWith(sandbox.baseUrl)) throw new Error(JSON.stringify(result));
    return result.shorturl;
  });

  await checks.check("a CommonJS script requires @linkshort/client and lists links", () => {
    writeFileSync(
      join(app, "check.cjs"),
      `const { LinkShortClient, NotFoundError } = require("@linkshort/client");
const { LinkShortClient: CoreClient } = require("@linkshort/client/core");
if (typeof CoreClient !== "function") throw new Error("missing @linkshort/client/core export");
(async () => {
  const client = new LinkShortClient({ baseUrl: process.env.LINKSHORT_BASE_URL, apiKey: process.env.LINKSHORT_API_KEY });
  const page = await client.links.list({ limit: 100 });
  let notFound = false;
  try { await client.links.get(987654321); } catch (error) { notFound = error instanceof NotFoundError; }
  console.log(JSON.stringify({ urls: page.items.map((link) => link.longurl), notFound }));
})().catch((error) => { console.error(error); process.exit(1); });
`,
    );
    const result = JSON.parse(runScript("check.cjs", clientEnv));
    if (!result.urls.includes("https://example.com/from-esm")) throw new Error(`the ES module's link is not listed: ${JSON.stringify(result).slice(0, 300)}`);
    if (!result.notFound) throw new Error("a missing link did not raise NotFoundError");
    return `${result.urls.length} links, NotFoundError for a missing one`;
  });

  await checks.check("npx linkshort-mcp answers initialize, tools/list and get_account over stdio", async () => {
    const child = startInApp(["linkshort-mcp"], clientEnv);
    const send = (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
    const answer = (id) =>
      waitForLine(child, `linkshort-mcp (request ${id})`, (line) => {
        const message = JSON.parse(line);
        return message.id === id ? message : undefined;
      });
    let reply = answer(1);
    send({ id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "tarball-check", version: "1.0.0" } } });
    const initialized = await reply;
    if (!initialized.result?.serverInfo?.name) throw new Error(`initialize: ${JSON.stringify(initialized).slice(0, 300)}`);
    send({ method: "notifications/initialized" });

    reply = answer(2);
    send({ id: 2, method: "tools/list", params: {} });
    const names = ((await reply).result?.tools ?? []).map((tool) => tool.name);
    for (const expected of ["shorten_link", "find_links", "get_account"]) {
      if (!names.includes(expected)) throw new Error(`tools/list lacks ${expected}: ${names.join(", ")}`);
    }

    reply = answer(3);
    send({ id: 3, method: "tools/call", params: { name: "get_account", arguments: {} } });
    const called = await reply;
    if (called.result?.isError || !JSON.stringify(called.result).includes(sandbox.accountEmail)) {
      throw new Error(`get_account: ${JSON.stringify(called).slice(0, 300)}`);
    }
    child.stdin.end();
    stop(child);
    return `${initialized.result.serverInfo.name} ${initialized.result.serverInfo.version}, ${names.length} tools, get_account read the sandbox's account`;
  });
} catch (error) {
  await checks.check("setup", () => {
    throw error;
  });
} finally {
  for (const child of started) stop(child);
  rmSync(work, { recursive: true, force: true });
}
checks.finish();
