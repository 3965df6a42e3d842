import type { IncomingMessage, ServerResponse } from "node:http";
import QRCode from "qrcode";
import { SaveError, type Store } from "../persistence/store";
import { qrContent } from "../views/addresses";
import { qrPng } from "./qr-png";
import { parseTimestamp } from "../views/dates";
import { recordVisit } from "../visits/stats";
import { destinationFor, visitorOf } from "../visits/visitor";
import { escapeHtml, page } from "./html";

/**
 * A Location header's value: header values must be Latin-1, so a URL with other characters is sent
 * as its WHATWG serialisation (percent-encoded path and query, punycode host). The URL was checked
 * when the link was made, so it parses.
 */
function location(url: string): string {
  return /^[\x21-\x7e]*$/.test(url) ? url : new URL(url).href;
}

/** A QR code's colour as stored, "rgb(r,g,b)", as its three channels. */
function rgbOf(rgb: string): [number, number, number] {
  const [red = 0, green = 0, blue = 0] = rgb.match(/\d+/g)?.map(Number) ?? [];
  return [red, green, blue];
}

function rgbToHex(rgb: string): string {
  return `#${rgbOf(rgb)
    .map((part) => part.toString(16).padStart(2, "0"))
    .join("")}ff`;
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  let body = "";
  for await (const chunk of request) {
    body += chunk;
    if (body.length > 10_000) break;
  }
  return new URLSearchParams(body);
}

let lastUnsavedReason: string | undefined;

/**
 * Saves a click or scan. A visit is answered whether or not its click can be saved: a visitor is
 * never shown an error because the sandbox's disk is full. The reason is logged when it changes.
 */
function saveVisit(store: Store): void {
  try {
    store.commit();
    lastUnsavedReason = undefined;
  } catch (error) {
    if (!(error instanceof SaveError)) throw error;
    if (error.message !== lastUnsavedReason) console.error(`linkshort-sandbox: a visit was answered but its click was not saved: ${error.message}`);
    lastUnsavedReason = error.message;
  }
}

/** What a public page's handler is given: the request, its answer, and the store and clock it reads. */
interface Visit {
  request: IncomingMessage;
  response: ServerResponse;
  method: string;
  /** GET or HEAD. HEAD is answered as GET without a body (Node leaves it out), and counts no click: link checkers and unfurlers send it. */
  reading: boolean;
  store: Store;
  baseUrl: string;
  now: number;
}

/** Short links, QR scans and images, and SSO logins: everything outside `/api`. Returns false when nothing matched. */
export async function handlePublic(
  request: IncomingMessage,
  response: ServerResponse,
  path: string,
  store: Store,
  baseUrl: string,
  now: number,
): Promise<boolean> {
  const method = request.method ?? "GET";
  const visit: Visit = { request, response, method, reading: method === "GET" || method === "HEAD", store, baseUrl, now };
  const sso = /^\/user\/login\/sso\/([a-f0-9]{16,64})$/.exec(path);
  if (sso && method === "GET") return ssoLogin(visit, sso[1]!);
  const image = /^\/qr\/([a-f0-9]{6})\.(png|svg)$/.exec(path);
  if (image && visit.reading) return qrImage(visit, image[1]!, image[2] as "png" | "svg");
  const scan = /^\/qr\/([a-f0-9]{6})$/.exec(path);
  if (scan && visit.reading) return qrScan(visit, scan[1]!);
  const short = /^\/([A-Za-z0-9-]{3,50})$/.exec(path);
  if (short && (visit.reading || method === "POST")) return shortLink(visit, short[1]!);
  return false;
}

function ssoLogin({ response, store, now }: Visit, token: string): boolean {
  const entry = store.state.sso.find((candidate) => candidate.token === token);
  if (!entry || entry.used || entry.expiresAt <= now) {
    page(response, 403, "Link expired", "<h1>This login link has expired or has already been used.</h1>");
    return true;
  }
  entry.used = true;
  store.commit();
  const user = store.state.users.find((candidate) => candidate.id === entry.userId);
  page(response, 200, "Logged in", `<h1>Logged in as ${escapeHtml(user?.username ?? "unknown")}</h1>`);
  return true;
}

async function qrImage({ response, store, baseUrl }: Visit, code: string, format: "png" | "svg"): Promise<boolean> {
  const qr = store.state.qrs.find((candidate) => candidate.code === code);
  if (!qr) return false;
  const options = { margin: 2, width: 512, color: { dark: rgbToHex(qr.foreground), light: rgbToHex(qr.background) } };
  const content = qrContent(qr, baseUrl);
  if (format === "svg") {
    response.writeHead(200, { "Content-Type": "image/svg+xml" });
    response.end(await QRCode.toString(content, { ...options, type: "svg" }));
  } else {
    response.writeHead(200, { "Content-Type": "image/png" });
    response.end(qrPng(content, { width: options.width, margin: options.margin, dark: rgbOf(qr.foreground), light: rgbOf(qr.background) }));
  }
  return true;
}

function qrScan({ request, response, method, store, baseUrl, now }: Visit, code: string): boolean {
  const qr = store.state.qrs.find((candidate) => candidate.code === code);
  if (!qr) return false;
  if (method !== "HEAD") {
    recordVisit(qr.stats, visitorOf(request), now);
    saveVisit(store);
  }
  if (qr.type === "link") {
    response.writeHead(302, { Location: location(String(qr.data)) });
    response.end();
  } else {
    page(response, 200, qr.name, `<h1>${escapeHtml(qr.name)}</h1><pre>${escapeHtml(qrContent(qr, baseUrl))}</pre>`);
  }
  return true;
}

async function shortLink(visit: Visit, alias: string): Promise<boolean> {
  const { request, response, method, store, now } = visit;
  const host = (request.headers.host ?? "").toLowerCase();
  const candidates = store.linksByAlias(alias);
  const link =
    candidates.find((candidate) => candidate.domain !== null && new URL(candidate.domain).host.toLowerCase() === host) ??
    candidates.find((candidate) => candidate.domain === null) ??
    candidates[0];
  if (!link) return false;
  if (link.expiry && parseTimestamp(link.expiry) <= now) {
    page(response, 410, "Link expired", "<h1>This link has expired.</h1>");
    return true;
  }
  if (link.password && !(await unlocked(visit, link.password))) return true;
  const visitor = visitorOf(request);
  const destination = destinationFor(link, visitor);
  if (method !== "HEAD") {
    store.changingLink(link);
    recordVisit(link.stats, visitor, now);
    saveVisit(store);
  }
  redirect(visit, link, destination);
  return true;
}

/** Whether the visitor sent the link's password; if not, the password form (again, with an error) is the answer. */
async function unlocked({ request, response, method }: Visit, password: string): Promise<boolean> {
  const form = method === "POST" ? await readForm(request) : undefined;
  if (form?.get("password") === password) return true;
  const error = form ? `<p class="error">The password is not correct.</p>` : "";
  page(
    response,
    form ? 401 : 200,
    "Password protected",
    `<h1>This link is password protected</h1>${error}<form method="post"><input type="password" name="password"><button type="submit">Unlock</button></form>`,
  );
  return false;
}

/** Sends the visitor on as the link's redirect type says: at once, in a frame, under an overlay, or after a splash page. */
function redirect({ response, store }: Visit, link: Store["state"]["links"][number], destination: string): void {
  const safe = escapeHtml(destination);
  if (link.type === "direct") {
    response.writeHead(302, { Location: location(destination) });
    response.end();
  } else if (link.type === "frame") {
    page(response, 200, link.metatitle || link.alias, `<iframe src="${safe}" style="border:0;width:100%;height:100vh"></iframe>`);
  } else if (link.type.startsWith("overlay-")) {
    const overlay = store.state.overlays.find((candidate) => `overlay-${candidate.id}` === link.type);
    page(
      response,
      200,
      link.metatitle || link.alias,
      `<div class="overlay">${escapeHtml(overlay?.name ?? "")}</div><iframe src="${safe}" style="border:0;width:100%;height:100vh"></iframe>`,
    );
  } else {
    const splash = /^\d+$/.test(link.type) ? store.state.splash.find((candidate) => candidate.id === Number(link.type)) : undefined;
    page(
      response,
      200,
      splash?.name ?? "Redirecting",
      `<meta http-equiv="refresh" content="5;url=${safe}"><h1>${escapeHtml(splash?.name ?? "You are being redirected")}</h1><a href="${safe}">Continue</a>`,
    );
  }
}
