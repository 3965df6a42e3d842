/**
 * The server on the current protocol revision (2026-07-28), as the SDK's v2 client speaks it with no
 * initialize handshake, over Streamable HTTP and stdio; and what changed with it for every era: an
 * unknown tool is a protocol error, long calls report progress, and a delete asks the person first
 * when the client can ask (input_required; elicitation for a 2025-11-25 client over stdio).
 */
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyStdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as LegacyHttpClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { ChildProcess } from "node:child_process";
import { TOOLS } from "../src/tools";
import { CLI, confirmedDelete, startHttpServerProcess } from "./helpers";

const CURRENT = "2026-07-28";

let sandbox: Sandbox;
let httpServer: ChildProcess;
let httpUrl: string;
const environment = () => ({ PATH: process.env.PATH ?? "", LINKSHORT_BASE_URL: sandbox.baseUrl, LINKSHORT_API_KEY: sandbox.userKey });

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: { limit: 10_000, windowMs: 60_000 } });
  ({ child: httpServer, url: httpUrl } = await startHttpServerProcess({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey }));
});

afterAll(async () => {
  httpServer.kill();
  await sandbox.close();
});

type Answer = "accept" | "decline" | "none";

/** A v2 client pinned to 2026-07-28; with `answer` other than "none" it declares form elicitation and answers with it. */
async function currentClient(transport: "http" | "stdio", answer: Answer = "none"): Promise<{ client: Client; asked: string[] }> {
  const asked: string[] = [];
  const client = new Client(
    { name: "linkshort-2026-test", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: CURRENT } }, ...(answer !== "none" ? { capabilities: { elicitation: { form: {} } } } : {}) },
  );
  if (answer !== "none") {
    client.setRequestHandler("elicitation/create", (request) => {
      asked.push((request.params as { message: string }).message);
      return answer === "accept" ? { action: "accept", content: { confirm: true } } : { action: "decline" };
    });
  }
  await client.connect(
    transport === "http"
      ? new StreamableHTTPClientTransport(new URL(httpUrl))
      : new StdioClientTransport({ command: process.execPath, args: [CLI], env: environment(), stderr: "pipe" }),
  );
  return { client, asked };
}

const linkExists = (id: number) => sandbox.store.state.links.some((link) => link.id === id);

const deleteQuestion = (id: number) =>
  `Delete short link ${id} for good? It stops redirecting and its statistics are lost. Links changed since the preview are left alone.`;

async function newLink(client: Client, name: string): Promise<number> {
  const created = await client.callTool({ name: "shorten_link", arguments: { url: `https://example.com/${name}` } });
  return (created.structuredContent as { id: number }).id;
}

/** A tools/list POST as a 2026-07-28 client sends it, read raw: the fields the SDK's client does not surface. */
async function rawCurrentRequest(method: string, params: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": CURRENT,
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const response = await fetch(httpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": CURRENT, "mcp-method": method },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: meta } }),
  });
  const text = await response.text();
  const json = text.startsWith("{")
    ? text
    : (text
        .split("\n")
        .find((line) => line.startsWith("data:"))
        ?.slice(5) ?? "{}");
  return { status: response.status, body: JSON.parse(json) as Record<string, unknown> };
}

describe.each(["http", "stdio"] as const)("a 2026-07-28 client over %s", (transport) => {
  let client: Client;

  beforeAll(async () => {
    ({ client } = await currentClient(transport));
  });

  afterAll(async () => {
    await client.close();
  });

  test("is served without a handshake: the revision is 2026-07-28, every tool listed in the table's order with a title, annotations and an output schema", async () => {
    expect(client.getNegotiatedProtocolVersion()).toBe(CURRENT);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(TOOLS.filter((tool) => !tool.admin).map((tool) => tool.name));
    for (const tool of tools) {
      expect({
        name: tool.name,
        title: typeof tool.title,
        annotationsTitle: tool.annotations?.title,
        readOnly: typeof tool.annotations?.readOnlyHint,
        output: tool.outputSchema?.type,
      }).toEqual({
        name: tool.name,
        title: "string",
        annotationsTitle: tool.title,
        readOnly: "boolean",
        output: "object",
      });
    }
  });

  test("a tool answers with structured content and its JSON as text; an unknown tool is a -32602 protocol error", async () => {
    const account = await client.callTool({ name: "get_account", arguments: {} });
    expect(account.isError).toBeFalsy();
    expect(account.structuredContent).toMatchObject({ username: expect.any(String) });
    expect(JSON.parse((account.content as Array<{ text: string }>)[0]!.text)).toEqual(account.structuredContent);
    await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await expect(client.callTool({ name: "list_users", arguments: {} })).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/--admin/) });
  });

  test("bad arguments are a tool error naming the field, not a protocol error", async () => {
    const answer = await client.callTool({ name: "shorten_link", arguments: { url: "not a url" } });
    expect(answer.isError).toBe(true);
    expect((answer.content as Array<{ text: string }>)[0]!.text).toMatch(/at url/);
  });

  test("shorten_links reports its progress, URL by URL, to a client that asks", async () => {
    const seen: Array<{ progress: number; total?: number }> = [];
    const urls = Array.from({ length: 4 }, (_, i) => `https://example.com/progress-${transport}/${i}`);
    const answer = await client.callTool({ name: "shorten_links", arguments: { urls } }, { onprogress: (progress) => seen.push(progress) });
    expect(answer.structuredContent).toMatchObject({ created: 4 });
    expect(seen.map(({ progress, total }) => [progress, total])).toEqual([
      [0, 4],
      [1, 4],
      [2, 4],
      [3, 4],
    ]);
  });

  test("a client that cannot ask the person: delete_links deletes, as before", async () => {
    const id = await newLink(client, `no-elicitation-${transport}`);
    const answer = await client.callTool({ name: "delete_links", arguments: await confirmedDelete(client, id) });
    expect(answer.isError).toBeFalsy();
    expect(linkExists(id)).toBe(false);
  });
});

describe.each(["http", "stdio"] as const)("delete_links asks a 2026-07-28 client's user first (input_required) over %s", (transport) => {
  test("declined: nothing is deleted and the answer says so", async () => {
    const { client, asked } = await currentClient(transport, "decline");
    try {
      const id = await newLink(client, `declined-${transport}`);
      const answer = await client.callTool({ name: "delete_links", arguments: await confirmedDelete(client, id) });
      expect(asked).toEqual([deleteQuestion(id)]);
      expect(answer.isError).toBe(true);
      expect((answer.content as Array<{ text: string }>)[0]!.text).toMatch(/did not confirm delete_links, so nothing was deleted/);
      expect(linkExists(id)).toBe(true);
    } finally {
      await client.close();
    }
  });

  test("confirmed: the link is deleted", async () => {
    const { client, asked } = await currentClient(transport, "accept");
    try {
      const id = await newLink(client, `confirmed-${transport}`);
      const answer = await client.callTool({ name: "delete_links", arguments: await confirmedDelete(client, id) });
      expect(asked).toHaveLength(1);
      expect(answer.isError).toBeFalsy();
      expect(linkExists(id)).toBe(false);
    } finally {
      await client.close();
    }
  });
});

test("a 2025-11-25 client over stdio that takes elicitation is asked before a delete; declining keeps the link", async () => {
  const client = new LegacyClient({ name: "linkshort-2025-test", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params.message);
    return { action: "decline" };
  });
  await client.connect(new LegacyStdioClientTransport({ command: process.execPath, args: [CLI], env: environment(), stderr: "pipe" }));
  try {
    expect(client.getServerVersion()?.name).toBe("linkshort");
    const created = await client.callTool({ name: "shorten_link", arguments: { url: "https://example.com/legacy-declined" } });
    const id = (created.structuredContent as { id: number }).id;
    const answer = await client.callTool({ name: "delete_links", arguments: await confirmedDelete(client, id) });
    expect(asked).toEqual([deleteQuestion(id)]);
    expect(answer.isError).toBe(true);
    expect(linkExists(id)).toBe(true);
  } finally {
    await client.close();
  }
});

test("tools/list under 2026-07-28 says how long it may be kept (ttlMs, cacheScope); server/discover names the revision", async () => {
  const listed = await rawCurrentRequest("tools/list", {});
  expect(listed.status).toBe(200);
  expect(listed.body.result).toMatchObject({ ttlMs: 600_000, cacheScope: "private" });
  const discovered = await rawCurrentRequest("server/discover", {});
  expect(discovered.body.result).toMatchObject({ supportedVersions: [CURRENT], capabilities: { tools: {} } });
});

test("a find_links that waits on the index's first sync reports how far the index is, rising, out of the account's count", async () => {
  // 3,000 links in pages of at most 100 at 10 requests a second: the first sync (started with the
  // server) outlasts the 2 s a lookup waits.
  const large = await startSandbox({ port: 0, seed: { links: 3000 }, maxPageSize: 100, rateLimit: { limit: 10, windowMs: 1000 } });
  const client = new Client({ name: "linkshort-progress-test", version: "1.0.0" }, { versionNegotiation: { mode: { pin: CURRENT } } });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI],
      env: { ...environment(), LINKSHORT_BASE_URL: large.baseUrl, LINKSHORT_API_KEY: large.userKey },
      stderr: "pipe",
    }),
  );
  try {
    const seen: Array<{ progress: number; total?: number; message?: string }> = [];
    const answer = await client.callTool({ name: "find_links", arguments: { text: "fill" } }, { onprogress: (progress) => seen.push(progress) });
    const { index } = answer.structuredContent as { index: { complete: boolean; known: number } };
    expect(index.complete).toBe(false);
    expect(seen.length).toBeGreaterThan(0);
    for (const [i, report] of seen.entries()) {
      expect(report.total).toBeGreaterThanOrEqual(3000);
      expect(report.progress).toBeLessThan(report.total!);
      expect(report.message).toMatch(/^Indexed [\d,]+ of (about )?[\d,]+ links/);
      if (i > 0) expect(report.progress).toBeGreaterThan(seen[i - 1]!.progress);
    }
  } finally {
    await client.close();
    await large.close();
  }
}, 30_000);

test.each(["2025-06-18", "2025-11-25"])("a %s initialize over HTTP is answered in that revision, and a tool call of that era after it", async (revision) => {
  const post = async (body: object, headers: Record<string, string> = {}) => {
    const response = await fetch(httpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return JSON.parse(
      text.startsWith("{")
        ? text
        : (text
            .split("\n")
            .find((line) => line.startsWith("data:"))
            ?.slice(5) ?? "{}"),
    ) as { result?: Record<string, unknown> };
  };
  const initialized = await post({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: "raw", version: "1.0.0" } },
  });
  expect(initialized.result).toMatchObject({ protocolVersion: revision, serverInfo: { name: "linkshort" }, capabilities: { tools: {} } });
  const called = await post(
    { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "get_account", arguments: {} } },
    { "mcp-protocol-version": revision },
  );
  expect(called.result?.structuredContent).toMatchObject({ username: expect.any(String) });
});

test("a 2025-era client over HTTP cannot be asked (each request stands alone): delete_links deletes as before, asking nobody", async () => {
  const client = new LegacyClient({ name: "linkshort-2025-http-test", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params.message);
    return { action: "decline" };
  });
  await client.connect(new LegacyHttpClientTransport(new URL(httpUrl)));
  try {
    const created = await client.callTool({ name: "shorten_link", arguments: { url: "https://example.com/legacy-http-delete" } });
    const id = (created.structuredContent as { id: number }).id;
    const answer = await client.callTool({ name: "delete_links", arguments: await confirmedDelete(client, id) });
    expect(asked).toEqual([]);
    expect(answer.isError).toBeFalsy();
    expect(linkExists(id)).toBe(false);
  } finally {
    await client.close();
  }
});
