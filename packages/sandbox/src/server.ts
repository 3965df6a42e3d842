import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Failure, findRoute, type ApiBody } from "./api";
import { FaultInjector, type FaultRule } from "./faults";
import { handlePublic, notFoundPage } from "./public";
import { seed, type SeedName } from "./seed";
import { Store } from "./store";
import type { Mode } from "./views";

export interface SandboxOptions {
  /** 0 picks a free port. Default 0. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** "deployed" (default) answers as real servers do; "document" as api-v3.md shows. */
  mode?: Mode;
  /** Requests per window and key (default 30 per 60 s). */
  rateLimit?: { limit?: number; windowMs?: number };
  /** Keep state in this JSON file across restarts; in memory when absent. */
  dataFile?: string;
  /** What a new store starts with (default "demo"). */
  seed?: SeedName;
  /** Fixed API keys for the seeded admin and user (random when absent). */
  keys?: { admin?: string; user?: string };
  /** Faults injected from the start. */
  faults?: FaultRule[];
  /** Seed of the fault dice, for repeatable runs. */
  faultSeed?: number;
  /** The clock (epoch ms); injectable for tests. */
  now?: () => number;
  /** The public address used in short URLs (default the listening address). */
  publicUrl?: string;
  /** Largest request body accepted, in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** Serve `/__sandbox/*` control routes (fault injection, mode) over HTTP. Default true. */
  control?: boolean;
}

export interface Sandbox {
  baseUrl: string;
  adminKey: string;
  userKey: string;
  store: Store;
  faults: FaultInjector;
  mode: Mode;
  /** Every API request served, in order (method, path and query), for request-count assertions. */
  requests: Array<{ method: string; path: string; query: string }>;
  /** Called (and awaited) before each API request is carried out: tests use it to change data mid-poll. */
  onApiRequest?: (request: { method: string; path: string; query: URLSearchParams }) => void | Promise<void>;
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY = 1024 * 1024;

class RateWindows {
  private counts = new Map<string, { windowEnd: number; used: number }>();
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Counts a request of this key; windows are aligned to multiples of the window length. */
  hit(key: string, now: number): { headers: Record<string, string>; exceeded: boolean; retryAfter: number } {
    const windowEnd = (Math.floor(now / this.windowMs) + 1) * this.windowMs;
    let entry = this.counts.get(key);
    if (!entry || entry.windowEnd !== windowEnd) {
      entry = { windowEnd, used: 0 };
      this.counts.set(key, entry);
      if (this.counts.size > 10_000) this.prune(now);
    }
    entry.used += 1;
    return {
      headers: {
        "X-RateLimit-Limit": String(this.limit),
        "X-RateLimit-Remaining": String(Math.max(0, this.limit - entry.used)),
        "X-RateLimit-Reset": String(Math.ceil(windowEnd / 1000)),
      },
      exceeded: entry.used > this.limit,
      retryAfter: Math.max(1, Math.ceil((windowEnd - now) / 1000)),
    };
  }

  private prune(now: number): void {
    for (const [key, entry] of this.counts) if (entry.windowEnd <= now) this.counts.delete(key);
  }
}

function sendJson(response: ServerResponse, status: number, body: unknown, mode: Mode, headers: Record<string, string> = {}): void {
  let text = JSON.stringify(body);
  // PHP's json_encode escapes slashes.
  if (mode === "deployed") text = text.replace(/\//g, "\\/");
  response.writeHead(status, { "Content-Type": "application/json; charset=utf-8", ...headers });
  response.end(text);
}

async function readBody(request: IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Starts a sandbox server; resolves once it listens. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const now = options.now ?? (() => Date.now());
  const store = new Store(options.dataFile);
  const faults = new FaultInjector(options.faultSeed);
  if (options.faults) faults.set(options.faults);
  const windows = new RateWindows(options.rateLimit?.limit ?? 30, options.rateLimit?.windowMs ?? 60_000);
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const requests: Sandbox["requests"] = [];
  let baseUrl = "";

  const sandbox = { faults, store, mode: options.mode ?? "deployed", requests } as Sandbox;

  async function applyFault(rule: FaultRule, response: ServerResponse, request: IncomingMessage, rateHeaders: Record<string, string>, answer: () => void): Promise<void> {
    switch (rule.kind) {
      case "drop":
        request.socket.destroy();
        return;
      case "delay":
        await new Promise((resolve) => setTimeout(resolve, rule.delayMs ?? 5000).unref());
        if (!response.destroyed) answer();
        return;
      case "5xx":
        response.writeHead(rule.status ?? 503, { "Content-Type": "text/html", ...rateHeaders });
        response.end("<html><body><h1>503 Service Unavailable</h1></body></html>");
        return;
      case "html":
        response.writeHead(200, { "Content-Type": "text/html", ...rateHeaders });
        response.end("<!DOCTYPE html><html><body><h1>Whoops, looks like something went wrong.</h1></body></html>");
        return;
      case "empty":
        response.writeHead(200, { "Content-Type": "application/json", ...rateHeaders });
        response.end();
        return;
      case "malformed":
        response.writeHead(200, { "Content-Type": "application/json", ...rateHeaders });
        response.end('{"error":0,"data":{"result":3,"urls":[{"id":1,');
        return;
      case "429":
        response.writeHead(429, { "Content-Type": "text/html", "Retry-After": "1", ...rateHeaders });
        response.end("<html><body>429 Too Many Requests</body></html>");
        return;
    }
  }

  async function handleApi(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    const method = request.method ?? "GET";
    const path = url.pathname;
    if (requests.length < 1_000_000) requests.push({ method, path, query: url.search });
    const raw = await readBody(request, maxBody);
    await sandbox.onApiRequest?.({ method, path, query: url.searchParams });
    const current = now();
    const authorization = String(request.headers.authorization ?? "");
    // Counted per Authorization header, before authentication, as deployed servers do.
    const rate = windows.hit(authorization, current);
    const mode = sandbox.mode;
    if (raw === undefined) {
      sendJson(response, 413, { error: 1, message: "The request body is too large." }, mode, { ...rate.headers, Connection: "close" });
      return;
    }
    if (rate.exceeded) {
      sendJson(response, 200, { error: 429, message: "Too Many API Requests.", "Retry-After": rate.retryAfter }, mode, rate.headers);
      return;
    }
    const requestId = typeof request.headers["x-request-id"] === "string" ? request.headers["x-request-id"] : undefined;
    const before = faults.pick(method, path, "before", requestId);
    const reply = (status: number, body: ApiBody | undefined) => () => {
      if (body === undefined) notFoundPage(response, status);
      else sendJson(response, status, body, mode, rate.headers);
    };
    if (before && before.kind !== "delay") return applyFault(before, response, request, rate.headers, () => undefined);

    const { status, body } = answer(method, path, url, raw, authorization, current);
    const after = faults.pick(method, path, "after", requestId);
    const fault = before ?? after;
    if (fault) return applyFault(fault, response, request, rate.headers, reply(status, body));
    reply(status, body)();
  }

  /** Carries out one API request: the status and JSON body to answer with (body undefined: the HTML 404/405 page). */
  function answer(method: string, path: string, url: URL, raw: string, authorization: string, current: number): { status: number; body?: ApiBody } {
    const mode = sandbox.mode;
    const key = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
    const user = key ? store.userByKey(key) : undefined;
    if (!user) return { status: 403, body: { error: 1, message: "A valid API key is required to use this service." } };
    const { route, params, pathMatched } = findRoute(method, path);
    if (!route) {
      if (mode === "deployed") return { status: pathMatched ? 405 : 404 };
      return { status: 404, body: { error: 1, message: "This endpoint does not exist." } };
    }
    let body: Record<string, unknown> = {};
    if (raw.trim() !== "") {
      try {
        const parsed: unknown = JSON.parse(raw);
        if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Failure("The request body must be a JSON object.");
        body = parsed as Record<string, unknown>;
      } catch (error) {
        return { status: 200, body: { error: 1, message: error instanceof Failure ? error.message : "The request body is not valid JSON." } };
      }
    }
    try {
      const result = route.handler({ store, user, body, query: url.searchParams, params, mode, baseUrl, now: current });
      if (route.writes) store.changed();
      return { status: 200, body: result };
    } catch (error) {
      if (error instanceof Failure) return { status: error.status, body: { error: 1, message: error.message } };
      console.error(error);
      return { status: 500, body: { error: 1, message: "An internal error occurred." } };
    }
  }

  async function handleControl(request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
    const raw = (await readBody(request, maxBody)) ?? "";
    try {
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      if (path === "/__sandbox/faults" && request.method === "POST") faults.set((body.rules as FaultRule[]) ?? []);
      else if (path === "/__sandbox/faults" && request.method === "DELETE") faults.clear();
      else if (path === "/__sandbox/mode" && request.method === "POST") {
        if (body.mode !== "deployed" && body.mode !== "document") throw new Error('mode must be "deployed" or "document"');
        sandbox.mode = body.mode;
      } else return notFoundPage(response);
      sendJson(response, 200, { error: 0, mode: sandbox.mode, injected: faults.injected }, "document");
    } catch (error) {
      sendJson(response, 400, { error: 1, message: error instanceof Error ? error.message : String(error) }, "document");
    }
  }

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://sandbox.invalid");
    const path = url.pathname;
    const handle = async () => {
      if (path === "/api" || path.startsWith("/api/")) return handleApi(request, response, url);
      if (path.startsWith("/__sandbox/") && options.control !== false) return handleControl(request, response, path);
      if (path === "/" || path === "/health") {
        response.writeHead(200, { "Content-Type": "text/plain" });
        response.end("linkshort sandbox\n");
        return;
      }
      const handled = await handlePublic(request, response, path, store, baseUrl, now());
      if (!handled) notFoundPage(response);
    };
    handle().catch((error: unknown) => {
      console.error(error);
      if (!response.headersSent) notFoundPage(response, 500);
      else response.destroy();
    });
  });
  server.keepAliveTimeout = 5000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  baseUrl = (options.publicUrl ?? `http://${host}:${address.port}`).replace(/\/+$/, "");

  if (store.isNew) {
    seed(store, options.seed ?? "demo", now(), options.keys);
    store.changed();
  }
  const admin = store.state.users.find((user) => user.admin);
  const normal = store.state.users.find((user) => !user.admin);
  Object.assign(sandbox, {
    baseUrl,
    adminKey: admin?.apiKey ?? "",
    userKey: normal?.apiKey ?? "",
    close: async () => {
      store.flush();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
  return sandbox;
}
