/**
 * An MCP Apps host in the real browser, for the statistics view's tests: a page holding the view in
 * a sandboxed iframe (scripts only, an opaque origin) that answers `ui/initialize`, feeds the view a
 * tool call's arguments and answer by postMessage (`ui/notifications/tool-input`, then
 * `tool-result`) and sizes the iframe by its `size-changed` notifications.
 */
import type { Browser, Frame, Page } from "playwright-core";

/** The host page at `width` pixels; `startView(html, args, result, theme)` starts the view, `args` null sends no tool input. */
const hostPage = (
  width: number,
) => `<!DOCTYPE html><html><head><style>body{margin:0;background:#808080}iframe{display:block;border:0;width:${width}px;height:40px}</style></head>
<body><iframe id="view" sandbox="allow-scripts"></iframe><script>
const frame = document.getElementById("view");
window.host = { received: [], resultSent: false, sizesAfterResult: 0 };
window.startView = (html, args, result, theme) => {
  window.addEventListener("message", (event) => {
    if (event.source !== frame.contentWindow) return;
    const message = event.data;
    host.received.push(message);
    const reply = (body) => frame.contentWindow.postMessage(Object.assign({ jsonrpc: "2.0" }, body), "*");
    if (message.method === "ui/initialize") {
      reply({ id: message.id, result: { protocolVersion: "2026-01-26", hostInfo: { name: "test-host", version: "1.0.0" }, hostCapabilities: {},
        hostContext: { theme, displayMode: "inline", containerDimensions: { width: ${width}, maxHeight: 4000 } } } });
    } else if (message.method === "ui/notifications/initialized") {
      if (args !== null) reply({ method: "ui/notifications/tool-input", params: { arguments: args } });
      reply({ method: "ui/notifications/tool-result", params: result });
      host.resultSent = true;
    } else if (message.method === "ui/notifications/size-changed") {
      frame.style.height = message.params.height + "px";
      if (host.resultSent) host.sizesAfterResult += 1;
    }
  });
  frame.srcdoc = html;
};
</script></body></html>`;

export interface ViewToHost {
  /** The view's page (`resources/read`'s text, or the server's constant). */
  html: string;
  /** The tool call's answer, as the host got it. */
  result: unknown;
  /** The tool call's arguments, sent as tool input before the answer; none sent without them. */
  args?: Record<string, unknown>;
  theme?: "light" | "dark";
  /** The iframe's width; the page's viewport is as wide. */
  width: number;
  /** The page's viewport height. */
  height: number;
}

export interface HostedView {
  page: Page;
  /** The view's iframe. */
  view: Frame;
  /** Console errors and uncaught page errors, in order. */
  errors: string[];
  /** Every URL the page and the view asked for. */
  requests: string[];
}

/** Opens a host page in `browser`, starts the view in it with one tool call, and answers once the view has sized itself after the answer. The caller closes `page`. */
export async function hostView(browser: Browser, { html, result, args, theme = "light", width, height }: ViewToHost): Promise<HostedView> {
  const page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1 });
  const errors: string[] = [];
  const requests: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("request", (request) => requests.push(request.url()));
  try {
    await page.setContent(hostPage(width), { waitUntil: "load" });
    await page.evaluate(`window.startView(${JSON.stringify(html)}, ${JSON.stringify(args ?? null)}, ${JSON.stringify(result)}, ${JSON.stringify(theme)})`);
    await page.waitForFunction("window.host.sizesAfterResult > 0", undefined, { timeout: 10_000 });
  } catch (error) {
    await page.close();
    throw error;
  }
  const view = page.frames().find((frame) => frame !== page.mainFrame())!;
  return { page, view, errors, requests };
}

/** Every message the view sent the host, in order. */
export const receivedBy = (page: Page) => page.evaluate<Array<{ method?: string; params?: Record<string, unknown> }>>("window.host.received");
