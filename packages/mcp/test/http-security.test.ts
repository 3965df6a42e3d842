/**
 * Serving over HTTP gives the account to nobody it was not meant for: a Host allow-list on every
 * bind (DNS rebinding), a present Origin that is not allowed refused with 403, a bearer token
 * required before the server may listen beyond loopback, and a loud warning when it does.
 */
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "node:http";
import { CLI } from "./helpers";

const TOKEN = "team-token-0123456789abcdef0123456789";
let sandbox: Sandbox;
const servers: ChildProcess[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: { limit: 1000, windowMs: 60_000 } });
});

afterAll(async () => {
  for (const server of servers) server.kill();
  await sandbox.close();
});

function environment(extra: Record<string, string> = {}) {
  return { PATH: process.env.PATH ?? "", LINKSHORT_BASE_URL: sandbox.baseUrl, LINKSHORT_API_KEY: sandbox.adminKey, ...extra };
}

async function serve(args: string[], extra: Record<string, string> = {}): Promise<{ port: number; stderr: () => string }> {
  const server = spawn(process.execPath, [CLI, "--http", "0", ...args], { env: environment(extra), stdio: ["ignore", "ignore", "pipe"] });
  servers.push(server);
  let stderr = "";
  const port = await new Promise<number>((resolve, reject) => {
    server.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const address = /Streamable HTTP at http:\/\/\S+?:(\d+)\/mcp/.exec(stderr)?.[1];
      if (address) resolve(Number(address));
    });
    server.once("exit", (code) => reject(new Error(`linkshort-mcp exited with ${code}: ${stderr}`)));
  });
  return { port, stderr: () => stderr };
}

const LIST_TOOLS = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });

function post(port: number, headers: Record<string, string>, connectTo = "127.0.0.1"): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: connectTo,
        port,
        path: "/mcp",
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
      },
      (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    outgoing.on("error", reject);
    outgoing.end(LIST_TOOLS);
  });
}

test("refuses to serve beyond loopback without a bearer token, naming the variable and the option", () => {
  const result = spawnSync(process.execPath, [CLI, "--http", "0", "--host", "0.0.0.0"], { env: environment(), encoding: "utf8", timeout: 10_000 });
  expect(result.status).toBe(1);
  expect(result.stderr).toMatch(/LINKSHORT_MCP_TOKEN/);
  expect(result.stderr).toMatch(/--token-file/);
});

test("on 0.0.0.0 with a token: a warning at start, louder with --admin; the token, the Host allow-list and the Origin check apply", async () => {
  const { port, stderr } = await serve(["--host", "0.0.0.0", "--allowed-host", "mcp.team.example", "--admin"], { LINKSHORT_MCP_TOKEN: TOKEN });
  expect(stderr()).toMatch(/WARNING.*0\.0\.0\.0/);
  expect(stderr()).toMatch(/WARNING.*admin/i);
  expect(stderr()).not.toContain(TOKEN);
  const bearer = { Authorization: `Bearer ${TOKEN}` };

  expect((await post(port, { Host: `localhost:${port}` })).status).toBe(401);
  expect((await post(port, { Host: `localhost:${port}`, Authorization: "Bearer wrong-token" })).status).toBe(401);
  expect((await post(port, { Host: `attacker.example:${port}`, ...bearer })).status).toBe(403);
  expect((await post(port, { Host: `localhost:${port}`, Origin: "http://attacker.example", ...bearer })).status).toBe(403);

  const allowed = await post(port, { Host: `mcp.team.example:${port}`, Origin: `http://mcp.team.example:${port}`, ...bearer });
  expect(allowed.status).toBe(200);
  expect(allowed.body).toContain("list_users");
  expect((await post(port, { Host: `localhost:${port}`, ...bearer })).status).toBe(200);
});

test.each([["127.0.0.2"], ["::ffff:127.0.0.1"]])("a loopback bind written %s keeps the Host allow-list", async (host) => {
  const { port } = await serve(["--host", host]);
  const connectTo = host.startsWith("::ffff:") ? "127.0.0.1" : host;
  expect((await post(port, { Host: `attacker.example:${port}` }, connectTo)).status).toBe(403);
  expect((await post(port, { Host: `localhost:${port}` }, connectTo)).status).toBe(200);
});

test("on the default bind, a page of another origin is refused while a local one (the Inspector's) is served", async () => {
  const { port } = await serve([]);
  expect((await post(port, { Host: `127.0.0.1:${port}`, Origin: "https://attacker.example" })).status).toBe(403);
  expect((await post(port, { Host: `127.0.0.1:${port}`, Origin: "null" })).status).toBe(403);
  expect((await post(port, { Host: `127.0.0.1:${port}`, Origin: "http://localhost:6274" })).status).toBe(200);
});

test("with a token on loopback, requests without it are refused", async () => {
  const { port } = await serve([], { LINKSHORT_MCP_TOKEN: TOKEN });
  expect((await post(port, { Host: `127.0.0.1:${port}` })).status).toBe(401);
  expect((await post(port, { Host: `127.0.0.1:${port}`, Authorization: `Bearer ${TOKEN}` })).status).toBe(200);
});

test("a body over 4 MiB is refused from its Content-Length, before it is read", async () => {
  const { port } = await serve([]);
  const status = await new Promise<number>((resolve, reject) => {
    const outgoing = request(
      { host: "127.0.0.1", port, path: "/mcp", method: "POST", headers: { "Content-Type": "application/json", "Content-Length": String(50 * 1024 * 1024) } },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    outgoing.on("error", reject);
    outgoing.write("{");
  });
  expect(status).toBe(413);
});

describe("--token-file that yields no token", () => {
  const folder = mkdtempSync(join(tmpdir(), "linkshort-token-"));

  test.each([
    ["an empty", ""],
    ["a blank", "  \n\t\n"],
  ])("%s token file is a configuration error on loopback too, never a server without authentication", (_kind, content) => {
    const file = join(folder, `token-${_kind.replace(" ", "-")}`);
    writeFileSync(file, content, { mode: 0o600 });
    for (const host of ["127.0.0.1", "0.0.0.0"]) {
      const result = spawnSync(process.execPath, [CLI, "--http", "0", "--host", host, "--token-file", file], {
        env: environment(),
        encoding: "utf8",
        timeout: 10_000,
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(/--token-file .*token-an?-\w+ holds no token/);
      expect(result.stderr).not.toMatch(/serving .* over Streamable HTTP/);
    }
  });

  test("a token file others can read starts the server, with a warning naming the file", async () => {
    const file = join(folder, "token-shared");
    writeFileSync(file, `${TOKEN}\n`);
    chmodSync(file, 0o644);
    const { port, stderr } = await serve(["--token-file", file]);
    expect(stderr()).toMatch(/WARNING: --token-file .*token-shared is readable by other users/);
    expect(stderr()).not.toContain(TOKEN);
    expect((await post(port, { Host: `localhost:${port}` })).status).toBe(401);
  });

  test("a token file only its owner reads starts without that warning", async () => {
    const file = join(folder, "token-private");
    writeFileSync(file, `${TOKEN}\n`, { mode: 0o600 });
    const { stderr } = await serve(["--token-file", file]);
    expect(stderr()).not.toMatch(/readable by other users/);
  });
});
