/** Reading the sign-in's requests and writing its answers (JSON, OAuth errors), shared by its endpoints. */
import type { IncomingMessage, ServerResponse } from "node:http";
import { OAuthError } from "./clients";

/** Forms and registrations are small: anything larger is refused before it is read. */
const MAX_FORM_BYTES = 64 * 1024;

/** Token and metadata answers are never cached (RFC 6749 §5.1) and may be read by any origin (no cookies are involved). */
const JSON_HEADERS = { "Content-Type": "application/json", "Cache-Control": "no-store", "Access-Control-Allow-Origin": "*" };

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { ...JSON_HEADERS, ...headers });
  response.end(JSON.stringify(body));
}

export function sendOAuthError(response: ServerResponse, error: OAuthError): void {
  const headers: Record<string, string> = error.status === 401 ? { "WWW-Authenticate": 'Basic realm="linkshort-mcp"' } : {};
  sendJson(response, error.status, { error: error.code, error_description: error.message }, headers);
}

export async function readBody(request: IncomingMessage): Promise<string> {
  const declared = Number(request.headers["content-length"] ?? "0");
  if (!Number.isSafeInteger(declared) || declared > MAX_FORM_BYTES) throw new OAuthError("invalid_request", `the body must be at most ${MAX_FORM_BYTES / 1024} KiB`, 413);
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) throw new OAuthError("invalid_request", `the body must be at most ${MAX_FORM_BYTES / 1024} KiB`, 413);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A form body (application/x-www-form-urlencoded), each field at most once. */
export async function readForm(request: IncomingMessage): Promise<Map<string, string>> {
  const type = (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") throw new OAuthError("invalid_request", "send the body as application/x-www-form-urlencoded");
  const fields = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(await readBody(request))) {
    if (fields.has(name)) throw new OAuthError("invalid_request", `${name} is given more than once`);
    fields.set(name, value);
  }
  return fields;
}

/** The cookies a request carries, by name. */
export function cookiesOf(request: IncomingMessage): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (request.headers.cookie ?? "").slice(0, 4096).split(";")) {
    const at = part.indexOf("=");
    if (at > 0) cookies.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  return cookies;
}
