/**
 * The few messages of the MCP Apps protocol (stable revision 2026-01-26) the view needs, as JSON-RPC
 * over `postMessage` to the host's frame: ui/initialize, ui/notifications/initialized, tool-result,
 * tool-cancelled, host-context-changed, size-changed, resource-teardown and ping. Written here rather
 * than bundling the ext-apps SDK, whose App class brings the MCP SDK and zod into the page.
 */

interface JsonRpcMessage {
  jsonrpc: "2.0";
  id?: unknown;
  method?: unknown;
  params?: unknown;
  result?: unknown;
  error?: unknown;
}

/** What the view does with what the host sends. */
export interface HostEvents {
  /** ui/notifications/tool-result: the tool's result (`CallToolResult`). */
  toolResult(result: unknown): void;
  /** ui/notifications/tool-cancelled. */
  toolCancelled(): void;
}

/** The host's style variables the view takes (`--color-*`, `--font-sans`); any other is ignored. */
const STYLE_VARIABLES = ["--color-background-primary", "--color-text-primary", "--color-text-secondary", "--color-border-primary", "--font-sans"];
const MAX_STYLE_VALUE_LENGTH = 200;

/** The host's theme and style variables (a `HostContext`), applied to the page. */
function applyContext(context: unknown): void {
  if (!context || typeof context !== "object") return;
  const { theme, styles } = context as { theme?: unknown; styles?: { variables?: unknown } };
  if (theme === "light" || theme === "dark") document.documentElement.setAttribute("data-theme", theme);
  const variables = styles && styles.variables;
  if (variables && typeof variables === "object") {
    for (const name of STYLE_VARIABLES) {
      const value: unknown = (variables as Record<string, unknown>)[name];
      if (typeof value === "string" && value.length <= MAX_STYLE_VALUE_LENGTH) document.documentElement.style.setProperty(name, value);
    }
  }
}

export class HostConnection {
  private nextId = 1;
  /** Requests sent and not answered yet, by id as text (as a JSON-RPC answer may write it). */
  private readonly pending = new Map<string, { resolve(result: unknown): void; reject(error: unknown): void }>();
  private lastSize = "";

  constructor(private readonly events: HostEvents) {
    window.addEventListener("message", (event) => {
      if (event.source === window.parent) this.receive(event.data);
    });
  }

  /**
   * ui/initialize, then ui/notifications/initialized and the page's size whenever it changes:
   * nothing but ui/initialize goes before the host answers it. `refused` runs when the host refuses.
   */
  start(refused: () => void): void {
    const initialize = this.request("ui/initialize", {
      protocolVersion: "2026-01-26",
      appInfo: { name: "linkshort-statistics", version: "1.0.0" },
      appCapabilities: { availableDisplayModes: ["inline"] },
    });
    initialize.then((result) => {
      applyContext(result && typeof result === "object" ? (result as { hostContext?: unknown }).hostContext : undefined);
      this.notify("ui/notifications/initialized", {});
      new ResizeObserver(() => this.reportSize()).observe(document.documentElement);
    }, refused);
  }

  private send(message: Omit<JsonRpcMessage, "jsonrpc">): void {
    window.parent.postMessage({ ...message, jsonrpc: "2.0" }, "*");
  }

  private request(method: string, params: unknown): Promise<unknown> {
    const id = this.nextId++;
    this.send({ id, method, params });
    return new Promise((resolve, reject) => this.pending.set(String(id), { resolve, reject }));
  }

  private notify(method: string, params: unknown): void {
    this.send({ method, params });
  }

  private reportSize(): void {
    const width = Math.ceil(document.documentElement.scrollWidth);
    const height = Math.ceil(document.documentElement.scrollHeight);
    const size = `${width}x${height}`;
    if (size === this.lastSize) return;
    this.lastSize = size;
    this.notify("ui/notifications/size-changed", { width, height });
  }

  private receive(data: unknown): void {
    if (!data || typeof data !== "object" || (data as JsonRpcMessage).jsonrpc !== "2.0") return;
    const message = data as JsonRpcMessage;
    if (typeof message.method !== "string") {
      const waiting = this.pending.get(String(message.id));
      if (!waiting) return;
      this.pending.delete(String(message.id));
      if (message.error) waiting.reject(message.error);
      else waiting.resolve(message.result);
      return;
    }
    const isRequest = message.id !== undefined && message.id !== null;
    switch (message.method) {
      case "ui/notifications/tool-result":
        this.events.toolResult(message.params);
        break;
      case "ui/notifications/host-context-changed":
        applyContext(message.params);
        break;
      case "ui/notifications/tool-cancelled":
        this.events.toolCancelled();
        break;
      case "ui/resource-teardown":
      case "ping":
        if (isRequest) this.send({ id: message.id, result: {} });
        break;
      default:
        if (isRequest) this.send({ id: message.id, error: { code: -32601, message: "Method not found" } });
    }
  }
}
