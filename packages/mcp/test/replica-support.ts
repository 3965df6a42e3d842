/** Replicas of the built server on one store, and a round-robin proxy in front of them, for the store's tests. */
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startHttpServerProcess, type HttpServerProcess } from "./helpers";
import { MemoryOAuthProvider, signIn } from "./sign-in-helpers";

export interface RoundRobin {
  url: string;
  /** Where the proxy sends requests, in turn; replaced as replicas come and go. */
  targets: string[];
  /** Requests each target was sent. */
  served: Map<string, number>;
  /** How many answers of each status came back. */
  statuses: Map<number, number>;
  /** Answers that said the rate limit was reached (a 429 status, or the API's `"error": 429` envelope that deployed servers send with 200). */
  limited: number;
  close(): Promise<void>;
}

/** A proxy that sends each request to the next target in turn, as a load balancer without affinity does. */
export async function roundRobin(): Promise<RoundRobin> {
  let next = 0;
  const proxy: RoundRobin = { url: "", targets: [], served: new Map(), statuses: new Map(), limited: 0, close: () => Promise.resolve() };
  const server: Server = createServer((request, response) => {
    const target = proxy.targets[next++ % proxy.targets.length]!;
    proxy.served.set(target, (proxy.served.get(target) ?? 0) + 1);
    const upstream = httpRequest(new URL(request.url ?? "/", target), { method: request.method, headers: request.headers }, (answer) => {
      proxy.statuses.set(answer.statusCode ?? 502, (proxy.statuses.get(answer.statusCode ?? 502) ?? 0) + 1);
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      let head = "";
      answer.on("data", (chunk: Buffer) => (head = head.length < 200 ? head + chunk.toString() : head));
      answer.on("end", () => {
        if (answer.statusCode === 429 || /"error"\s*:\s*429/.test(head)) proxy.limited += 1;
      });
      answer.pipe(response);
    });
    upstream.on("error", () => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}

/** A replica of the built server on `store`: its origin (for the proxy) and its process. */
export async function startReplica(
  env: { baseUrl: string; apiKey: string },
  store: string,
  args: string[],
  leaseMs = 1500,
): Promise<HttpServerProcess & { origin: string }> {
  const replica = await startHttpServerProcess({ ...env, more: { LINKSHORT_MCP_STORE: store, LINKSHORT_MCP_SWEEP_LEASE_MS: String(leaseMs) } }, args);
  return { ...replica, origin: new URL(replica.url).origin };
}

/** Signs `apiKey`'s person in through `mcpUrl` with the MCP SDK's OAuth client, as sign-in.test.ts does. */
export async function signedInClient(mcpUrl: string, apiKey: string): Promise<{ client: Client; provider: MemoryOAuthProvider }> {
  const provider = new MemoryOAuthProvider();
  const first = new Client({ name: "replica-test", version: "1.0.0" });
  await first.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider })).then(
    () => {
      throw new Error("connected without signing in");
    },
    (error: unknown) => {
      if (!(error instanceof UnauthorizedError)) throw error;
    },
  );
  const back = await signIn(new URL(mcpUrl).origin, provider.authorizationUrl!, apiKey);
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
  await transport.finishAuth(back);
  const client = new Client({ name: "replica-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, provider };
}

export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError: boolean; text: string; structured: Record<string, unknown> }> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as Array<{ text?: string }>).map((part) => part.text ?? "").join("\n");
  return { isError: result.isError === true, text, structured: (result.structuredContent ?? {}) as Record<string, unknown> };
}

/** Waits until `check` holds, at most `ms`. */
export async function eventually<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  ms: number,
  what: string | (() => string),
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`not within ${ms} ms: ${typeof what === "string" ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
