/**
 * The sign-in's requests and answers as values: what it reads of a request (`SignInRequest`), what
 * it answers (`Answer`), and the one writer of an answer to the socket (`writeAnswer`). Every
 * endpoint is a function from the one to the other, so the protocol is tested without a socket.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { OAuthError, OAuthErrorCode } from "./oauth-error";
import { BodyTooLargeError, readBoundedBody } from "./request-checks";

export interface SignInRequest {
  method: string;
  url: URL;
  /** By lower-case name, as Node gives them. */
  headers: IncomingHttpHeaders;
  /** The body as text ("" when there is none). */
  body: string;
  /** The client's address: the peer's, or behind a trusted proxy the one it forwards for (`client-address.ts`). */
  address: string;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** A stream is the MCP handler's answer, written as it comes (progress arrives as server-sent events). */
  body: string | Uint8Array | ReadableStream<Uint8Array>;
}

/** Forms and registrations are small: anything larger is refused before it is read. */
export const MAX_FORM_BYTES = 64 * 1024;

/** Token and metadata answers are never cached (RFC 6749 §5.1) and may be read by any origin (no cookies are involved). */
const JSON_HEADERS = { "Content-Type": "application/json", "Cache-Control": "no-store", "Access-Control-Allow-Origin": "*" };

/** The one writer of an answer to the socket. A streamed body ends with the client gone, and its failure ends the connection. */
export function writeAnswer(response: ServerResponse, answer: Answer): void {
  response.writeHead(answer.status, answer.headers);
  if (typeof answer.body === "string" || answer.body instanceof Uint8Array) {
    response.end(answer.body);
    return;
  }
  const stream = Readable.fromWeb(answer.body);
  stream.on("error", () => response.destroy());
  response.on("close", () => stream.destroy());
  stream.pipe(response);
}

export function jsonAnswer(status: number, body: unknown, headers: Record<string, string> = {}): Answer {
  return { status, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) };
}

export function oauthErrorAnswer(error: OAuthError, headers: Record<string, string> = {}): Answer {
  const challenge: Record<string, string> = error.status === 401 ? { "WWW-Authenticate": 'Basic realm="linkshort-mcp"' } : {};
  return jsonAnswer(error.status, error.toResponseObject(), { ...headers, ...challenge });
}

/** A JSON-RPC error answered at the HTTP level, before any MCP server sees the request. */
export function jsonRpcErrorAnswer(status: number, message: string, headers: Record<string, string> = {}): Answer {
  return {
    status,
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }),
  };
}

/** An answer the SDK made as a web Response (its metadata documents and bearer challenges). */
export async function answerOf(response: Response): Promise<Answer> {
  return { status: response.status, headers: Object.fromEntries(response.headers), body: Buffer.from(await response.arrayBuffer()) };
}

/** A 303 to `uri` with these query parameters added (those undefined left out). */
export function redirectAnswer(uri: string, params: Record<string, string | undefined>, headers: Record<string, string> = {}): Answer {
  const target = new URL(uri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) target.searchParams.set(name, value);
  return { status: 303, headers: { Location: target.href, "Cache-Control": "no-store", ...headers }, body: "" };
}

/** The values of a request on the socket from the client at `address`, its body read (a POST's, at most MAX_FORM_BYTES). */
export async function signInRequestOf(request: IncomingMessage, url: URL, address: string): Promise<SignInRequest> {
  let body = "";
  if (request.method === "POST") {
    try {
      body = (await readBoundedBody(request, MAX_FORM_BYTES)).toString("utf8");
    } catch (error) {
      if (error instanceof BodyTooLargeError) throw new OAuthError(OAuthErrorCode.InvalidRequest, error.message, 413);
      throw error;
    }
  }
  return { method: request.method ?? "GET", url, headers: request.headers, body, address };
}

/** A form body (application/x-www-form-urlencoded), each field at most once. */
export function formOf(request: SignInRequest): Map<string, string> {
  const type = (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") throw new OAuthError(OAuthErrorCode.InvalidRequest, "send the body as application/x-www-form-urlencoded");
  const fields = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(request.body)) {
    if (fields.has(name)) throw new OAuthError(OAuthErrorCode.InvalidRequest, `${name} is given more than once`);
    fields.set(name, value);
  }
  return fields;
}

/** The cookies a request carries, by name. */
export function cookiesOf(headers: IncomingHttpHeaders): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (headers.cookie ?? "").slice(0, 4096).split(";")) {
    const at = part.indexOf("=");
    if (at > 0) cookies.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  return cookies;
}
