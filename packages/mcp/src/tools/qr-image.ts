/**
 * A QR code's image, as the service serves it next to the code's link (`{link}.png`), for tools
 * that show it to the model as image content.
 *
 * The client speaks JSON only (its transport hands back text), so the image is read here with
 * Node's own `fetch` (Node's bundled undici): a public image, never sent the API key or a cookie,
 * only from the host of LINKSHORT_BASE_URL (a server's answer must not steer requests elsewhere),
 * following no redirect, bounded in size and time, and checked to be a PNG.
 */
import { AbortedError } from "@linkshort/client";

/** The largest image read; the service's are a few kilobytes. */
export const MAX_IMAGE_BYTES = 1024 * 1024;
/** The longest the image may take, within a tool call's deadline. */
const IMAGE_TIMEOUT_MS = 5_000;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export type QrImage = { ok: true; url: string; png: Buffer } | { ok: false; reason: string };

/** Where the service serves a QR code's PNG, when `link` is an http(s) address on the base URL's host. */
export function qrImageUrl(link: string, baseUrl: string): { url: string } | { reason: string } {
  let url: URL;
  let base: URL;
  try {
    url = new URL(`${link.slice(0, 2048)}.png`);
    base = new URL(baseUrl);
  } catch {
    return { reason: "the QR code's link is not an address" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { reason: "the QR code's link is not an http or https address" };
  if (url.hostname !== base.hostname)
    return { reason: `its image is served from ${url.hostname.slice(0, 100)}, not from the host of LINKSHORT_BASE_URL, so it was not fetched` };
  url.username = "";
  url.password = "";
  return { url: url.toString() };
}

async function readCapped(response: Response, signal: AbortSignal): Promise<Buffer | undefined> {
  if (!response.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = response.body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
  try {
    for (;;) {
      if (signal.aborted) return undefined;
      const { done, value } = await reader.read();
      if (done) return Buffer.concat(chunks, size);
      size += value.byteLength;
      if (size > MAX_IMAGE_BYTES) return undefined;
      chunks.push(Buffer.from(value));
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
}

/** The QR code's PNG, or why there is none; never throws, except when `signal` (the tool call) aborts. */
export async function fetchQrImage(link: string, baseUrl: string, signal: AbortSignal): Promise<QrImage> {
  const target = qrImageUrl(link, baseUrl);
  if ("reason" in target) return { ok: false, reason: target.reason };
  const bounded = AbortSignal.any([signal, AbortSignal.timeout(IMAGE_TIMEOUT_MS)]);
  try {
    const response = await fetch(target.url, { redirect: "manual", credentials: "omit", signal: bounded, headers: { Accept: "image/png" } });
    const type = (response.headers.get("content-type") ?? "").slice(0, 100).split(";")[0]!.trim().toLowerCase();
    if (response.status !== 200 || type !== "image/png") {
      void response.body?.cancel().catch(() => undefined);
      return { ok: false, reason: `the service answered ${response.status}${type ? ` (${type})` : ""} for its image` };
    }
    const declared = Number(response.headers.get("content-length"));
    if (declared > MAX_IMAGE_BYTES) {
      void response.body?.cancel().catch(() => undefined);
      return { ok: false, reason: `its image is larger than ${MAX_IMAGE_BYTES / 1024} KiB` };
    }
    const png = await readCapped(response, bounded);
    if (png === undefined) {
      if (signal.aborted) throw new AbortedError();
      return {
        ok: false,
        reason: bounded.aborted ? `its image took longer than ${IMAGE_TIMEOUT_MS / 1000} s` : `its image is larger than ${MAX_IMAGE_BYTES / 1024} KiB`,
      };
    }
    if (!png.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) return { ok: false, reason: "the service's image is not a PNG" };
    return { ok: true, url: target.url, png };
  } catch {
    if (signal.aborted) throw new AbortedError();
    return { ok: false, reason: bounded.aborted ? `its image took longer than ${IMAGE_TIMEOUT_MS / 1000} s` : "its image could not be loaded" };
  }
}
