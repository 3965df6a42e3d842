/**
 * An HTTP client that goes away mid-call cancels the call: the server stops waiting on the service
 * (it closes its request there) instead of holding it to the deadline. For both eras' requests.
 */
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import type { ChildProcess } from "node:child_process";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startHttpServerProcess } from "./helpers";

let sandbox: Sandbox;
/** The sandbox, except that link 7 is never answered. */
let hung: Server;
let mcp: ChildProcess;
let url: string;
/** Requests the service got and never answered, each with whether its connection has closed. */
const waiting: Array<{ request: IncomingMessage; closed: Promise<void> }> = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  hung = createServer((request, response) => {
    if (/^\/api\/url\/7(\?|$)/.test(request.url ?? "")) {
      waiting.push({ request, closed: new Promise((resolve) => request.socket.once("close", () => resolve())) });
      return;
    }
    // Everything else (the link index's sync, which starts with the server) goes to the sandbox.
    void fetch(`${sandbox.baseUrl}${request.url ?? "/"}`, { headers: { authorization: request.headers.authorization ?? "" } }).then(async (answer) => {
      response.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
      response.end(await answer.text());
    });
  });
  await new Promise<void>((resolve) => hung.listen(0, "127.0.0.1", resolve));
  const { port } = hung.address() as AddressInfo;
  ({ child: mcp, url } = await startHttpServerProcess({ baseUrl: `http://127.0.0.1:${port}`, apiKey: sandbox.userKey }, ["--deadline", "60"]));
});

afterAll(async () => {
  mcp.kill();
  hung.closeAllConnections();
  hung.close();
  await sandbox.close();
});

const CURRENT_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

test.each([
  ["a 2025-era request", {}, {}],
  ["a 2026-07-28 request", { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "get_link" }, { _meta: CURRENT_META }],
])("%s whose client disconnects stops waiting on the service", async (_era, headers, extra) => {
  const before = waiting.length;
  const aborted = new AbortController();
  const answer = fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_link", arguments: { id: 7 }, ...extra } }),
    signal: aborted.signal,
  }).then((response) => response.text());
  answer.catch(() => undefined);
  const deadline = Date.now() + 10_000;
  while (waiting.length === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(waiting.length).toBe(before + 1);
  aborted.abort();
  const closed = await Promise.race([waiting[before]!.closed.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000))]);
  expect(closed).toBe(true);
});
