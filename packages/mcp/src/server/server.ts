import type { LinkShortClient } from "@linkshort/client";
import {
  CLIENT_CAPABILITIES_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolResult,
  type ClientCapabilities,
  type ServerContext,
  type Tool,
} from "@modelcontextprotocol/server";
import packageJson from "../../package.json";
import { APP_RESOURCES, readAppResource, rendersApps, UI_EXTENSION, VIEW_CHART_META_KEY } from "../view/apps";
import { confirmationCodec, confirmationNeeded } from "./confirmation";
import { capped, deadlineFailure, describeFailure, invalidArguments, unknownTool } from "../failures/describe";
import type { ServerLinkIndex } from "../account/server-index";
import { serverLinkIndexFor } from "../account/server-indexes";
import { TOOLS, TOOLS_BY_NAME } from "../tools";
import { AnswerWithImage, type ConfirmationSeal, type ToolContext, type ToolDefinition } from "../tools/define";

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
  /**
   * The key (at least 32 bytes) that signs the request state of a delete's question, so that only the
   * answer to that question, for that call, confirms it. Servers behind one address that may each get
   * a question's answer need the same key. Default: one random key per process.
   */
  requestStateKey?: Uint8Array | string;
}

/** How long a tool that answers at its deadline with what it did (shorten_links) has to do so once its signal aborts. */
const ANSWER_AFTER_ABORT_MS = 2_000;

const INSTRUCTIONS =
  "Tools for a link-shortening service account (LinkShort / Link-Shortening Service API v3). Use find_links to " +
  "find existing short links (it searches every link of the account), shorten_link to create one (reuse: true gives " +
  "back an existing link to the same URL), shorten_links for several, get_link for a link's click statistics, or with a period its clicks by hour, day, week or month (without id: the account's top links); update_links and delete_links to change or delete links after a preview. Ids come from find_links and shorten_link. When a tool answers \"rate limited, retry after N s\", wait " +
  "that long before calling again.";

/**
 * How long a client may keep the tool list (2026-07-28 `ttlMs`): it changes only when the server is
 * restarted with other options. Private: it says which tools this server's key may use.
 */
const LIST_CACHE = { ttlMs: 10 * 60_000, cacheScope: "private" } as const;

const USER_TOOLS = TOOLS.filter((tool) => !tool.admin);
const USER_LISTING: Tool[] = USER_TOOLS.map((tool) => tool.listing);
const ALL_LISTING: Tool[] = TOOLS.map((tool) => tool.listing);
const USER_LISTING_WITH_APPS: Tool[] = USER_TOOLS.map((tool) => tool.listingWithApps);
const ALL_LISTING_WITH_APPS: Tool[] = TOOLS.map((tool) => tool.listingWithApps);

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
  seal: ConfirmationSeal,
  cancelled: AbortSignal,
  deadlineMs: number,
  progress: ToolContext["progress"],
  viewShown: boolean,
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
  const work = tool.run(args, { client, links, seal, signal: controller.signal, deadlineAt: Date.now() + deadlineMs, progress });
  // The work may still fail after the deadline answered; that failure has nobody left to tell.
  work.catch(() => undefined);
  try {
    const outcome = await Promise.race([work, deadline]);
    if (outcome === "deadline") return toolError(deadlineFailure(tool.name, deadlineMs + tool.graceMs, tool.changes));
    const answer = outcome instanceof AnswerWithImage ? outcome : new AnswerWithImage(outcome, undefined);
    const structured = redactedDeep(answer.structured, (text) => client.redact(text)) as Record<string, unknown>;
    const content: CallToolResult["content"] = [{ type: "text", text: JSON.stringify(structured) }];
    if (answer.image) content.push({ type: "image", data: answer.image.data, mimeType: answer.image.mimeType });
    if (answer.chart && !viewShown) content.push({ type: "image", ...answer.chart() });
    if (answer.viewChart && viewShown)
      return { content, structuredContent: structured, _meta: { [VIEW_CHART_META_KEY]: redactedDeep(answer.viewChart(), (text) => client.redact(text)) } };
    return { content, structuredContent: structured };
  } catch (error) {
    return toolError(client.redact(describeFailure(error, tool.name)));
  } finally {
    clearTimeout(timer);
    cancelled.removeEventListener("abort", cancel);
  }
}

/**
 * Progress notifications for one call, when its request carries a progress token: each a little
 * further than the last (the protocol wants them rising), sent without waiting.
 */
function progressReporter(ctx: ServerContext): ToolContext["progress"] {
  const token = ctx.mcpReq._meta?.progressToken;
  if (token === undefined) return () => undefined;
  let last = Number.NEGATIVE_INFINITY;
  return (progress, total, message) => {
    if (!(progress > last) || ctx.mcpReq.signal.aborted) return;
    last = progress;
    const params = { progressToken: token, progress, ...(total !== undefined ? { total } : {}), ...(message !== undefined ? { message } : {}) };
    ctx.mcpReq.notify({ method: "notifications/progress", params }).catch(() => undefined);
  };
}

/**
 * What the client behind a request can do: a 2026-07-28 request declares it in its own `_meta`, a
 * 2025-era client at `initialize` (over stdio; a stateless HTTP request of that era has no
 * initialize behind it, so it declares nothing).
 */
function clientCapabilities(server: Server, ctx: ServerContext): ClientCapabilities | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? server.getClientCapabilities();
}

/** An MCP server whose tools call `client`. Cheap to make: every tool definition and schema is shared. */
export function createLinkShortMcpServer(options: LinkShortMcpOptions): Server {
  const { client } = options;
  const deadlineMs = options.callDeadlineMs ?? DEFAULT_CALL_DEADLINE_MS;
  const links = options.linkIndex ?? serverLinkIndexFor(client);
  const codec = confirmationCodec(options.requestStateKey);
  const server = new Server(
    { name: "linkshort", title: "LinkShort", version: packageJson.version },
    {
      capabilities: { tools: {}, resources: {}, extensions: { [UI_EXTENSION]: {} } },
      instructions: INSTRUCTIONS,
      // Checked before any handler runs: a state this process did not sign, or past its time, is a -32602.
      requestState: { verify: (state, ctx) => codec.verify(state, ctx) },
      cacheHints: {
        "tools/list": LIST_CACHE,
        "server/discover": LIST_CACHE,
        "resources/list": LIST_CACHE,
        "resources/templates/list": LIST_CACHE,
        // The view changes only with the server's version.
        "resources/read": { ttlMs: 60 * 60_000, cacheScope: "public" },
      },
    },
  );
  const listing = options.admin ? ALL_LISTING : USER_LISTING;
  const listingWithApps = options.admin ? ALL_LISTING_WITH_APPS : USER_LISTING_WITH_APPS;
  server.setRequestHandler("tools/list", (_request, ctx) => ({ tools: rendersApps(clientCapabilities(server, ctx)) ? listingWithApps : listing }));
  server.setRequestHandler("resources/list", (_request, ctx) => ({ resources: rendersApps(clientCapabilities(server, ctx)) ? APP_RESOURCES : [] }));
  server.setRequestHandler("resources/templates/list", () => ({ resourceTemplates: [] }));
  server.setRequestHandler("resources/read", (request) => readAppResource(request.params.uri));
  server.setRequestHandler("tools/call", async (request, ctx) => {
    const name = capped(request.params.name, 100);
    const tool = TOOLS_BY_NAME.get(name);
    // A name the server does not offer is the caller's mistake in the request itself: a protocol error.
    if (!tool || (tool.admin && !options.admin)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, unknownTool(name, tool !== undefined));
    const parsed = tool.input.safeParse(request.params.arguments ?? {});
    if (!parsed.success) return toolError(client.redact(invalidArguments(tool.name, parsed.error.issues)));
    const unconfirmed = await confirmationNeeded(tool, parsed.data, ctx, clientCapabilities(server, ctx), codec);
    if (unconfirmed) return unconfirmed;
    const viewShown = tool.listingWithApps !== tool.listing && rendersApps(clientCapabilities(server, ctx));
    const seal: ConfirmationSeal = { mint: (payload) => codec.mint(payload), open: (state) => codec.verify(state, ctx) };
    const result = await runWithDeadline(tool, parsed.data, client, links, seal, ctx.mcpReq.signal, deadlineMs, progressReporter(ctx), viewShown);
    return server.projectCallToolResult(result, tool.listing.outputSchema);
  });
  return server;
}
