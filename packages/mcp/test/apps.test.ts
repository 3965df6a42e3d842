/**
 * MCP Apps (`io.modelcontextprotocol/ui`) negotiated over 2025-11-25 (initialize, stdio) and
 * 2026-07-28 (the capabilities in each request's `_meta`, HTTP and stdio): a client that declares
 * the extension sees the statistics view on get_link and get_qr_code and in resources/list, and
 * reads it; every other client sees exactly the tools and answers it saw before.
 */
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyStdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as LegacyHttpClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { ChildProcess } from "node:child_process";
import { APP_MIME_TYPE, STATISTICS_VIEW_URI, UI_EXTENSION } from "../src/view/apps";
import { STATISTICS_VIEW_HTML } from "../src/view/page";
import { TOOLS } from "../src/tools";
import { CLI, startHttpServerProcess } from "./helpers";
import { APPS_CAPABILITIES } from "./in-memory";

const VIEW_TOOLS = ["get_link", "get_qr_code"];

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

type Content = Array<{ type: string; mimeType?: string }>;
interface Listed {
  name: string;
  _meta?: Record<string, unknown>;
}
/** What the tests need of either SDK's client. */
interface McpClient {
  listTools(): Promise<{ tools: Listed[] }>;
  listResources(): Promise<{ resources: Array<{ uri: string; mimeType?: string; _meta?: Record<string, unknown> }> }>;
  readResource(params: { uri: string }): Promise<{ contents: Array<{ uri: string; mimeType?: string; text?: string; _meta?: Record<string, unknown> }> }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<{ content?: unknown; structuredContent?: unknown; isError?: boolean }>;
  close(): Promise<void>;
}

type Era = "2025-11-25 over stdio" | "2026-07-28 over http" | "2026-07-28 over stdio";
const ERAS: Era[] = ["2025-11-25 over stdio", "2026-07-28 over http", "2026-07-28 over stdio"];

async function connect(era: Era, apps: boolean): Promise<McpClient> {
  const capabilities = apps ? APPS_CAPABILITIES : {};
  if (era === "2025-11-25 over stdio") {
    const client = new LegacyClient({ name: "apps-2025-test", version: "1.0.0" }, { capabilities });
    await client.connect(new LegacyStdioClientTransport({ command: process.execPath, args: [CLI], env: environment(), stderr: "pipe" }));
    return client as unknown as McpClient;
  }
  const client = new Client({ name: "apps-2026-test", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities });
  await client.connect(
    era === "2026-07-28 over http"
      ? new StreamableHTTPClientTransport(new URL(httpUrl))
      : new StdioClientTransport({ command: process.execPath, args: [CLI], env: environment(), stderr: "pipe" }),
  );
  return client as unknown as McpClient;
}

const raycastLink = () => sandbox.store.state.links.find((link) => link.userId === 2 && link.alias === "raycast")!;
const qrCodeOfUser = () => sandbox.store.state.qrs.find((qrCode) => qrCode.userId === 2)!;
const kinds = (result: object) => (result as { content: Content }).content.map((part) => `${part.type}${part.mimeType ? ` ${part.mimeType}` : ""}`);
/** tools/list as it was before MCP Apps: each tool's listing, built once. */
const todaysListing = () => TOOLS.filter((tool) => !tool.admin).map((tool) => tool.listing);

describe.each(ERAS)("a client of %s", (era) => {
  describe("that renders MCP Apps", () => {
    let client: McpClient;
    beforeAll(async () => {
      client = await connect(era, true);
    });
    afterAll(() => client.close());

    test("sees the view on get_link and get_qr_code only (nested and flat keys), every other tool as before", async () => {
      const { tools } = await client.listTools();
      for (const tool of tools) {
        if (VIEW_TOOLS.includes(tool.name)) expect(tool._meta).toEqual({ ui: { resourceUri: STATISTICS_VIEW_URI }, "ui/resourceUri": STATISTICS_VIEW_URI });
        else expect(tool._meta).toBeUndefined();
      }
      expect(tools.filter((tool) => tool._meta).map((tool) => tool.name)).toEqual(VIEW_TOOLS);
    });

    test("finds the view in resources/list and reads it: one HTML page of the Apps mime type, declaring no domain to load from", async () => {
      const { resources } = await client.listResources();
      expect(resources.map((resource) => [resource.uri, resource.mimeType])).toEqual([[STATISTICS_VIEW_URI, APP_MIME_TYPE]]);
      const { contents } = await client.readResource({ uri: STATISTICS_VIEW_URI });
      expect(contents).toHaveLength(1);
      expect(contents[0]!.uri).toBe(STATISTICS_VIEW_URI);
      expect(contents[0]!.mimeType).toBe(APP_MIME_TYPE);
      expect(contents[0]!.text).toBe(STATISTICS_VIEW_HTML);
      expect(contents[0]!.text!.startsWith("<!DOCTYPE html>")).toBe(true);
      expect(Buffer.byteLength(contents[0]!.text!)).toBeLessThan(14_000);
      expect(contents[0]!._meta).toEqual({
        ui: { csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] }, prefersBorder: true },
      });
    });

    test("get_link answers with the statistics for the view, without the chart image; get_qr_code keeps its QR image", async () => {
      const link = await client.callTool({ name: "get_link", arguments: { id: raycastLink().id } });
      expect(kinds(link)).toEqual(["text"]);
      expect((link.structuredContent as { stats: { clicks: number } }).stats.clicks).toBe(raycastLink().stats.clicks);
      const qrCode = await client.callTool({ name: "get_qr_code", arguments: { id: qrCodeOfUser().id } });
      expect(kinds(qrCode)).toEqual(["text", "image image/png"]);
    });
  });

  describe("that does not render MCP Apps", () => {
    let client: McpClient;
    beforeAll(async () => {
      client = await connect(era, false);
    });
    afterAll(() => client.close());

    test("sees exactly today's tools, no resource, and today's answers with the chart image", async () => {
      const { tools } = await client.listTools();
      expect(tools).toEqual(todaysListing());
      expect((await client.listResources()).resources).toEqual([]);
      expect(kinds(await client.callTool({ name: "get_link", arguments: { id: raycastLink().id } }))).toEqual(["text", "image image/png"]);
      expect(kinds(await client.callTool({ name: "get_qr_code", arguments: { id: qrCodeOfUser().id } }))).toEqual([
        "text",
        "image image/png",
        "image image/png",
      ]);
    });
  });
});

test("a client that declares the extension without the HTML mime type is not shown the view", async () => {
  const client = new Client(
    { name: "apps-other-mime", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: { extensions: { [UI_EXTENSION]: { mimeTypes: ["text/uri-list"] } } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(httpUrl)));
  try {
    expect((await client.listTools()).tools).toEqual(todaysListing());
  } finally {
    await client.close();
  }
});

test("a 2025-era client over stateless HTTP declares its capabilities at an initialize no later request carries: it sees today's tools", async () => {
  const client = new LegacyClient({ name: "apps-2025-http", version: "1.0.0" }, { capabilities: APPS_CAPABILITIES });
  await client.connect(new LegacyHttpClientTransport(new URL(httpUrl)));
  try {
    expect((await client.listTools()).tools).toEqual(todaysListing());
    expect(kinds(await client.callTool({ name: "get_link", arguments: { id: raycastLink().id } }))).toEqual(["text", "image image/png"]);
  } finally {
    await client.close();
  }
});

test("reading a resource the server does not have is the -32602 error naming the URI (SEP-2164), for any client", async () => {
  const client = await connect("2026-07-28 over http", false);
  try {
    await expect(client.readResource({ uri: "ui://linkshort/nothing.html" })).rejects.toMatchObject({
      code: -32602,
      data: { uri: "ui://linkshort/nothing.html" },
    });
    // The view itself is served to whoever asks for it by name.
    expect((await client.readResource({ uri: STATISTICS_VIEW_URI })).contents[0]!.mimeType).toBe(APP_MIME_TYPE);
  } finally {
    await client.close();
  }
});

/** A 2026-07-28 request as it goes over the wire, with the client's capabilities in its `_meta`. */
async function rawCurrentRequest(method: string, params: Record<string, unknown>, capabilities: Record<string, unknown>) {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": capabilities,
  };
  const response = await fetch(httpUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(typeof params.uri === "string" ? { "mcp-name": params.uri } : {}),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: meta } }),
  });
  const text = await response.text();
  const json = text.startsWith("{")
    ? text
    : (text
        .split("\n")
        .find((line) => line.startsWith("data:"))
        ?.slice(5) ?? "{}");
  return JSON.parse(json) as { result?: Record<string, unknown> };
}

test("under 2026-07-28 the resource list says how long it may be kept (private, like the tools), the view itself an hour (public)", async () => {
  const listed = await rawCurrentRequest("resources/list", {}, APPS_CAPABILITIES);
  expect(listed.result).toMatchObject({ resources: [{ uri: STATISTICS_VIEW_URI }], ttlMs: 600_000, cacheScope: "private" });
  const read = await rawCurrentRequest("resources/read", { uri: STATISTICS_VIEW_URI }, {});
  expect(read.result).toMatchObject({ contents: [{ uri: STATISTICS_VIEW_URI, mimeType: APP_MIME_TYPE }], ttlMs: 3_600_000, cacheScope: "public" });
  expect((await rawCurrentRequest("resources/templates/list", {}, APPS_CAPABILITIES)).result).toMatchObject({ resourceTemplates: [], ttlMs: 600_000 });
  // The same capabilities in the request's own _meta decide the tool listing too.
  const tools = (await rawCurrentRequest("tools/list", {}, APPS_CAPABILITIES)).result!.tools as Listed[];
  expect(tools.find((tool) => tool.name === "get_link")!._meta).toMatchObject({ ui: { resourceUri: STATISTICS_VIEW_URI } });
});
