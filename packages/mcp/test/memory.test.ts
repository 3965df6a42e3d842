/**
 * Memory stays flat over many HTTP requests: each POST gets a fresh MCP server, so building one
 * (and listing its tools) must leave nothing behind. zod's global registry keeps every schema that
 * was ever given a description, for good, so it is the place where a per-server `.describe()` shows.
 */
import { LinkShortClient } from "@linkshort/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import * as z from "zod/v4";
import { STATISTICS_VIEW_URI } from "../src/view/apps";
import { APPS_CAPABILITIES, connectInMemory } from "./in-memory";
import { TOOLS } from "../src/tools";

const client = new LinkShortClient({ baseUrl: "http://127.0.0.1:9", apiKey: "memory-test-key-0123456789" });

/** One server and one client; a client that renders MCP Apps also reads the view. Answers how many tools it listed and how many with the view. */
async function serveOneRequest(admin: boolean, apps = false): Promise<number> {
  const mcpClient = new Client({ name: "memory-test", version: "1.0.0" }, { capabilities: apps ? APPS_CAPABILITIES : {} });
  const connection = await connectInMemory(mcpClient, { client, admin });
  const { tools } = await mcpClient.listTools();
  const withView = tools.filter((tool) => tool._meta !== undefined).length;
  if (apps) expect((await mcpClient.readResource({ uri: STATISTICS_VIEW_URI })).contents).toHaveLength(1);
  expect(withView).toBe(apps ? 2 : 0);
  await mcpClient.close();
  await connection.close();
  return tools.length;
}

const registrySize = () => (z.globalRegistry as unknown as { _map: Map<unknown, unknown> })._map.size;

test("building a server per request and listing its tools adds nothing to zod's global registry, with or without MCP Apps", async () => {
  expect(await serveOneRequest(true)).toBe(17);
  expect(await serveOneRequest(true, true)).toBe(17);
  const before = registrySize();
  for (let request = 0; request < 200; request += 1) await serveOneRequest(request % 2 === 0, request % 4 < 2);
  expect(registrySize()).toBe(before);
});

test("the listing a client of MCP Apps sees is built once per tool: the same objects, the view added only where a tool has it", () => {
  for (const tool of TOOLS) {
    if (["get_link", "get_qr_code"].includes(tool.name))
      expect(tool.listingWithApps).toEqual({ ...tool.listing, _meta: expect.objectContaining({ ui: { resourceUri: STATISTICS_VIEW_URI } }) });
    else expect(tool.listingWithApps).toBe(tool.listing);
  }
  expect(TOOLS.find((tool) => tool.name === "get_link")!.listingWithApps.inputSchema).toBe(TOOLS.find((tool) => tool.name === "get_link")!.listing.inputSchema);
});
