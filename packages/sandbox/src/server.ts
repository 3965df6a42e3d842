import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { FaultInjector } from "./faults/fault-injector";
import { handleApiRequest, type ApiServer } from "./http/api-requests";
import { handleControl } from "./http/control-routes";
import { sendJson } from "./http/http-io";
import { RateWindows } from "./http/rate-windows";
import { RequestLog } from "./request-log";
import { oversizedPagesOf } from "./oversized-pages";
import { notFoundPage } from "./pages/html";
import { overviewPage } from "./pages/overview-page";
import { handlePublic } from "./pages/public-pages";
import { SaveError, Store } from "./persistence/store";
import type { Sandbox, SandboxOptions } from "./sandbox";
import { seedLinks } from "./seed/generated-links";
import { seed } from "./seed/seed";

const DEFAULT_MAX_BODY = 1024 * 1024;

function badRequest(response: ServerResponse, message: string): void {
  response.writeHead(400, { "Content-Type": "text/plain; charset=utf-8", Connection: "close" });
  response.end(`400 Bad Request: ${message}\n`);
}

/** Starts a sandbox server; resolves once it listens. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  if (options.maxPageSize !== undefined && !(Number.isSafeInteger(options.maxPageSize) && options.maxPageSize > 0)) {
    throw new Error(`maxPageSize: ${String(options.maxPageSize)} must be a positive whole number`);
  }
  if (options.oversizedPages !== undefined) oversizedPagesOf(options.oversizedPages, "oversizedPages");
  const now = options.now ?? (() => Date.now());
  const store = new Store(options.dataFile);
  try {
    if (store.isNew) {
      const chosen = options.seed ?? "demo";
      const bulk = typeof chosen === "object" ? chosen : undefined;
      seed(store, typeof chosen === "object" ? (chosen.base ?? "minimal") : chosen, now(), options.keys);
      if (bulk) seedLinks(store, store.state.users.find((user) => !user.admin)!.id, bulk.links, now());
    }
    // A first save proves the data file can be written, before the sandbox says it listens.
    store.commit();
    return await listen(store, options, now);
  } catch (error) {
    store.abandon();
    throw error;
  }
}

async function listen(store: Store, options: SandboxOptions, now: () => number): Promise<Sandbox> {
  const faults = new FaultInjector(options.faultSeed);
  if (options.faults) faults.set(options.faults);
  const windows = new RateWindows(options.rateLimit?.limit ?? 30, options.rateLimit?.windowMs ?? 60_000);
  const log = new RequestLog(options.requestLog?.maxEntries ?? 50_000, options.requestLog?.maxAgeMs ?? 3_600_000);

  /** Sends each request to the API, the control routes, the health check or the public pages (short links, QR codes, logins). */
  async function handle(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname;
    if (path === "/api" || path.startsWith("/api/")) return handleApiRequest(api, request, response, url);
    if (path.startsWith("/__sandbox/") && options.control !== false) return handleControl(sandbox, request, response, path);
    // A browser gets the overview page; scripts and health checks keep the one line of text.
    if (path === "/" && request.method === "GET" && (request.headers.accept ?? "").includes("text/html"))
      return overviewPage(response, store, sandbox.baseUrl, now());
    if (path === "/" || path === "/health") {
      response.writeHead(200, { "Content-Type": "text/plain" });
      response.end("linkshort sandbox\n");
      return;
    }
    const handled = await handlePublic(request, response, path, store, sandbox.baseUrl, now());
    if (!handled) notFoundPage(response);
  }

  /** No request, however malformed, may end the process: whatever goes wrong is answered, or the connection closed. */
  function failed(response: ServerResponse, error: unknown): void {
    // A client that went away mid-request (ECONNRESET while reading its body) is nothing to report.
    if (response.destroyed) return;
    if (!(error instanceof SaveError)) console.error(error);
    if (response.headersSent) response.destroy();
    else if (error instanceof SaveError) sendJson(response, 503, { error: 1, message: error.message }, "document");
    else notFoundPage(response, 500);
  }

  const server: Server = createServer((request, response) => {
    let url: URL;
    try {
      url = new URL(request.url ?? "/", "http://sandbox.invalid");
    } catch {
      // An absolute-form target (`GET http://[ HTTP/1.1`) that is not a URL.
      badRequest(response, "the request target is not a valid URL");
      return;
    }
    handle(request, response, url).catch((error: unknown) => failed(response, error));
  });
  server.keepAliveTimeout = 5000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;

  // Requests are served only from the next turn of the event loop, when `sandbox` and `api` are set.
  const sandbox: Sandbox = {
    baseUrl: (options.publicUrl ?? `http://${host}:${address.port}`).replace(/\/+$/, ""),
    adminKey: store.state.users.find((user) => user.admin)?.apiKey ?? "",
    userKey: store.state.users.find((user) => !user.admin)?.apiKey ?? "",
    store,
    faults,
    mode: options.mode ?? "deployed",
    maxPageSize: options.maxPageSize,
    oversizedPages: options.oversizedPages ?? "cap",
    dateTies: options.dateTies ?? "by-id",
    requests: log.entries,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      try {
        // Changes made to `store.state` directly, by tests, are saved too.
        store.close();
      } catch (error) {
        console.error(error);
      }
    },
  };
  const api: ApiServer = { sandbox, windows, log, maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY, now };
  return sandbox;
}
