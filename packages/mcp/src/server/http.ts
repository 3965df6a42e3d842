import { createMcpHandler, type McpHttpHandler, type Server } from "@modelcontextprotocol/server";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { isIPv6, type AddressInfo } from "node:net";
import type { Person } from "../auth/people";
import { jsonRpcErrorAnswer, writeAnswer } from "../auth/answer";
import { isLoopback, LOOPBACK_NAMES, readBoundedBody, sameSecret } from "../auth/request-checks";
import { API_KEY_HEADER, SignIn, type SignInSettings } from "../auth/sign-in";
import { redactSecrets } from "../auth/tokens";

export interface HttpServerOptions {
  port: number;
  /** The address to bind. Beyond loopback only with a `token`. */
  host: string;
  /** Host names clients may address besides the loopback ones (and the bound address itself). */
  allowedHosts?: readonly string[];
  /** The bearer token every request must carry; required when `host` is not a loopback address. */
  token?: string;
  /** Everyone signs in as themselves (OAuth, or their key in a header) instead of a team token. */
  signIn?: SignInSettings;
  /** Removes every key and token from a failed request's message before it is logged. Default: anything that looks like one (`redactSecrets`). */
  redact?: (text: string) => string;
}

export interface HttpServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:3000/mcp */
  url: string;
  /** With sign-in: the public MCP endpoint (the resource tokens are for). */
  resource?: string;
  close(): Promise<void>;
}

const WILDCARD_ADDRESSES = new Set(["0.0.0.0", "::", "[::]", ""]);
/** The largest request body taken (refused from its Content-Length, before it is read). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Headers longer than this are refused before they are looked at. */
const MAX_HEADER_LENGTH = 2048;

/** A host as URLs write it (lower case, IPv6 in brackets), or "" when it is no host. */
function hostnameOf(host: string | undefined): string {
  if (!host || host.length > MAX_HEADER_LENGTH) return "";
  try {
    return new URL(`http://${isIPv6(host) ? `[${host}]` : host}`).hostname;
  } catch {
    return "";
  }
}

/** A configuration the HTTP server refuses to start with. */
export class UnsafeHttpConfigurationError extends Error {
  override name = "UnsafeHttpConfigurationError";
}

const sendJsonRpcError = (response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) =>
  writeAnswer(response, jsonRpcErrorAnswer(status, message, headers));

/** Whether the request carries the server's token (compared in constant time). */
function carriesToken(authorization: string | undefined, expected: string): boolean {
  if (!authorization || authorization.length > MAX_HEADER_LENGTH || authorization.slice(0, 7).toLowerCase() !== "bearer ") return false;
  return sameSecret(authorization.slice(7).trim(), expected);
}

/**
 * Hands one checked request to the SDK's handler as a web Request and writes its Response back,
 * streamed (progress arrives as server-sent events). A client that goes away aborts the request,
 * which cancels its tool call.
 */
async function serveThroughSdk(mcp: McpHttpHandler, request: IncomingMessage, response: ServerResponse, person?: Person): Promise<void> {
  const body = await readBoundedBody(request, MAX_BODY_BYTES);
  const gone = new AbortController();
  response.on("close", () => gone.abort());
  const headers = new Headers();
  for (let i = 0; i + 1 < request.rawHeaders.length; i += 2) {
    // A person's key goes no further than the check of it.
    if (request.rawHeaders[i]!.toLowerCase() !== API_KEY_HEADER) headers.append(request.rawHeaders[i]!, request.rawHeaders[i + 1]!);
  }
  const answer = await mcp.fetch(
    new Request(new URL(request.url ?? "/mcp", "http://localhost"), { method: "POST", headers, body, signal: gone.signal }),
    person === undefined ? undefined : { authInfo: { token: "", clientId: "", scopes: [], extra: { person } } },
  );
  writeAnswer(response, { status: answer.status, headers: Object.fromEntries(answer.headers), body: answer.body ?? "" });
}

/**
 * Serves Streamable HTTP at `/mcp`, statelessly, through the SDK's handler: a 2026-07-28 request
 * (its revision in `_meta`) and a 2025-era one (the initialize handshake, then plain requests) each
 * get a fresh MCP server over the same client (so the client's pacing is shared). Whatever the bind,
 * it answers only requests addressed to an allowed host name (keeping web pages from reaching it by
 * DNS rebinding), refuses pages of other origins, and, given a token, requests without it. Beyond
 * loopback it starts only with a token, or with sign-in, where each request acts as the person it
 * was signed in as (`createMcpServer` gets that person).
 */
export async function startHttpServer(createMcpServer: (person?: Person) => Server, listen: HttpServerOptions): Promise<HttpServer> {
  if (!isLoopback(listen.host) && listen.token === undefined && listen.signIn === undefined) {
    throw new UnsafeHttpConfigurationError(`serving on ${listen.host}, beyond this machine, needs a bearer token`);
  }
  const allowed = new Set([...LOOPBACK_NAMES, ...(listen.allowedHosts ?? []).map(hostnameOf)]);
  if (!WILDCARD_ADDRESSES.has(listen.host)) allowed.add(hostnameOf(listen.host));
  allowed.delete("");
  const expectedToken = listen.token;
  if (listen.signIn?.publicUrl !== undefined) allowed.add(new URL(listen.signIn.publicUrl).hostname);
  const mcp = createMcpHandler((context) => createMcpServer(context.authInfo?.extra?.person as Person | undefined), {
    legacy: "stateless",
    maxRequestBodySize: MAX_BODY_BYTES,
  });
  // Made once the address is known (the public address defaults to it).
  let signIn: SignIn | undefined;

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (!allowed.has(hostnameOf(request.headers.host))) {
      sendJsonRpcError(response, 403, "Forbidden: this server answers only requests addressed to an allowed host name");
      return;
    }
    const url = new URL(request.url ?? "/", "http://localhost");
    // The sign-in's endpoints check origins their own way (the sign-in form must be same-origin; the others carry no cookies).
    if (signIn !== undefined && (await signIn.route(request, response, url))) return;
    const origin = request.headers.origin;
    if (origin !== undefined && !allowed.has(originHost(origin))) {
      sendJsonRpcError(response, 403, "Forbidden: requests from this origin are not allowed");
      return;
    }
    if (expectedToken !== undefined && !carriesToken(request.headers.authorization, expectedToken)) {
      sendJsonRpcError(response, 401, "Unauthorized: send the server's token as Authorization: Bearer <token>", { "WWW-Authenticate": "Bearer" });
      return;
    }
    if (url.pathname !== "/mcp") {
      sendJsonRpcError(response, 404, "Not found: the MCP endpoint is /mcp");
      return;
    }
    if (request.method !== "POST") {
      response.setHeader("Allow", "POST");
      sendJsonRpcError(response, 405, "Method not allowed: this stateless server takes POST only");
      return;
    }
    const length = Number(request.headers["content-length"]);
    if (request.headers["content-length"] === undefined) {
      sendJsonRpcError(response, 411, "Length required: send the body with a Content-Length");
      return;
    }
    if (!Number.isSafeInteger(length) || length > MAX_BODY_BYTES) {
      response.setHeader("Connection", "close");
      sendJsonRpcError(response, 413, `Payload too large: at most ${MAX_BODY_BYTES / 1024 / 1024} MiB`);
      return;
    }
    if (signIn === undefined) return serveThroughSdk(mcp, request, response);
    const person = await signIn.personOf(request.headers, signIn.clientAddressOf(request));
    if (!("client" in person)) return writeAnswer(response, person);
    await serveThroughSdk(mcp, request, response, person);
  };
  const httpServer = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      process.stderr.write(
        `linkshort-mcp: request failed: ${error instanceof Error ? (listen.redact ?? redactSecrets)(error.message).slice(0, 500) : "unknown error"}\n`,
      );
      if (!response.headersSent) sendJsonRpcError(response, 500, "Internal server error");
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(listen.port, listen.host, resolve);
  });
  const { port } = httpServer.address() as AddressInfo;
  const host = listen.host.includes(":") ? `[${listen.host}]` : listen.host;
  if (listen.signIn !== undefined)
    signIn = new SignIn(listen.signIn, listen.signIn.publicUrl ?? `http://${WILDCARD_ADDRESSES.has(listen.host) ? "127.0.0.1" : host}:${port}`);
  return {
    url: `http://${host}:${port}/mcp`,
    ...(signIn !== undefined ? { resource: signIn.resource } : {}),
    close: () =>
      new Promise<void>((resolve, reject) => {
        void mcp.close();
        httpServer.closeAllConnections();
        httpServer.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** The host of an Origin header ("" for `null` or anything unreadable, which no allow-list holds). */
function originHost(origin: string): string {
  if (origin.length > MAX_HEADER_LENGTH) return "";
  try {
    return new URL(origin).hostname;
  } catch {
    return "";
  }
}
