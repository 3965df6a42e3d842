import { randomBytes } from "node:crypto";
import QRCode from "qrcode";
import { qrContent } from "./public";
import { emptyStats, generateApiKey, hashPassword, type LinkRecord, type QrRecord, type Store, type UserRecord } from "./store";
import {
  accountView,
  linkDetailsView,
  linkListView,
  parseTimestamp,
  planView,
  qrView,
  statsView,
  timestamp,
  userView,
  type Mode,
} from "./views";

export interface ApiContext {
  store: Store;
  user: UserRecord;
  body: Record<string, unknown>;
  query: URLSearchParams;
  params: string[];
  mode: Mode;
  baseUrl: string;
  now: number;
}

export type ApiBody = Record<string, unknown>;

/** A failure answered the deployed way: HTTP 200 (or 403) with `error: 1` and a message. */
export class Failure extends Error {
  constructor(
    message: string,
    readonly status = 200,
  ) {
    super(message);
  }
}

const PIXEL_TYPES = ["gtmpixel", "gapixel", "fbpixel", "adwordspixel", "linkedinpixel", "twitterpixel", "adrollpixel", "quorapixel", "pinterest", "bing", "snapchat", "reddit"];
const QR_TYPES = ["text", "vcard", "link", "email", "phone", "sms", "wifi"];
const PLAN_TYPES = ["monthly", "yearly", "lifetime"];
const DEFAULT_PAGE_SIZE = 15;
const RGB = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const USERNAME = /^[A-Za-z0-9]{3,20}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$/;

const ok = (extra: ApiBody = {}, mode?: Mode, listFlag = false): ApiBody => ({ error: listFlag && mode === "deployed" ? "0" : 0, ...extra });

function isUrl(value: unknown): value is string {
  if (typeof value !== "string" || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
  } catch {
    return false;
  }
}

function text(value: unknown, fallback = ""): string {
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : fallback;
}

/** Pages as deployed servers do: `limit` 0 or not a number means 15, a page below 1 means 1. */
function paginate<T>(items: T[], query: URLSearchParams, mode: Mode) {
  const limitParam = Number.parseInt(query.get("limit") ?? "", 10);
  const limit = Number.isFinite(limitParam) && limitParam > 0 ? limitParam : DEFAULT_PAGE_SIZE;
  const pageParam = Number.parseInt(query.get("page") ?? "", 10);
  const page = Number.isFinite(pageParam) && pageParam > 1 ? pageParam : 1;
  const maxpage = Math.max(1, Math.ceil(items.length / limit));
  const slice = items.slice((page - 1) * limit, page * limit);
  // Deployed servers always announce a next page, even at the end.
  const nextpage = mode === "deployed" ? page + 1 : Math.min(page + 1, maxpage);
  return { slice, info: { result: slice.length, perpage: limit, currentpage: page, nextpage, maxpage } };
}

const newestFirst = <T extends { id: number; date: string }>(a: T, b: T) => (a.date < b.date ? 1 : a.date > b.date ? -1 : b.id - a.id);

function owned<T extends { id: number; userId: number }>(items: T[], context: ApiContext, what: string): T {
  const id = Number(context.params[0]);
  const item = items.find((candidate) => candidate.id === id && candidate.userId === context.user.id);
  if (!item) throw new Failure(`${what} does not exist.`);
  return item;
}

function requireAdmin(context: ApiContext): void {
  if (!context.user.admin) throw new Failure("You do not have permission to access this endpoint.", 403);
}

function mine<T extends { userId: number }>(items: T[], context: ApiContext): T[] {
  return items.filter((item) => item.userId === context.user.id);
}

function removeItem<T>(items: T[], item: T): void {
  items.splice(items.indexOf(item), 1);
}

// ---------------------------------------------------------------- links

function cleanAlias(alias: string): string {
  return alias.trim().replace(/[\s/_|+]+/g, "-");
}

function randomAlias(store: Store, domain: string | null): string {
  const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  for (;;) {
    const bytes = randomBytes(5);
    const alias = Array.from(bytes, (byte) => letters[byte % letters.length]).join("");
    if (!store.state.links.some((link) => link.alias === alias && link.domain === domain)) return alias;
  }
}

function targets<T extends string>(value: unknown, key: T, field: string): Array<Record<T | "link", string>> {
  if (value === undefined || value === null || value === "") return [];
  if (!Array.isArray(value)) throw new Failure(`Invalid ${field} data.`);
  return value.map((entry) => {
    const record = entry as Record<string, unknown>;
    if (!record || typeof record[key] !== "string" || !record[key].trim() || !isUrl(record.link)) {
      throw new Failure(`Invalid ${field} data.`);
    }
    return { [key]: record[key].trim(), link: record.link } as Record<T | "link", string>;
  });
}

function parameters(value: unknown): Array<{ name: string; value: string }> {
  if (value === undefined || value === null || value === "") return [];
  if (!Array.isArray(value)) throw new Failure("Invalid parameters.");
  return value.map((entry) => {
    const record = entry as Record<string, unknown>;
    if (!record || typeof record.name !== "string" || !record.name) throw new Failure("Invalid parameters.");
    return { name: record.name, value: text(record.value) };
  });
}

function linkType(context: ApiContext, value: unknown, allowCustom: boolean): string {
  if (value === undefined || value === null || value === "") return "direct";
  const type = text(value);
  if (["direct", "frame", "splash"].includes(type)) return type;
  if (allowCustom && /^\d+$/.test(type)) {
    if (!mine(context.store.state.splash, context).some((page) => page.id === Number(type))) throw new Failure("Custom splash page does not exist.");
    return type;
  }
  const overlay = /^overlay-(\d+)$/.exec(type);
  if (allowCustom && overlay) {
    if (!mine(context.store.state.overlays, context).some((item) => item.id === Number(overlay[1]))) throw new Failure("CTA overlay does not exist.");
    return type;
  }
  throw new Failure("Invalid redirect type.");
}

function linkDomain(context: ApiContext, value: unknown): string | null {
  if (value === undefined || value === null || value === "") return null;
  const domain = text(value).replace(/\/+$/, "");
  if (domain === context.baseUrl) return null;
  if (!mine(context.store.state.domains, context).some((item) => item.domain === domain)) throw new Failure("This domain does not exist or is not yours.");
  return domain;
}

function linkFields(context: ApiContext, existing: LinkRecord | undefined) {
  const { body } = context;
  if (!isUrl(body.url)) throw new Failure("Please enter a valid URL.");
  let expiry: string | null = existing?.expiry ?? null;
  if (body.expiry !== undefined && body.expiry !== null && body.expiry !== "") {
    const value = text(body.expiry);
    if (!TIMESTAMP.test(value) || Number.isNaN(parseTimestamp(value))) throw new Failure("Please enter a valid expiry date.");
    if (parseTimestamp(value) <= context.now) throw new Failure("The expiry date must be later than today.");
    expiry = value;
  }
  return {
    url: body.url,
    type: linkType(context, body.type ?? existing?.type, existing === undefined),
    password: body.password === undefined ? (existing?.password ?? null) : text(body.password) || null,
    expiry,
    geotarget: body.geotarget === undefined && existing ? existing.geotarget : targets(body.geotarget, "location", "geotargeting"),
    devicetarget: body.devicetarget === undefined && existing ? existing.devicetarget : targets(body.devicetarget, "device", "device targeting"),
    parameters: body.parameters === undefined && existing ? existing.parameters : parameters(body.parameters),
    metatitle: body.metatitle === undefined ? (existing?.metatitle ?? "") : text(body.metatitle),
    metadescription: body.metadescription === undefined ? (existing?.metadescription ?? "") : text(body.metadescription),
  };
}

function checkAlias(context: ApiContext, raw: unknown, domain: string | null, self?: LinkRecord): string {
  const alias = cleanAlias(text(raw));
  if (alias.length < 3) throw new Failure("Custom alias must be at least 3 characters.");
  if (alias.length > 50) throw new Failure("Custom alias must be at most 50 characters.");
  if (!/^[A-Za-z0-9-]+$/.test(alias)) throw new Failure("Custom alias may only contain letters, numbers and hyphens.");
  const taken = context.store.state.links.some((link) => link !== self && link.alias.toLowerCase() === alias.toLowerCase() && link.domain === domain);
  if (taken || ["api", "qr", "user"].includes(alias.toLowerCase())) throw new Failure("That alias is taken. Please choose another one.");
  return alias;
}

function createLink(context: ApiContext): ApiBody {
  const fields = linkFields(context, undefined);
  const domain = linkDomain(context, context.body.domain);
  const custom = context.body.custom;
  const same = JSON.stringify;
  if (custom === undefined || custom === null || custom === "") {
    // Deployed servers hand back the existing link for the same url, domain and options.
    const existing = mine(context.store.state.links, context).find(
      (link) =>
        link.url === fields.url &&
        link.domain === domain &&
        link.type === fields.type &&
        link.password === fields.password &&
        link.expiry === fields.expiry &&
        same(link.geotarget) === same(fields.geotarget) &&
        same(link.devicetarget) === same(fields.devicetarget) &&
        same(link.parameters) === same(fields.parameters) &&
        link.metatitle === fields.metatitle &&
        link.metadescription === fields.metadescription,
    );
    if (existing) return ok({ id: existing.id, shorturl: `${existing.domain ?? context.baseUrl}/${existing.alias}` });
  }
  const alias = custom === undefined || custom === null || custom === "" ? randomAlias(context.store, domain) : checkAlias(context, custom, domain);
  const link: LinkRecord = { id: context.store.nextId("links"), userId: context.user.id, alias, domain, date: timestamp(context.now), stats: emptyStats(), ...fields };
  context.store.state.links.push(link);
  return ok({ id: link.id, shorturl: `${link.domain ?? context.baseUrl}/${link.alias}` });
}

function updateLink(context: ApiContext): ApiBody {
  const link = owned(context.store.state.links, context, "Link");
  const fields = linkFields(context, link);
  const domain = context.body.domain === undefined ? link.domain : linkDomain(context, context.body.domain);
  const custom = context.body.custom;
  const alias = custom === undefined || custom === null || custom === "" ? link.alias : checkAlias(context, custom, domain, link);
  if (alias === link.alias && domain !== link.domain && context.store.state.links.some((other) => other !== link && other.alias === alias && other.domain === domain)) {
    throw new Failure("That alias is taken. Please choose another one.");
  }
  Object.assign(link, fields, { alias, domain });
  const shorturl = `${link.domain ?? context.baseUrl}/${link.alias}`;
  return ok(context.mode === "deployed" ? { id: link.id, shorturl } : { id: link.id, short: shorturl });
}

// ---------------------------------------------------------------- QR codes

function qrData(type: string, data: unknown): unknown {
  const record = (data ?? {}) as Record<string, unknown>;
  const bad = (what: string) => new Failure(`Please enter valid ${what}.`);
  switch (type) {
    case "text":
      if (typeof data !== "string" || !data.trim()) throw bad("text");
      return data;
    case "link":
      if (!isUrl(data)) throw new Failure("Please enter a valid URL.");
      return data;
    case "phone":
      if (typeof data !== "string" || !/^\+?[0-9][0-9 ().-]{2,30}$/.test(data)) throw bad("phone number");
      return data;
    case "email":
      if (typeof data !== "object" || !EMAIL.test(text(record.email))) throw bad("email");
      return { email: record.email, subject: text(record.subject), body: text(record.body) };
    case "sms":
      if (typeof data !== "object" || !/^\+?[0-9][0-9 ().-]{2,30}$/.test(text(record.phone))) throw bad("phone number");
      return { phone: record.phone, message: text(record.message) };
    case "wifi":
      if (typeof data !== "object" || !text(record.ssid)) throw bad("wifi network name");
      return { ssid: record.ssid, password: text(record.password), encryption: text(record.encryption, "WPA") || "WPA" };
    case "vcard":
      if (typeof data !== "object" || data === null || Array.isArray(data)) throw bad("vCard data");
      if (!text(record.firstname) && !text(record.lastname) && !text(record.organization)) throw bad("vCard name");
      return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, text(value)]));
    default:
      throw new Failure("Invalid QR type.");
  }
}

function colour(value: unknown, fallback: string): string {
  if (value === undefined || value === null || value === "") return fallback;
  const match = RGB.exec(text(value));
  if (!match || match.slice(1).some((part) => Number(part) > 255)) throw new Failure("Please enter a valid color in rgb(r,g,b) format.");
  return text(value);
}

function logo(value: unknown, fallback: string | null): string | null {
  if (value === undefined || value === null || value === "") return fallback;
  if (!/\.(png|jpe?g)$/i.test(text(value).split(/[?#]/)[0] ?? "")) throw new Failure("Logo must be a png or jpg image.");
  return text(value);
}

/** Refuses a QR code whose content does not fit in one (its image could not be drawn). */
function checkQrCapacity(qr: QrRecord, baseUrl: string): void {
  const content = qrContent(qr, baseUrl);
  try {
    QRCode.create(content, {});
  } catch {
    throw new Failure(`The QR data is too long for a QR code (${Buffer.byteLength(content)} bytes once encoded).`);
  }
}

function createQr(context: ApiContext): ApiBody {
  const { body, store } = context;
  const type = text(body.type);
  if (!QR_TYPES.includes(type)) throw new Failure("Invalid QR type.");
  const data = qrData(type, body.data);
  let code: string;
  do code = randomBytes(3).toString("hex");
  while (store.state.qrs.some((qr) => qr.code === code));
  const qr = {
    id: store.nextId("qrs"),
    userId: context.user.id,
    code,
    type,
    data,
    background: colour(body.background, "rgb(255,255,255)"),
    foreground: colour(body.foreground, "rgb(0,0,0)"),
    logo: logo(body.logo, null),
    name: text(body.name) || `${type.toUpperCase()} QR code`,
    date: timestamp(context.now),
    stats: emptyStats(),
  };
  checkQrCapacity(qr, context.baseUrl);
  store.state.qrs.push(qr);
  return ok({ id: qr.id, link: `${context.baseUrl}/qr/${qr.code}` });
}

function updateQr(context: ApiContext): ApiBody {
  const qr = owned(context.store.state.qrs, context, "QR");
  const { body } = context;
  const type = body.type === undefined ? qr.type : text(body.type);
  if (!QR_TYPES.includes(type)) throw new Failure("Invalid QR type.");
  if (body.data === undefined) throw new Failure("Please enter the QR data.");
  const changes = {
    type,
    data: qrData(type, body.data),
    background: colour(body.background, qr.background),
    foreground: colour(body.foreground, qr.foreground),
    logo: logo(body.logo, qr.logo),
  };
  checkQrCapacity({ ...qr, ...changes }, context.baseUrl);
  Object.assign(qr, changes);
  return ok({ message: "QR has been updated successfully." });
}

// ---------------------------------------------------------------- users and plans

function expiryFor(type: string, now: number): string {
  const date = new Date(now);
  if (type === "monthly") date.setUTCMonth(date.getUTCMonth() + 1);
  else if (type === "yearly") date.setUTCFullYear(date.getUTCFullYear() + 1);
  else date.setUTCFullYear(date.getUTCFullYear() + 100);
  return timestamp(date.getTime());
}

function createUser(context: ApiContext): ApiBody {
  const { body, store } = context;
  const username = text(body.username);
  const email = text(body.email);
  if (!USERNAME.test(username)) throw new Failure("Please enter a valid username.");
  if (!EMAIL.test(email)) throw new Failure("Please enter a valid email.");
  if (text(body.password).length < 5) throw new Failure("Password must be at least 5 characters.");
  if (store.state.users.some((user) => user.username.toLowerCase() === username.toLowerCase())) throw new Failure("This username has already been used.");
  if (store.state.users.some((user) => user.email.toLowerCase() === email.toLowerCase())) throw new Failure("This email has already been used.");
  let planId: number | null = null;
  if (body.planid !== undefined && body.planid !== null && body.planid !== "") {
    planId = Number(body.planid);
    if (!store.state.plans.some((plan) => plan.id === planId)) throw new Failure("Plan does not exist.");
  }
  let expires: string | null = null;
  if (body.expiration !== undefined && body.expiration !== null && body.expiration !== "") {
    if (!TIMESTAMP.test(text(body.expiration))) throw new Failure("Please enter a valid expiration date.");
    expires = text(body.expiration);
  }
  const user: UserRecord = {
    id: store.nextId("users"),
    username,
    email,
    passwordHash: hashPassword(text(body.password)),
    apiKey: generateApiKey(),
    admin: false,
    planId,
    expires,
    registered: timestamp(context.now),
    avatar: `${context.baseUrl}/static/avatar/${username}.png`,
  };
  store.state.users.push(user);
  store.reindex();
  const message = "User has been registered.";
  return context.mode === "deployed" ? ok({ message, userid: user.id }) : ok({ message, data: { id: user.id, email: user.email, username: user.username } });
}

function deleteUser(context: ApiContext): ApiBody {
  requireAdmin(context);
  const { state } = context.store;
  const user = state.users.find((candidate) => candidate.id === Number(context.params[0]));
  if (!user) throw new Failure("User does not exist.");
  if (user.id === context.user.id) throw new Failure("You cannot delete your own account.");
  removeItem(state.users, user);
  for (const kind of ["domains", "links", "pixels", "qrs", "splash", "overlays"] as const) {
    const kept = (state[kind] as Array<{ userId: number }>).filter((item) => item.userId !== user.id);
    state[kind] = kept as never;
  }
  context.store.reindex();
  return ok({ message: "User has been deleted." });
}

function adminUser(context: ApiContext): UserRecord {
  requireAdmin(context);
  const user = context.store.state.users.find((candidate) => candidate.id === Number(context.params[0]));
  if (!user) throw new Failure("User does not exist.");
  return user;
}

// ---------------------------------------------------------------- routes

type Handler = (context: ApiContext) => ApiBody;
interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
  /** Changes state (saved to the data file). */
  writes?: boolean;
}

const route = (method: string, path: string, handler: Handler): Route => ({
  method,
  pattern: new RegExp(`^${path.replace(/\{id\}/g, "(\\d+)")}$`),
  handler,
  writes: method !== "GET" || path.startsWith("/api/user/login"),
});

export const routes: Route[] = [
  route("GET", "/api/account", (c) => ok({ data: accountView(c.user, c.store.state.plans) })),
  route("PUT", "/api/account/update", (c) => {
    const { body, user } = c;
    if (body.email === undefined && body.password === undefined) throw new Failure("Please enter an email or a password.");
    if (body.email !== undefined) {
      if (!EMAIL.test(text(body.email))) throw new Failure("Please enter a valid email.");
      if (c.store.state.users.some((other) => other !== user && other.email.toLowerCase() === text(body.email).toLowerCase())) throw new Failure("This email has already been used.");
    }
    if (body.password !== undefined && text(body.password).length < 5) throw new Failure("Password must be at least 5 characters.");
    if (body.email !== undefined) user.email = text(body.email);
    if (body.password !== undefined) user.passwordHash = hashPassword(text(body.password));
    return ok({ message: "Account has been successfully updated." });
  }),

  route("GET", "/api/domains", (c) => {
    const { slice, info } = paginate(mine(c.store.state.domains, c).sort((a, b) => b.id - a.id), c.query, c.mode);
    return ok({ data: { ...info, domains: slice.map(({ id, domain, redirectroot, redirect404 }) => ({ id, domain, redirectroot, redirect404 })) } }, c.mode, true);
  }),
  route("POST", "/api/domain/add", (c) => {
    const domain = text(c.body.domain).replace(/\/+$/, "");
    if (!isUrl(domain)) throw new Failure("Please enter a valid domain name.");
    if (c.store.state.domains.some((item) => item.domain.toLowerCase() === domain.toLowerCase()) || domain === c.baseUrl) throw new Failure("This domain has already been added.");
    for (const key of ["redirectroot", "redirect404"]) if (c.body[key] && !isUrl(c.body[key])) throw new Failure(`Please enter a valid URL for ${key}.`);
    const record = { id: c.store.nextId("domains"), userId: c.user.id, domain, redirectroot: text(c.body.redirectroot), redirect404: text(c.body.redirect404) };
    c.store.state.domains.push(record);
    return ok({ id: record.id });
  }),
  route("PUT", "/api/domain/{id}/update", (c) => {
    const domain = owned(c.store.state.domains, c, "Domain");
    for (const key of ["redirectroot", "redirect404"] as const) {
      if (c.body[key] === undefined) continue;
      if (c.body[key] && !isUrl(c.body[key])) throw new Failure(`Please enter a valid URL for ${key}.`);
      domain[key] = text(c.body[key]);
    }
    return ok({ message: "Domain has been updated successfully." });
  }),
  route("DELETE", "/api/domain/{id}/delete", (c) => {
    const domain = owned(c.store.state.domains, c, "Domain");
    removeItem(c.store.state.domains, domain);
    return ok({ message: "Domain has been deleted successfully." });
  }),

  route("GET", "/api/splash", (c) => {
    const { slice, info } = paginate(mine(c.store.state.splash, c).sort(newestFirst), c.query, c.mode);
    return ok({ data: { ...info, splash: slice.map(({ id, name, date }) => ({ id, name, date })) } }, c.mode, true);
  }),
  route("GET", "/api/overlay", (c) => {
    const { slice, info } = paginate(mine(c.store.state.overlays, c).sort(newestFirst), c.query, c.mode);
    const items = slice.map(({ id, type, name, date }) => ({ id, type, name, date }));
    return ok({ data: { ...info, [c.mode === "deployed" ? "overlay" : "cta"]: items } }, c.mode, true);
  }),

  route("GET", "/api/urls", (c) => {
    const links = mine(c.store.state.links, c);
    links.sort(c.query.get("order") === "click" ? (a, b) => b.stats.clicks - a.stats.clicks || b.id - a.id : newestFirst);
    const { slice, info } = paginate(links, c.query, c.mode);
    return ok({ data: { ...info, urls: slice.map((link) => linkListView(link, c.baseUrl, c.mode)) } }, c.mode, true);
  }),
  route("GET", "/api/url/{id}", (c) => {
    const link = owned(c.store.state.links, c, "Link");
    const answer = { details: linkDetailsView(link, c.baseUrl, c.mode), data: statsView(link.stats, c.mode, "link") };
    return ok(c.mode === "deployed" ? { id: link.id, ...answer } : answer);
  }),
  route("POST", "/api/url/add", createLink),
  route("PUT", "/api/url/{id}/update", updateLink),
  route("DELETE", "/api/url/{id}/delete", (c) => {
    removeItem(c.store.state.links, owned(c.store.state.links, c, "Link"));
    return ok({ message: "Link has been deleted successfully" });
  }),

  route("GET", "/api/pixels", (c) => {
    const { slice, info } = paginate(mine(c.store.state.pixels, c).sort(newestFirst), c.query, c.mode);
    return ok({ data: { ...info, pixels: slice.map(({ id, type, name, tag, date }) => ({ id, type, name, tag, date })) } }, c.mode, true);
  }),
  route("POST", "/api/pixel/add", (c) => {
    const type = text(c.body.type);
    if (!PIXEL_TYPES.includes(type)) throw new Failure("Please choose a valid pixel provider.");
    if (!text(c.body.name).trim()) throw new Failure("Please enter a name for your pixel.");
    if (!text(c.body.tag).trim()) throw new Failure("Please enter a valid tag.");
    const pixel = { id: c.store.nextId("pixels"), userId: c.user.id, type, name: text(c.body.name), tag: text(c.body.tag), date: timestamp(c.now) };
    c.store.state.pixels.push(pixel);
    return ok({ id: pixel.id });
  }),
  route("PUT", "/api/pixel/{id}/update", (c) => {
    const pixel = owned(c.store.state.pixels, c, "Pixel");
    if (!text(c.body.tag).trim()) throw new Failure("Please enter a valid tag.");
    if (c.body.name !== undefined) {
      if (!text(c.body.name).trim()) throw new Failure("Please enter a name for your pixel.");
      pixel.name = text(c.body.name);
    }
    pixel.tag = text(c.body.tag);
    return ok({ message: "Pixel has been updated successfully." });
  }),
  route("DELETE", "/api/pixel/{id}/delete", (c) => {
    removeItem(c.store.state.pixels, owned(c.store.state.pixels, c, "Pixel"));
    return ok({ message: "Pixel has been deleted successfully." });
  }),

  route("GET", "/api/qr", (c) => {
    const { slice, info } = paginate(mine(c.store.state.qrs, c).sort(newestFirst), c.query, c.mode);
    return ok({ data: { ...info, qrs: slice.map((qr) => qrView(qr, c.baseUrl, c.mode)) } }, c.mode, true);
  }),
  route("GET", "/api/qr/{id}", (c) => {
    const qr = owned(c.store.state.qrs, c, "QR");
    return ok({ details: qrView(qr, c.baseUrl, c.mode), data: statsView(qr.stats, c.mode, "qr") });
  }),
  route("POST", "/api/qr/add", createQr),
  route("PUT", "/api/qr/{id}/update", updateQr),
  route("DELETE", "/api/qr/{id}/delete", (c) => {
    removeItem(c.store.state.qrs, owned(c.store.state.qrs, c, "QR"));
    return ok({ message: "QR Code has been deleted successfully." });
  }),

  route("GET", "/api/plans", (c) => {
    requireAdmin(c);
    return ok({ data: c.store.state.plans.map(planView) });
  }),
  route("PUT", "/api/plan/{id}/user/{id}", (c) => {
    requireAdmin(c);
    const plan = c.store.state.plans.find((candidate) => candidate.id === Number(c.params[0]));
    if (!plan) throw new Failure("Plan does not exist.");
    const user = c.store.state.users.find((candidate) => candidate.id === Number(c.params[1]));
    if (!user) throw new Failure("User does not exist.");
    const type = text(c.body.type);
    if (!PLAN_TYPES.includes(type)) throw new Failure("Please choose a valid subscription type: monthly, yearly or lifetime.");
    const expiration = c.body.expiration === undefined || c.body.expiration === "" ? undefined : text(c.body.expiration);
    if (expiration !== undefined && !TIMESTAMP.test(expiration)) throw new Failure("Please enter a valid expiration date.");
    user.planId = plan.id;
    user.expires = expiration ?? expiryFor(type, c.now);
    return ok({ message: "User has been subscribed to this plan." });
  }),

  route("GET", "/api/users", (c) => {
    requireAdmin(c);
    const filter = c.query.get("filter");
    const email = c.query.get("email")?.toLowerCase();
    const users = c.store.state.users.filter((user) => {
      if (email && !user.email.toLowerCase().includes(email)) return false;
      if (filter === "admin") return user.admin;
      if (filter === "free" || filter === "pro") return accountView(user, c.store.state.plans).status === filter;
      return true;
    });
    return ok({ data: users.map((user) => userView(user, c.store.state.plans)) });
  }),
  route("GET", "/api/user/{id}", (c) => ok({ data: userView(adminUser(c), c.store.state.plans) })),
  route("POST", "/api/user/add", (c) => {
    requireAdmin(c);
    return createUser(c);
  }),
  route("DELETE", "/api/user/{id}/delete", deleteUser),
  route("GET", "/api/user/login/{id}", (c) => {
    const user = adminUser(c);
    const token = randomBytes(24).toString("hex");
    c.store.state.sso.push({ token, userId: user.id, expiresAt: c.now + 60 * 60 * 1000, used: false });
    c.store.state.sso = c.store.state.sso.filter((entry) => !entry.used && entry.expiresAt > c.now);
    return ok({ url: `${c.baseUrl}/user/login/sso/${token}` });
  }),
];

/** The route for a method and path; `pathMatched` says whether the path exists under another method. */
export function findRoute(method: string, path: string): { route?: Route; params: string[]; pathMatched: boolean } {
  let pathMatched = false;
  for (const candidate of routes) {
    const match = candidate.pattern.exec(path);
    if (!match) continue;
    pathMatched = true;
    if (candidate.method === method) return { route: candidate, params: match.slice(1), pathMatched };
  }
  return { params: [], pathMatched };
}
