import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { findRoute } from "./routes";
import { Failure, type ApiBody } from "./routes/shared";
import { FaultInjector, type FaultRule } from "./faults";
import { handlePublic, notFoundPage } from "./public";
import { seed, seedLinks, type SeedOption } from "./seed";
import { SaveError, Store } from "./store";
import type { Mode } from "./views";

export interface SandboxOptions {
  /** 0 picks a free port. Default 0. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** "deployed" (default) answers as real servers do; "document" as docs/api.md describes. */
  mode?: Mode;
  /** Requests per window and key (default 30 per 60 s). */
  rateLimit?: { limit?: number; windowMs?: number };
  /** Keep state in this JSON file across restarts; in memory when absent. */
  dataFile?: string;
  /**
   * What a new store starts with (default "demo"). `{ links: 100000 }` gives the demo user that
   * many generated links (dated newest first, with titles and descriptions) on top of `base`
   * (default "minimal"): an account of any size in about a second.
   */
  seed?: SeedOption;
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
  /** Serve `/__sandbox/*` control routes (fault injection, mode) over HTTP, to the admin key and JSON only. Default true. */
  control?: boolean;
  /** Bounds of `sandbox.requests`: the newest `maxEntries` (default 50,000) of the last `maxAgeMs` (default 1 hour). */
  requestLog?: { maxEntries?: number; maxAgeMs?: number };
}

export interface LoggedRequest {
  method: string;
  path: string;
  query: string;
}

export interface Sandbox {
  baseUrl: string;
  adminKey: string;
  userKey: string;
  store: Store;
  faults: FaultInjector;
  mode: Mode;
  /**
   * The API requests served, in order (method, path and query, each cut at 512 characters), for
   * request-count assertions: the newest 50,000 of the last hour unless `requestLog` says otherwise.
   */
  requests: LoggedRequest[];
  /** Called (and awaited) before each API request is carried out: tests use it to change data mid-poll. */
  onApiRequest?: (request: { method: string; path: string; query: URLSearchParams }) => void | Promise<void>;
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY = 1024 * 1024;

/** Request counts per key and window. Bounded: at most `maxKeys` keys, stored as digests, the oldest dropped first. */
export class RateWindows {
  private counts = new Map<string, { windowEnd: number; used: number }>();
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxKeys = 10_000,
  ) {}

  get size(): number {
    return this.counts.size;
  }

  /** Counts a request of this key; windows are aligned to multiples of the window length. */
  hit(key: string, now: number): { headers: Record<string, string>; exceeded: boolean; retryAfter: number } {
    const windowEnd = (Math.floor(now / this.windowMs) + 1) * this.windowMs;
    // A digest keeps each entry small whatever the header's length.
    const digest = createHash("sha256").update(key).digest("base64");
    let entry = this.counts.get(digest);
    if (!entry || entry.windowEnd !== windowEnd) {
      this.counts.delete(digest);
      if (this.counts.size >= this.maxKeys) this.prune(now);
      entry = { windowEnd, used: 0 };
      this.counts.set(digest, entry);
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

  /** Drops ended windows; if that is not enough, the oldest tenth of the keys (Map order is insertion order). */
  private prune(now: number): void {
    for (const [key, entry] of this.counts) if (entry.windowEnd <= now) this.counts.delete(key);
    if (this.counts.size < this.maxKeys) return;
    let excess = this.counts.size - Math.floor(this.maxKeys * 0.9);
    for (const key of this.counts.keys()) {
      if (excess-- <= 0) break;
      this.counts.delete(key);
    }
  }
}

const LOGGED_FIELD_LENGTH = 512;
const cut = (text: string) => (text.length > LOGGED_FIELD_LENGTH ? `${text.slice(0, LOGGED_FIELD_LENGTH)}…` : text);

/** The newest requests, bounded in number and in age; old ones leave in batches, so each request costs O(1) on average. */
class RequestLog {
  readonly entries: LoggedRequest[] = [];
  private readonly times: number[] = [];
  constructor(
    private readonly maxEntries: number,
    private readonly maxAgeMs: number,
  ) {}

  add(method: string, path: string, query: string, now: number): void {
    let old = 0;
    while (old < this.times.length && this.times[old]! <= now - this.maxAgeMs) old += 1;
    const over = this.entries.length + 1 - this.maxEntries;
    const drop = Math.max(old, over > 0 ? over + Math.floor(this.maxEntries / 10) : 0);
    if (drop > 0) {
      this.entries.splice(0, drop);
      this.times.splice(0, drop);
    }
    this.entries.push({ method: cut(method), path: cut(path), query: cut(query) });
    this.times.push(now);
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

const bearerKey = (authorization: string) => /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];

/** A JSON object from a request body, or an Error saying what it is instead. */
function parseObject(raw: string, what: string): Record<string, unknown> {
  if (raw.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Failure(`${what} is not valid JSON.`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Failure(`${what} must be a JSON object.`);
  return parsed as Record<string, unknown>;
}

function badRequest(response: ServerResponse, message: string): void {
  response.writeHead(400, { "Content-Type": "text/plain; charset=utf-8", Connection: "close" });
  response.end(`400 Bad Request: ${message}\n`);
}

const CONTROL_MAX_BODY = 64 * 1024;

/** Starts a sandbox server; resolves once it listens. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
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
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;

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
    log.add(method, path, url.search, now());
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

  function saveQuietly(): void {
    try {
      store.commit();
    } catch (error) {
      console.error(error instanceof Error ? error.message : error);
    }
  }

  /** Carries out one API request: the status and JSON body to answer with (body undefined: the HTML 404/405 page). */
  function answer(method: string, path: string, url: URL, raw: string, authorization: string, current: number): { status: number; body?: ApiBody } {
    const mode = sandbox.mode;
    const key = bearerKey(authorization);
    const user = key ? store.userByKey(key) : undefined;
    if (!user) return { status: 403, body: { error: 1, message: "A valid API key is required to use this service." } };
    const { route, params, pathMatched } = findRoute(method, path);
    if (!route) {
      if (mode === "deployed") return { status: pathMatched ? 405 : 404 };
      return { status: 404, body: { error: 1, message: "This endpoint does not exist." } };
    }
    try {
      const body = parseObject(raw, "The request body");
      const result = route.handler({ store, user, body, query: url.searchParams, params, mode, baseUrl: sandbox.baseUrl, now: current });
      if (route.writes) store.commit();
      return { status: 200, body: result };
    } catch (error) {
      if (error instanceof Failure) {
        // Whatever the handler changed before it refused is kept, in memory and in the file alike.
        if (route.writes) saveQuietly();
        return { status: error.status, body: { error: 1, message: error.message } };
      }
      if (error instanceof SaveError) return { status: 503, body: { error: 1, message: error.message } };
      console.error(error);
      return { status: 500, body: { error: 1, message: "An internal error occurred." } };
    }
  }

  /** `/__sandbox/*`: fault injection and mode, for the admin key and JSON only, so that no web page can post to it. */
  async function handleControl(request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
    const method = request.method;
    const known = (path === "/__sandbox/faults" && (method === "POST" || method === "DELETE")) || (path === "/__sandbox/mode" && method === "POST");
    if (!known) return notFoundPage(response);
    const raw = await readBody(request, CONTROL_MAX_BODY);
    const reply = (status: number, body: Record<string, unknown>) => sendJson(response, status, body, "document");
    if (!store.userByKey(bearerKey(String(request.headers.authorization ?? "")) ?? "")?.admin) {
      return reply(403, { error: 1, message: "The admin API key is required (Authorization: Bearer <admin key>)." });
    }
    if (raw === undefined) return reply(413, { error: 1, message: "The request body is too large." });
    const type = String(request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    if (method === "POST" && type !== "application/json") return reply(415, { error: 1, message: "Content-Type must be application/json." });
    try {
      const body = parseObject(raw, "The body");
      if (path === "/__sandbox/mode") {
        if (body.mode !== "deployed" && body.mode !== "document") throw new Failure('mode must be "deployed" or "document"');
        sandbox.mode = body.mode;
      } else if (method === "DELETE") faults.clear();
      else if (!Array.isArray(body.rules)) throw new Failure("rules must be an array of fault rules");
      else faults.set(body.rules);
      reply(200, { error: 0, mode: sandbox.mode, injected: faults.injected });
    } catch (error) {
      reply(400, { error: 1, message: error instanceof Error ? error.message : String(error) });
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname;
    if (path === "/api" || path.startsWith("/api/")) return handleApi(request, response, url);
    if (path.startsWith("/__sandbox/") && options.control !== false) return handleControl(request, response, path);
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

  // Requests are served only from the next turn of the event loop, when `sandbox` is set.
  const sandbox: Sandbox = {
    baseUrl: (options.publicUrl ?? `http://${host}:${address.port}`).replace(/\/+$/, ""),
    adminKey: store.state.users.find((user) => user.admin)?.apiKey ?? "",
    userKey: store.state.users.find((user) => !user.admin)?.apiKey ?? "",
    store,
    faults,
    mode: options.mode ?? "deployed",
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
  return sandbox;
}
