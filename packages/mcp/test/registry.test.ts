/**
 * server.json for the MCP Registry and the Claude Desktop bundle (.mcpb). server.json is validated
 * against the registry's own schema, of the version its `$schema` names (test/server.schema.json, a
 * copy of https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json), by the
 * release workflow's dry run of the publish (scripts/registry-dry-run.mjs), run here on the file and
 * on broken copies of it.
 */
import { startSandbox } from "@linkshort/sandbox";
import { Client as CurrentClient } from "@modelcontextprotocol/client";
import { StdioClientTransport as CurrentStdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { API_KEY_HEADER } from "../src/auth/sign-in";
import { TOOLS } from "../src/tools";

/** server.json and package.json as read: any field may be changed by a case below. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type JsonObject = Record<string, any>;
const read = (name: string) => JSON.parse(readFileSync(join(__dirname, "..", name), "utf8")) as JsonObject;
const packageJson = read("package.json");
const userTools = TOOLS.filter((tool) => !tool.admin).map((tool) => tool.name);

/** The publish's dry run over server.json, or over a copy changed by `change`: its output and status. */
function dryRun(change?: (server: JsonObject) => void): { output: string; status: number | null } {
  const args = [join(__dirname, "../scripts/registry-dry-run.mjs")];
  if (change) {
    const server = read("server.json");
    change(server);
    const copy = join(mkdtempSync(join(tmpdir(), "linkshort-server-json-")), "server.json");
    writeFileSync(copy, JSON.stringify(server));
    args.push("--server-json", copy);
  }
  const run = spawnSync(process.execPath, args, { encoding: "utf8" });
  return { output: run.stdout + run.stderr, status: run.status };
}

test("server.json passes the publish's dry run: the registry's schema, mcpName, versions, the npm package, the remote", () => {
  const { output, status } = dryRun();
  expect(output).toContain("MCP registry (dry run): 5 passed, 0 failed");
  expect(status).toBe(0);
});

test.each([
  [
    "a description over the schema's 100 characters",
    (server: JsonObject) => (server.description = "x".repeat(101)),
    /FAILED server\.json validates.*\/description must NOT have more than 100 characters/,
  ],
  [
    "a remote URL that is no URI template",
    (server: JsonObject) => (server.remotes[0].url = "https://{MCP_HOST/mcp"),
    /FAILED server\.json validates.*\/remotes\/0\/url must match format "uri-template"/,
  ],
  [
    "$schema naming another version",
    (server: JsonObject) => (server.$schema = server.$schema.replace("2025-12-11", "2025-09-29")),
    /FAILED server\.json validates.*2025-09-29/,
  ],
  ["a name other than mcpName", (server: JsonObject) => (server.name = "io.github.linkshort/other"), /FAILED name is package\.json's mcpName/],
  ["a version other than package.json's", (server: JsonObject) => (server.version = "9.9.9"), /FAILED version is package\.json's version/],
  [
    "the npm package at another version",
    (server: JsonObject) => (server.packages[0].version = "9.9.9"),
    /FAILED the npm package.*version 9\.9\.9 is not package\.json's/,
  ],
  ["the remote as SSE", (server: JsonObject) => (server.remotes[0].type = "sse"), /FAILED the remote.*type sse/],
  [
    "a URL variable left undefined",
    (server: JsonObject) => (server.remotes[0].url = "https://{MCP_HOST}:{PORT}/mcp"),
    /FAILED the remote.*\{PORT\}, not in variables/,
  ],
  ["a remote over http", (server: JsonObject) => (server.remotes[0].url = "http://{MCP_HOST}/mcp"), /FAILED the remote.*https remotes only/],
])("the dry run refuses %s", (_, change, refusal) => {
  const { output, status } = dryRun(change);
  expect(output).toMatch(refusal);
  expect(status).toBe(1);
});

test("server.json: one npm package over stdio with the variables; the team's server as a remote, signed in or with the key header", () => {
  const server = read("server.json");
  const [npm] = server.packages;
  const variables = Object.fromEntries(npm.environmentVariables.map((variable: { name: string }) => [variable.name, variable]));
  expect(variables.LINKSHORT_BASE_URL).toMatchObject({ isRequired: true, isSecret: false });
  expect(variables.LINKSHORT_API_KEY).toMatchObject({ isRequired: true, isSecret: true });
  expect(variables.LINKSHORT_MCP_INDEX_FILE).toMatchObject({ isRequired: false });
  for (const variable of npm.environmentVariables) expect(variable.description.length).toBeGreaterThan(10);
  // The operator's host, as deploy/compose.yaml names it; the key optional (OAuth otherwise), and secret.
  const [remote] = server.remotes;
  expect(remote).toMatchObject({ type: "streamable-http", url: "https://{MCP_HOST}/mcp", variables: { MCP_HOST: { isRequired: true } } });
  expect(readFileSync(join(__dirname, "../deploy/compose.yaml"), "utf8")).toContain("LINKSHORT_MCP_PUBLIC_URL: https://${MCP_HOST");
  expect(remote.headers).toHaveLength(1);
  expect(remote.headers[0].name.toLowerCase()).toBe(API_KEY_HEADER);
  expect(remote.headers[0]).toMatchObject({ isRequired: false, isSecret: true });
});

test("manifest.json (.mcpb): version, entry point, the key as sensitive user config passed by environment, every user tool", () => {
  const manifest = read("manifest.json");
  expect(manifest.manifest_version).toMatch(/^0\.\d$/);
  expect(manifest.version).toBe(packageJson.version);
  expect(manifest.server).toMatchObject({ type: "node", entry_point: "server/cli.js", mcp_config: { command: "node", args: ["${__dirname}/server/cli.js"] } });
  expect(manifest.server.mcp_config.env).toEqual({
    LINKSHORT_BASE_URL: "${user_config.base_url}",
    LINKSHORT_API_KEY: "${user_config.api_key}",
    LINKSHORT_MCP_INDEX_FILE: "${user_config.index_file}",
  });
  // A desktop host starts a server per session: the index is kept in a file by default, not read again each time.
  expect(manifest.user_config.index_file).toMatchObject({ type: "string", required: false, default: expect.stringMatching(/^\$\{HOME\}\/.+\.json$/) });
  expect(manifest.user_config.base_url).toMatchObject({ type: "string", required: true, sensitive: false });
  expect(manifest.user_config.api_key).toMatchObject({ type: "string", required: true, sensitive: true });
  expect(manifest.tools.map((tool: { name: string }) => tool.name).sort()).toEqual([...userTools].sort());
  expect(manifest.compatibility.runtimes.node).toBe(packageJson.engines.node);
});

test("the built .mcpb holds the manifest and a server that runs with no node_modules beside it, for 2025-era and 2026-07-28 clients", async () => {
  execFileSync(process.execPath, [join(__dirname, "../scripts/build-mcpb.mjs")], { stdio: "pipe" });
  const unpacked = mkdtempSync(join(tmpdir(), "linkshort-mcpb-"));
  execFileSync("unzip", ["-q", join(__dirname, "../linkshort-mcp.mcpb"), "-d", unpacked]);
  expect(JSON.parse(readFileSync(join(unpacked, "manifest.json"), "utf8"))).toEqual(read("manifest.json"));
  const sandbox = await startSandbox({ port: 0 });
  const client = new Client({ name: "mcpb-test", version: "1.0.0" });
  const home = mkdtempSync(join(tmpdir(), "linkshort-mcpb-home-"));
  // As a host passes the default when it leaves `${HOME}` to the server.
  const indexFile = read("manifest.json").user_config.index_file.default as string;
  try {
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [join(unpacked, "server/cli.js")],
        cwd: unpacked,
        env: {
          PATH: process.env.PATH ?? "",
          HOME: home,
          LINKSHORT_BASE_URL: sandbox.baseUrl,
          LINKSHORT_API_KEY: sandbox.userKey,
          LINKSHORT_MCP_INDEX_FILE: indexFile,
        },
        stderr: "pipe",
      }),
    );
    const result = await client.callTool({ name: "get_account", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ email: expect.stringContaining("@") });
    // The bundled SDK serves the current revision too, without a handshake.
    const current = new CurrentClient({ name: "mcpb-test", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await current.connect(
      new CurrentStdioClientTransport({
        command: process.execPath,
        args: [join(unpacked, "server/cli.js")],
        cwd: unpacked,
        env: { PATH: process.env.PATH ?? "", LINKSHORT_BASE_URL: sandbox.baseUrl, LINKSHORT_API_KEY: sandbox.userKey },
        stderr: "pipe",
      }),
    );
    const answered = await current.callTool({ name: "get_account", arguments: {} });
    await current.close();
    expect(answered.structuredContent).toMatchObject({ email: expect.stringContaining("@") });
    const kept = join(home, indexFile.slice("${HOME}/".length));
    for (let waited = 0; !existsSync(kept) && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(existsSync(kept)).toBe(true);
  } finally {
    await client.close();
    await sandbox.close();
  }
}, 60_000);
