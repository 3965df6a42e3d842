/**
 * A cancelled tool call stops asking the server (and spending the key's rate limit), and the
 * 1,000-link scan of find_links reads exactly 10 pages of 100, never an 11th.
 */
import { LinkShortClient } from "@linkshort/client";
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createLinkShortMcpServer } from "../../packages/mcp/src/server";

let sandbox: Sandbox;
let mcpClient: Client;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: { links: 1500 }, rateLimit: { limit: 10_000, windowMs: 60_000 } });
  const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey });
  const server = createLinkShortMcpServer({ client });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  mcpClient = new Client({ name: "cancellation-test", version: "1.0.0" });
  await mcpClient.connect(clientSide);
});

afterAll(async () => {
  await mcpClient.close();
  await sandbox.close();
});

const pageRequests = () => sandbox.requests.filter((request) => request.path === "/api/urls").length;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("a search over the whole scan bound reads 10 pages, not an 11th", async () => {
  const before = pageRequests();
  const result = await mcpClient.callTool({ name: "find_links", arguments: { text: "no link has this text" } });
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent).toEqual({ links: [], scanned: 1000, complete: false });
  expect(pageRequests() - before).toBe(10);
});

test("find_links cancelled (notifications/cancelled) while its first page is on the way asks for no further page", async () => {
  sandbox.faults.set([{ kind: "delay", route: "^GET /api/urls", delayMs: 300 }]);
  try {
    const before = pageRequests();
    const controller = new AbortController();
    const call = mcpClient.callTool({ name: "find_links", arguments: { text: "no link has this text" } }, undefined, { signal: controller.signal });
    call.catch(() => undefined);
    while (pageRequests() === before) await sleep(10);
    controller.abort();
    await expect(call).rejects.toThrow(/abort/i);
    // Long enough for several more delayed pages, had the search gone on.
    await sleep(1500);
    expect(pageRequests() - before).toBe(1);
  } finally {
    sandbox.faults.clear();
  }
});
