/**
 * server.json for the MCP Registry and the Claude Desktop bundle (.mcpb). The registry's schema
 * ships in no npm package installed here, so its fields are checked as the registry documents
 * them (modelcontextprotocol.io/registry: package types, official registry requirements).
 */
import { startSandbox } from "@linkshort/sandbox";
import { Client as CurrentClient } from "@modelcontextprotocol/client";
import { StdioClientTransport as CurrentStdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TOOLS } from "../src/tools";

const read = (name: string) => JSON.parse(readFileSync(join(__dirname, "..", name), "utf8")) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const packageJson = read("package.json");
const userTools = TOOLS.filter((tool) => !tool.admin).map((tool) => tool.name);

test("server.json: the name is package.json's mcpName, the version its version, one npm package over stdio with the variables", () => {
  const server = read("server.json");
  expect(server.$schema).toMatch(/^https:\/\/static\.modelcontextprotocol\.io\/schemas\/\d{4}-\d\d-\d\d\/server\.schema\.json$/);
  expect(server.name).toBe(packageJson.mcpName);
  expect(server.name).toBe("io.github.linkshort/linkshort-mcp");
  // Reverse-DNS namespace, then one slash and a server name, as the registry requires.
  expect(server.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
  expect(server.description.length).toBeLessThanOrEqual(100);
  expect(server.version).toBe(packageJson.version);
  expect(server.repository).toMatchObject({ url: "https://github.com/linkshort/linkshort", source: "github", subfolder: "packages/mcp" });
  expect(server.packages).toHaveLength(1);
  const [npm] = server.packages;
  expect(npm).toMatchObject({ registryType: "npm", registryBaseUrl: "https://registry.npmjs.org", identifier: packageJson.name, version: packageJson.version, transport: { type: "stdio" } });
  const variables = Object.fromEntries(npm.environmentVariables.map((variable: { name: string }) => [variable.name, variable]));
  expect(variables.LINKSHORT_BASE_URL).toMatchObject({ isRequired: true, isSecret: false });
  expect(variables.LINKSHORT_API_KEY).toMatchObject({ isRequired: true, isSecret: true });
  expect(variables.LINKSHORT_MCP_INDEX_FILE).toMatchObject({ isRequired: false });
  for (const variable of npm.environmentVariables) expect(variable.description.length).toBeGreaterThan(10);
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
        env: { PATH: process.env.PATH ?? "", HOME: home, LINKSHORT_BASE_URL: sandbox.baseUrl, LINKSHORT_API_KEY: sandbox.userKey, LINKSHORT_MCP_INDEX_FILE: indexFile },
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
