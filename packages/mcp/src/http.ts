import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type HttpServerOptions = { port: number; host: string };

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
export async function startHttpServer(createMcpServer: () => Server, listen: HttpServerOptions): Promise<HttpServer> {
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
