/**
 * The three checks every request path of the HTTP server and the sign-in share: whether a host
 * names this machine only, whether two secrets are the same (in constant time), and a request
 * body read up to a bound.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { isIPv4 } from "node:net";

/** The loopback names a browser or client writes for this machine (as URLs write them). */
export const LOOPBACK_NAMES: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/** Whether `host` names this machine only: localhost, 127.0.0.0/8, ::1, or 127.x written as an IPv4-mapped IPv6 address. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (bare === "localhost" || bare === "::1") return true;
  const ipv4 = bare.startsWith("::ffff:") ? bare.slice("::ffff:".length) : bare;
  if (isIPv4(ipv4)) return ipv4.startsWith("127.");
  // ::ffff:7f00:1 is ::ffff:127.0.0.1 in hexadecimal.
  return /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(bare);
}

const digest = (secret: string | Buffer) => createHash("sha256").update(secret).digest();

/** Whether two secrets are the same, in constant time (compared as digests, so their lengths do not show either). */
export function sameSecret(given: string | Buffer, expected: string | Buffer): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** A request body larger than the reader takes. */
export class BodyTooLargeError extends Error {
  override name = "BodyTooLargeError";
  constructor(readonly maxBytes: number) {
    super(`the body must be at most ${maxBytes / 1024} KiB`);
  }
}

/** A request's body, refused (BodyTooLargeError) past `maxBytes`: from its Content-Length before it is read, else as it arrives. */
export async function readBoundedBody(request: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(request.headers["content-length"] ?? "0");
  if (!Number.isSafeInteger(declared) || declared > maxBytes) throw new BodyTooLargeError(maxBytes);
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new BodyTooLargeError(maxBytes);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
