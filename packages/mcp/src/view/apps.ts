/**
 * MCP Apps (extension `io.modelcontextprotocol/ui`, stable revision 2026-01-26), negotiated as the
 * extension says: a client that declares it with the `text/html;profile=mcp-app` mime type sees the
 * `ui://` view in resources/list and on get_link's and get_qr_code's
 * `_meta.ui.resourceUri`, and those tools no longer send the chart as an image (the view shows it). Every other client sees
 * the tools and answers it saw before; resources/read serves the view to whoever asks for it.
 *
 * The view's page (page.ts: its script bundled, its style sheet, its CSP's hashes) is built at the
 * first resources/read, not at start: a stdio server is spawned for every conversation, and most
 * never read the view.
 */
import { ProtocolError, ProtocolErrorCode, type ClientCapabilities, type ReadResourceResult, type Resource } from "@modelcontextprotocol/server";

export { VIEW_CHART_META_KEY } from "./contract";

export const UI_EXTENSION = "io.modelcontextprotocol/ui";
export const APP_MIME_TYPE = "text/html;profile=mcp-app";
export const STATISTICS_VIEW_URI = "ui://linkshort/statistics.html";

/** The host builds the view's CSP from this: no domain of any kind, so nothing is loaded or called. */
const VIEW_META = { ui: { csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] }, prefersBorder: true } };

const STATISTICS_VIEW: Resource = {
  uri: STATISTICS_VIEW_URI,
  name: "statistics",
  title: "Click statistics",
  description:
    "Interactive chart of a link's or QR code's statistics (clicks, unique clicks, top countries, referrers, browsers, OS), shown with get_link and get_qr_code, " +
    "and of clicks over time with get_link",
  mimeType: APP_MIME_TYPE,
  _meta: VIEW_META,
};

export const APP_RESOURCES: Resource[] = [STATISTICS_VIEW];

let statisticsViewContents: Promise<ReadResourceResult> | undefined;

/** The view's resource, its page built once, at the first read. */
function statisticsView(): Promise<ReadResourceResult> {
  return (statisticsViewContents ??= import("./page").then(({ STATISTICS_VIEW_HTML }) => ({
    contents: [{ uri: STATISTICS_VIEW_URI, mimeType: APP_MIME_TYPE, text: STATISTICS_VIEW_HTML, _meta: VIEW_META }],
  })));
}

/** The `_meta` a tool lists to be shown with the view; the flat key is the one hosts read before the nested one. */
export const STATISTICS_VIEW_TOOL_META = { ui: { resourceUri: STATISTICS_VIEW_URI }, "ui/resourceUri": STATISTICS_VIEW_URI };

/** Whether these client capabilities declare MCP Apps with HTML views. */
export function rendersApps(capabilities: ClientCapabilities | undefined): boolean {
  const extensions: unknown = capabilities?.extensions;
  if (extensions === null || typeof extensions !== "object") return false;
  const settings: unknown = (extensions as Record<string, unknown>)[UI_EXTENSION];
  if (settings === null || typeof settings !== "object") return false;
  const mimeTypes: unknown = (settings as Record<string, unknown>).mimeTypes;
  return Array.isArray(mimeTypes) && mimeTypes.includes(APP_MIME_TYPE);
}

/** resources/read: the view, or the -32602 error naming the URI that SEP-2164 asks for. */
export async function readAppResource(uri: string): Promise<ReadResourceResult> {
  if (uri === STATISTICS_VIEW_URI) return statisticsView();
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource not found: ${uri.slice(0, 200)}`, { uri });
}
