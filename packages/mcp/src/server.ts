import type { LinkShortClient } from "@linkshort/client";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import packageJson from "../package.json";
import { registerAdminTools, registerTools } from "./tools";

export interface LinkShortMcpOptions {
  client: LinkShortClient;
  /** Offer the administrators' tools (plans, users). */
  admin?: boolean;
}

const INSTRUCTIONS =
  "Tools for a link-shortening service account (LinkShort / Link-Shortening Service API v3). Use find_links to " +
  "find existing short links before creating new ones, shorten_link to create one, get_link for a link's click " +
  "statistics. Ids come from find_links and shorten_link. When a tool answers \"rate limited, retry after N s\", wait " +
  "that long before calling again.";

/** An MCP server whose tools call `client`. */
export function createLinkShortMcpServer(options: LinkShortMcpOptions): McpServer {
  const server = new McpServer({ name: "linkshort", version: packageJson.version }, { instructions: INSTRUCTIONS });
  registerTools(server, options.client);
  if (options.admin) registerAdminTools(server, options.client);
  return server;
}

export interface HttpServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:3000/mcp */
  url: string;
  close(): Promise<void>;
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

function hostnameOf(hostHeader: string | undefined): string {
  if (!hostHeader) return "";
  try {
    return new URL(`http://${hostHeader}`).hostname;
  } catch {
    return "";
  }
}

function sendJsonRpcError(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { "Content-Type": "application/json" });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

/**
 * Serves Streamable HTTP at `/mcp`, statelessly: each POST gets a fresh MCP server over the same
 * client (so the client's pacing is shared). Bound to a loopback address, it answers only requests
 * addressed to one, which keeps web pages from reaching it by DNS rebinding.
 */
export async function startHttpServer(createMcpServer: () => McpServer, listen: { port: number; host: string }): Promise<HttpServer> {
  const loopbackOnly = LOOPBACK_HOSTS.has(listen.host);
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (loopbackOnly && !LOOPBACK_HOSTS.has(hostnameOf(request.headers.host))) {
      sendJsonRpcError(response, 403, "Forbidden: this server answers only requests addressed to localhost");
      return;
    }
    if (new URL(request.url ?? "/", "http://localhost").pathname !== "/mcp") {
      sendJsonRpcError(response, 404, "Not found: the MCP endpoint is /mcp");
      return;
    }
    if (request.method !== "POST") {
      response.setHeader("Allow", "POST");
      sendJsonRpcError(response, 405, "Method not allowed: this stateless server takes POST only");
      return;
    }
    const server = createMcpServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response);
  };
  const httpServer = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      process.stderr.write(`linkshort-mcp: request failed: ${error instanceof Error ? error.message : String(error)}\n`);
      if (!response.headersSent) sendJsonRpcError(response, 500, "Internal server error");
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(listen.port, listen.host, resolve);
  });
  const { port } = httpServer.address() as AddressInfo;
  const host = listen.host.includes(":") ? `[${listen.host}]` : listen.host;
  return {
    url: `http://${host}:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        httpServer.closeAllConnections();
        httpServer.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
