/**
 * Memory stays flat over many HTTP requests: each POST gets a fresh MCP server, so building one
 * (and listing its tools) must leave nothing behind. zod's global registry keeps every schema that
 * was ever given a description, for good, so it is the place where a per-server `.describe()` shows.
 */
import { LinkShortClient } from "@linkshort/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import * as z from "zod/v4";
import { createLinkShortMcpServer } from "../src/server";

const client = new LinkShortClient({ baseUrl: "http://127.0.0.1:9", apiKey: "memory-test-key-0123456789" });

async function serveOneRequest(admin: boolean): Promise<number> {
  const server = createLinkShortMcpServer({ client, admin });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const mcpClient = new Client({ name: "memory-test", version: "1.0.0" });
  await mcpClient.connect(clientSide);
  const { tools } = await mcpClient.listTools();
  await mcpClient.close();
  await server.close();
  return tools.length;
}

const registrySize = () => (z.globalRegistry as unknown as { _map: Map<unknown, unknown> })._map.size;

test("building a server per request and listing its tools adds nothing to zod's global registry", async () => {
  expect(await serveOneRequest(true)).toBe(17);
  const before = registrySize();
  for (let request = 0; request < 200; request += 1) await serveOneRequest(request % 2 === 0);
  expect(registrySize()).toBe(before);
});
