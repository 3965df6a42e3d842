/** Starting the binary: configuration mistakes are named by their variable or flag, and the key is never printed. */
import { spawnSync } from "node:child_process";
import { CLI } from "./helpers";

const KEY = "sk-config-test-5a9e77c1";

function run(env: Record<string, string>, args: string[] = []) {
  const result = spawnSync(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? "", ...env }, encoding: "utf8", timeout: 10_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

test.each([
  [{ LINKSHORT_API_KEY: KEY }, /^linkshort-mcp: LINKSHORT_BASE_URL is not set\./],
  [{ LINKSHORT_BASE_URL: "https://short.example.com" }, /^linkshort-mcp: LINKSHORT_API_KEY is not set\./],
  [{}, /^linkshort-mcp: LINKSHORT_BASE_URL is not set; LINKSHORT_API_KEY is not set\./],
  [{ LINKSHORT_BASE_URL: "short.example.com", LINKSHORT_API_KEY: KEY }, /^linkshort-mcp: LINKSHORT_BASE_URL must be a valid http or https URL\./],
  [{ LINKSHORT_BASE_URL: "https://short.example.com", LINKSHORT_API_KEY: "   " }, /^linkshort-mcp: LINKSHORT_API_KEY is required\./],
])("refuses to start with %j", (env, message) => {
  const { status, stderr, stdout } = run(env);
  expect(status).toBe(1);
  expect(stderr).toMatch(message);
  expect(stderr).toContain("Usage: linkshort-mcp");
  expect(stdout).toBe("");
  expect(stderr).not.toContain(KEY);
});

test.each([
  [["--http", "port"], /--http must be a whole number from 0 to 65535, not "port"/],
  [["--host", "0.0.0.0"], /--host needs --http PORT/],
  [["--max-wait", "-1"], /--max-wait/],
  [["--verbose"], /Unknown option '--verbose'/],
])("refuses the command line %j", (args, message) => {
  const { status, stderr } = run({ LINKSHORT_BASE_URL: "https://short.example.com", LINKSHORT_API_KEY: KEY }, args);
  expect(status).toBe(1);
  expect(stderr).toMatch(message);
  expect(stderr).not.toContain(KEY);
});

test("--help prints the usage with the variables", () => {
  const { status, stdout } = run({}, ["--help"]);
  expect(status).toBe(0);
  expect(stdout).toMatch(/LINKSHORT_BASE_URL[\s\S]*LINKSHORT_API_KEY[\s\S]*--http PORT[\s\S]*--admin/);
});

test.each([
  [["--sign-in"], {}, /--sign-in needs --http PORT/],
  [["--http", "0", "--public-url", "https://mcp.team.example"], {}, /--public-url needs --sign-in/],
  [
    ["--http", "0", "--sign-in", "--public-url", "http://mcp.team.example"],
    {},
    /--public-url must be an https address \(OAuth needs TLS; http only for localhost\)/,
  ],
  [
    ["--http", "0", "--sign-in", "--public-url", "https://mcp.team.example/mcp"],
    {},
    /--public-url must be the server's origin only .* e\.g\. https:\/\/mcp\.team\.example/,
  ],
  [
    ["--http", "0", "--sign-in"],
    { LINKSHORT_MCP_PUBLIC_URL: "mcp.team.example" },
    /LINKSHORT_MCP_PUBLIC_URL must be an address such as https:\/\/mcp\.team\.example/,
  ],
  [["--http", "0", "--sign-in"], { LINKSHORT_MCP_SIGN_IN_SECRET: "abcd" }, /LINKSHORT_MCP_SIGN_IN_SECRET must hold at least 32 bytes/],
  [["--http", "0", "--sign-in"], { LINKSHORT_MCP_TOKEN: "a-team-token-of-enough-length" }, /LINKSHORT_MCP_TOKEN and --sign-in exclude each other/],
  [["--http", "0", "--sign-in", "--token-file", "/dev/null"], {}, /--token-file and --sign-in exclude each other/],
])("refuses the sign-in command line %j with %j", (args, env, message) => {
  const { status, stderr } = run({ LINKSHORT_BASE_URL: "https://short.example.com", LINKSHORT_API_KEY: KEY, ...env }, args);
  expect(status).toBe(1);
  expect(stderr).toMatch(message);
  expect(stderr).not.toContain(KEY);
});

test.each([
  [["--store", "postgres://db/linkshort"], {}, /--store needs --http PORT/],
  [[], { LINKSHORT_MCP_STORE: "postgres://db/linkshort" }, /LINKSHORT_MCP_STORE needs --http PORT: over stdio the server is one process of one person/],
  [["--http", "0", "--store", "postgres://db/linkshort", "--index-file", "/tmp/index.json"], {}, /--index-file and --store exclude each other/],
  [
    ["--http", "0", "--store", "mysql://team:pw-in-url@db/linkshort"],
    {},
    /--store must be a Postgres URL such as postgres:\/\/linkshort:PASSWORD@db:5432\/linkshort \(it starts "mysql:"\)/,
  ],
  [["--http", "0"], { LINKSHORT_MCP_STORE: "db.internal:5432" }, /LINKSHORT_MCP_STORE must be a Postgres URL/],
])("refuses the store's command line %j with %j, never showing its password", (args, env, message) => {
  const { status, stderr } = run({ LINKSHORT_BASE_URL: "https://short.example.com", LINKSHORT_API_KEY: KEY, ...env }, args);
  expect(status).toBe(1);
  expect(stderr).toMatch(message);
  expect(stderr).not.toContain("pw-in-url");
});

test("--sign-in starts without LINKSHORT_API_KEY and says how people connect", async () => {
  const { startHttpServerProcess } = await import("./helpers");
  const server = await startHttpServerProcess({ baseUrl: "https://short.example.com", apiKey: "" }, ["--sign-in"]);
  server.child.kill();
  expect(server.stderr()).toMatch(
    /for people who sign in as themselves \(OAuth, resource http:\/\/127\.0\.0\.1:\d+\/mcp, or their key in x-linkshort-api-key\)/,
  );
});

test("--public-url: the issuer and resource are the public address, which the server answers to behind its proxy", async () => {
  const { startHttpServerProcess } = await import("./helpers");
  const { request } = await import("node:http");
  const server = await startHttpServerProcess({ baseUrl: "https://short.example.com", apiKey: "" }, ["--sign-in", "--public-url", "https://mcp.team.example"]);
  try {
    const { port } = new URL(server.url);
    const get = (path: string, host: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const outgoing = request({ host: "127.0.0.1", port, path, headers: { Host: host } }, (answer) => {
          let body = "";
          answer.on("data", (chunk: Buffer) => (body += chunk.toString()));
          answer.on("end", () => resolve({ status: answer.statusCode ?? 0, body }));
        });
        outgoing.on("error", reject);
        outgoing.end();
      });
    const metadata = await get("/.well-known/oauth-protected-resource/mcp", "mcp.team.example");
    expect(metadata.status).toBe(200);
    expect(JSON.parse(metadata.body)).toMatchObject({ resource: "https://mcp.team.example/mcp", authorization_servers: ["https://mcp.team.example"] });
    expect((await get("/.well-known/oauth-authorization-server", "evil.example")).status).toBe(403);
  } finally {
    server.child.kill();
  }
});
