/**
 * The MCP server served in memory as the CLI serves it over stdio (one server per connection, a
 * client of either protocol era), with a test's MCP client connected to it: no process, no pipe.
 * `serveInMemory` is the lower half, for a test that speaks the raw wire itself.
 */
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { APP_MIME_TYPE, UI_EXTENSION } from "../src/view/apps";
import { createLinkShortMcpServer, type LinkShortMcpOptions } from "../src/server/server";

/** The capabilities of a client that renders MCP Apps (the statistics view). */
export const APPS_CAPABILITIES = { extensions: { [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } };

/** An MCP client of either SDK, with its request handlers already set. */
interface McpClientSide {
  connect(transport: InMemoryTransport): Promise<void>;
}

/** Serves a server made with `options` in memory: the client's end of the wire, and the served connection (`close()` ends it). */
export function serveInMemory(options: LinkShortMcpOptions): { clientSide: InMemoryTransport; connection: ReturnType<typeof serveStdio> } {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const connection = serveStdio(() => createLinkShortMcpServer(options), { transport: serverSide });
  return { clientSide, connection };
}

/** Serves a server made with `options` and connects `client` to it; answers the served connection (`close()` ends it). */
export async function connectInMemory(client: McpClientSide, options: LinkShortMcpOptions): Promise<ReturnType<typeof serveStdio>> {
  const { clientSide, connection } = serveInMemory(options);
  await client.connect(clientSide);
  return connection;
}
