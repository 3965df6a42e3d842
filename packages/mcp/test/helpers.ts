/** Starts the built `linkshort-mcp` as an MCP client would, and talks to it with the SDK's own Client. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { MCP_CLI, startMcpHttpProcess, type McpHttpProcess } from "../../../test/support/mcp-process";

export const CLI = MCP_CLI;

if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);

export interface ToolAnswer {
  isError: boolean;
  text: string;
  structured: Record<string, unknown> | undefined;
}

export interface Session {
  client: Client;
  /** Calls a tool and keeps its answer's text for the key checks. */
  call(name: string, args?: Record<string, unknown>): Promise<ToolAnswer>;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Every text a tool sent back so far. */
  transcript: string[];
  close(): Promise<void>;
}

/** A stdio session with the built server, configured by environment as an MCP client would (`more`: further variables). */
export async function startSession(env: { baseUrl: string; apiKey: string; more?: Record<string, string> }, args: string[] = []): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, ...args],
    env: { PATH: process.env.PATH ?? "", LINKSHORT_BASE_URL: env.baseUrl, LINKSHORT_API_KEY: env.apiKey, ...env.more },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: "linkshort-mcp-test", version: "1.0.0" });
  await client.connect(transport);
  return sessionOf(client, () => stderr);
}

export function sessionOf(client: Client, stderr: () => string): Session {
  const transcript: string[] = [];
  return {
    client,
    transcript,
    stderr,
    async call(name, args = {}) {
      const result = await client.callTool({ name, arguments: args });
      const content = Array.isArray(result.content) ? (result.content as Array<{ type: string; text?: string }>) : [];
      const text = content.map((part) => part.text ?? "").join("\n");
      transcript.push(text);
      return { isError: result.isError === true, text, structured: result.structuredContent as Record<string, unknown> | undefined };
    },
    close: () => client.close(),
  };
}

/** A local address where nothing listens. */
export async function unusedAddress(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

export type HttpServerProcess = McpHttpProcess;

/** The built server on Streamable HTTP at a free port (`--http 0` and `args`), once it says where it listens. */
export async function startHttpServerProcess(
  env: { baseUrl: string; apiKey: string; more?: Record<string, string> },
  args: string[] = [],
): Promise<HttpServerProcess> {
  return await startMcpHttpProcess({ LINKSHORT_BASE_URL: env.baseUrl, LINKSHORT_API_KEY: env.apiKey, ...env.more }, args);
}

/** Anything that calls a tool as the SDKs' clients do (the v1 and the 2026 client alike). */
interface CallsTools {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<object>;
}

/** delete_links' arguments for one link, its preview's confirmation among them: the call that deletes (after the person's yes, where the client can ask). */
export async function confirmedDelete(client: CallsTools, id: number): Promise<Record<string, unknown>> {
  const preview = await client.callTool({ name: "delete_links", arguments: { ids: [id] } });
  return { ids: [id], confirmation: (preview as { structuredContent: { confirmation: string } }).structuredContent.confirmation };
}
