import type { IncomingMessage, ServerResponse } from "node:http";
import { Failure } from "../routes/shared";
import type { Mode } from "../routes/answers";

/** Reading request bodies and keys, writing JSON answers: shared by the API and the control routes. */

export function sendJson(response: ServerResponse, status: number, body: unknown, mode: Mode, headers: Record<string, string> = {}): void {
  let text = JSON.stringify(body);
  // PHP's json_encode escapes slashes.
  if (mode === "deployed") text = text.replace(/\//g, "\\/");
  response.writeHead(status, { "Content-Type": "application/json; charset=utf-8", ...headers });
  response.end(text);
}

/** The request body as text, or undefined once it grows past `limit` bytes. */
export async function readBody(request: IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The API key of an `Authorization: Bearer <key>` header. */
export const bearerKey = (authorization: string) => /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];

/** A JSON object from a request body, or a Failure saying what it is instead. */
export function parseObject(raw: string, what: string): Record<string, unknown> {
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
