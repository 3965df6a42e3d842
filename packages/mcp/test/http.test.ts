/** The built server over Streamable HTTP (`--http PORT`), on 127.0.0.1, with the SDK's own client. */
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { ChildProcess } from "node:child_process";
import { request } from "node:http";
import { sessionOf, startHttpServerProcess, type Session } from "./helpers";

let sandbox: Sandbox;
let server: ChildProcess;
let url: string;
let stderr: () => string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  ({ child: server, url, stderr } = await startHttpServerProcess({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey }));
});

afterAll(async () => {
  server.kill();
  await sandbox.close();
  expect(stderr()).not.toContain(sandbox.userKey);
});

async function connect(): Promise<Session> {
  const client = new Client({ name: "linkshort-mcp-http-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return sessionOf(client, stderr);
}

test("binds 127.0.0.1 and serves the tools to several clients", async () => {
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  const first = await connect();
  const second = await connect();
  try {
    expect((await first.client.listTools()).tools.map((tool) => tool.name)).toContain("shorten_link");
    const created = await first.call("shorten_link", { url: "https://example.com/over-http", custom: "over-http" });
    const { id } = created.structured as { id: number };
    expect((await second.call("get_link", { id })).structured).toMatchObject({ details: { id, longurl: "https://example.com/over-http" } });
    expect((await second.call("get_link", { id: "x" })).isError).toBe(true);
    expect([...first.transcript, ...second.transcript].join("\n")).not.toContain(sandbox.userKey);
  } finally {
    await first.close();
    await second.close();
  }
});

function rawRequest(method: string, path: string, host: string): Promise<number> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: "127.0.0.1", port, path, method, headers: { Host: host, "Content-Type": "application/json" } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    outgoing.on("error", reject);
    outgoing.end(method === "POST" ? "{}" : undefined);
  });
}

test("refuses requests addressed to another host name (DNS rebinding), other paths and other methods", async () => {
  const { port } = new URL(url);
  expect(await rawRequest("POST", "/mcp", `evil.example:${port}`)).toBe(403);
  expect(await rawRequest("POST", "/other", `127.0.0.1:${port}`)).toBe(404);
  expect(await rawRequest("GET", "/mcp", `localhost:${port}`)).toBe(405);
});
