import type { LinkShortClient } from "@linkshort/client";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import packageJson from "../package.json";
import { capped, deadlineFailure, describeFailure, invalidArguments, unknownTool } from "./failures";
import { serverLinkIndexFor, type ServerLinkIndex } from "./link-index";
import { TOOLS, TOOLS_BY_NAME } from "./tools";
import { AnswerWithImage, type ToolDefinition } from "./tools/define";

export { startHttpServer, type HttpServer, type HttpServerOptions } from "./http";

/** The longest a tool call may take, waits for the rate limit and retries included: well under the 60 s after which clients give up. */
export const DEFAULT_CALL_DEADLINE_MS = 25_000;

export interface LinkShortMcpOptions {
  client: LinkShortClient;
  /** Offer the administrators' tools (plans, users). */
  admin?: boolean;
  /** The longest one tool call may take before it answers with a tool error. Default 25 s. */
  callDeadlineMs?: number;
  /** The link index find_links searches; by default one per client, in memory, first synced on the first lookup. */
  linkIndex?: ServerLinkIndex;
}

/** How long a tool that answers at its deadline with what it did (shorten_links) has to do so once its signal aborts. */
const ANSWER_AFTER_ABORT_MS = 2_000;

const INSTRUCTIONS =
  "Tools for a link-shortening service account (LinkShort / Link-Shortening Service API v3). Use find_links to " +
  "find existing short links (it searches every link of the account), shorten_link to create one (reuse: true gives " +
  "back an existing link to the same URL), shorten_links for several, get_link for a link's click statistics. Ids come from find_links and shorten_link. When a tool answers \"rate limited, retry after N s\", wait " +
  "that long before calling again.";

const USER_TOOLS = TOOLS.filter((tool) => !tool.admin);
const USER_LISTING: Tool[] = USER_TOOLS.map((tool) => tool.listing);
const ALL_LISTING: Tool[] = TOOLS.map((tool) => tool.listing);

function toolError(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** Every string in a value, redacted: a server may echo the key in any field of a successful answer too. */
function redactedDeep(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactedDeep(item, redact));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactedDeep(item, redact)]));
  }
  return value;
}

/**
 * Runs one tool call until it answers, the client cancels it, or its deadline passes. The client's
 * own calls obey the same signal, so a cancelled or late call stops asking the server (and spending
 * the key's rate limit); the race makes sure the answer comes at the deadline whatever happens.
 */
async function runWithDeadline(
  tool: ToolDefinition,
  args: unknown,
  client: LinkShortClient,
  links: ServerLinkIndex,
  cancelled: AbortSignal,
  deadlineMs: number,
): Promise<CallToolResult> {
  const controller = new AbortController();
  const cancel = () => controller.abort();
  if (cancelled.aborted) cancel();
  cancelled.addEventListener("abort", cancel, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"deadline">((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      if (tool.graceMs === 0) resolve("deadline");
      else timer = setTimeout(() => resolve("deadline"), ANSWER_AFTER_ABORT_MS);
    }, deadlineMs + tool.graceMs);
  });
  const work = tool.run(args, { client, links, signal: controller.signal, deadlineAt: Date.now() + deadlineMs });
  // The work may still fail after the deadline answered; that failure has nobody left to tell.
  work.catch(() => undefined);
  try {
    const outcome = await Promise.race([work, deadline]);
    if (outcome === "deadline") return toolError(deadlineFailure(tool.name, deadlineMs + tool.graceMs, tool.changes));
    const answer = outcome instanceof AnswerWithImage ? outcome : new AnswerWithImage(outcome, undefined);
    const structured = redactedDeep(answer.structured, (text) => client.redact(text)) as Record<string, unknown>;
    const content: CallToolResult["content"] = [{ type: "text", text: JSON.stringify(structured) }];
    if (answer.image) content.push({ type: "image", data: answer.image.data, mimeType: answer.image.mimeType });
    if (answer.chart) content.push({ type: "image", data: answer.chart.data, mimeType: answer.chart.mimeType });
    return { content, structuredContent: structured };
  } catch (error) {
    return toolError(client.redact(describeFailure(error, tool.name)));
  } finally {
    clearTimeout(timer);
    cancelled.removeEventListener("abort", cancel);
  }
}

/** An MCP server whose tools call `client`. Cheap to make: every tool definition and schema is shared. */
export function createLinkShortMcpServer(options: LinkShortMcpOptions): Server {
  const { client } = options;
  const deadlineMs = options.callDeadlineMs ?? DEFAULT_CALL_DEADLINE_MS;
  const links = options.linkIndex ?? serverLinkIndexFor(client);
  const server = new Server({ name: "linkshort", version: packageJson.version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const listing = options.admin ? ALL_LISTING : USER_LISTING;
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listing }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const name = capped(request.params.name, 100);
    const tool = TOOLS_BY_NAME.get(name);
    if (!tool || (tool.admin && !options.admin)) return toolError(unknownTool(name, tool !== undefined));
    const parsed = tool.input.safeParse(request.params.arguments ?? {});
    if (!parsed.success) return toolError(client.redact(invalidArguments(tool.name, parsed.error.issues)));
    return runWithDeadline(tool, parsed.data, client, links, extra.signal, deadlineMs);
  });
  return server;
}
