/**
 * The one definition of every shape the API sends back. Each schema accepts the variants that
 * deployed servers produce (see docs/deployed-servers.md) and normalises them, so that every front end
 * sees one clean type.
 */
import * as z from "zod/v4";

import { isPlainObject, normaliser, Rejected, reshaped } from "./readers";

/**
 * Whether `value` is a decimal such as `12`, `-3` or `4.50` (what `/^-?\d+(\.\d+)?$/` matches).
 * Spelled out because statistics arrive as dozens of numeric strings per answer and this is
 * twice as fast as the regular expression.
 */
export function isDecimalString(value: string): boolean {
  const length = value.length;
  let index = value.charCodeAt(0) === 45 /* - */ ? 1 : 0;
  const integerStart = index;
  while (index < length && isDigit(value.charCodeAt(index))) index += 1;
  if (index === integerStart) return false;
  if (index === length) return true;
  if (value.charCodeAt(index) !== 46 /* . */) return false;
  const fractionStart = (index += 1);
  while (index < length && isDigit(value.charCodeAt(index))) index += 1;
  return index === length && index > fractionStart;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/*
 * Each leaf is one plain function rather than a union of alternatives: every answer runs through
 * them, and `normaliser` lets the client read answers without zod's per-field machinery (readers.ts).
 */

function readCount(value: unknown): number | Rejected {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (value === null || value === undefined) return 0;
  if (typeof value === "string" && isDecimalString(value)) return Number(value);
  return new Rejected("expected a number");
}

function readIdentifier(value: unknown): number | Rejected {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string" && /^\d+$/.test(value)) return Number(value);
  return new Rejected("expected a numeric id");
}

/** A number that may arrive as a numeric string; null and absent become 0. */
export const count = normaliser(readCount);

/** A numeric identifier that may arrive as a string. */
export const identifier = normaliser(readIdentifier);

/** A string that may be null or absent; becomes "". */
export const text = normaliser((value): string | Rejected => {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return String(value);
  return new Rejected("expected text");
});

/** A timestamp `YYYY-MM-DD HH:MM:SS` (or only its date part), kept as the string the server sent, or null. */
export const timestamp = normaliser((value): string | null | Rejected => {
  if (typeof value === "string") return value || null;
  if (value === null || value === undefined) return null;
  return new Rejected("expected a timestamp");
});

/** PHP sends an empty map as `0`, `"0"`, `[]`, `false` or null. */
function isEmptyMap(value: unknown): boolean {
  return value === 0 || value === "0" || value === false || value === null || value === undefined || (Array.isArray(value) && value.length === 0);
}

/** A statistics map (name to count) whose counts may be numeric strings and which is `0` when empty. */
export const countMap = normaliser((value): Record<string, number> | Rejected => {
  if (isEmptyMap(value)) return {};
  if (!isPlainObject(value)) return new Rejected("expected a map of counts");
  const counts: Record<string, number> = {};
  // for-in is the fastest walk over the keys, and a parsed JSON object inherits none.
  for (const name in value) {
    const raw = value[name];
    if (typeof raw === "number" && Number.isFinite(raw)) counts[name] = raw;
    else if (typeof raw === "string" && isDecimalString(raw)) counts[name] = Number(raw);
    else return new Rejected(`expected a count for "${name}"`);
  }
  return counts;
});

/** A targeting map (lower-case location or device name to URL); empty may arrive as `[]` or `0`. */
export const targetMap = normaliser((value): Record<string, string> | Rejected => {
  if (isEmptyMap(value)) return {};
  if (!isPlainObject(value)) return new Rejected("expected a map of URLs");
  for (const name of Object.keys(value)) if (typeof value[name] !== "string") return new Rejected(`expected a URL for "${name}"`);
  return value as Record<string, string>;
});

/** `0`, `"0"` and `false` mean off; `1`, `"1"` and `true` mean on. */
export const flag = normaliser((value): boolean | Rejected => {
  if (value === true || value === 1 || value === "1") return true;
  if (value === false || value === 0 || value === "0" || value === "" || value === null || value === undefined) return false;
  return new Rejected("expected 0 or 1");
});

export const AccountSchema = z.object({
  id: identifier,
  email: text,
  username: text,
  avatar: text,
  status: text,
  expires: timestamp,
  registered: timestamp,
});
export type Account = z.output<typeof AccountSchema>;

export const UserSchema = AccountSchema.extend({
  planid: normaliser((value): number | null | Rejected => {
    if (value === null || value === undefined || value === "" || value === 0 || value === "0") return null;
    const id = readIdentifier(value);
    return id instanceof Rejected ? new Rejected("expected a plan id") : id;
  }),
  apikey: text,
});
export type User = z.output<typeof UserSchema>;

export const DomainSchema = z.object({
  id: identifier,
  domain: text,
  redirectroot: text,
  redirect404: text,
});
export type Domain = z.output<typeof DomainSchema>;

export const SplashPageSchema = z.object({ id: identifier, name: text, date: timestamp });
export type SplashPage = z.output<typeof SplashPageSchema>;

export const OverlaySchema = z.object({ id: identifier, type: text, name: text, date: timestamp });
export type Overlay = z.output<typeof OverlaySchema>;

export const LinkSchema = z.object({
  id: identifier,
  alias: text,
  shorturl: text,
  longurl: text,
  clicks: count,
  title: text,
  description: text,
  date: timestamp,
});
export type Link = z.output<typeof LinkSchema>;

export const LinkDetailsSchema = z.object({
  id: identifier,
  shorturl: text,
  longurl: text,
  title: text,
  description: text,
  location: targetMap,
  device: targetMap,
  expiry: timestamp,
  date: timestamp,
});
export type LinkDetails = z.output<typeof LinkDetailsSchema>;

export const StatisticsSchema = z.object({
  clicks: count,
  uniqueClicks: count,
  topCountries: countMap,
  topReferrers: countMap,
  topBrowsers: countMap,
  topOs: countMap,
  socialCount: countMap,
});
export type Statistics = z.output<typeof StatisticsSchema>;

export const PixelSchema = z.object({ id: identifier, type: text, name: text, tag: text, date: timestamp });
export type Pixel = z.output<typeof PixelSchema>;

export const QrCodeSchema = z.object({ id: identifier, link: text, scans: count, name: text, date: timestamp });
export type QrCode = z.output<typeof QrCodeSchema>;

const featureLimit = z.object({ enabled: flag });
const countedLimit = z.object({ enabled: flag, count: count });
const price = normaliser((value): number | null | Rejected => {
  if (value === null || value === undefined) return null;
  const parsed = readCount(value);
  return parsed instanceof Rejected ? new Rejected("expected a price") : parsed;
});
const PricesSchema = z.object({ monthly: price, yearly: price, lifetime: price });

export const PlanSchema = z.object({
  id: identifier,
  name: text,
  free: flag,
  prices: normaliser((value): z.output<typeof PricesSchema> | null | Rejected => {
    if (isEmptyMap(value)) return null;
    if (!isPlainObject(value)) return new Rejected("expected prices");
    const parsed = PricesSchema.safeParse(value);
    return parsed.success ? parsed.data : new Rejected("expected numeric prices");
  }),
  limits: z.object({
    links: count,
    clicks: count,
    retention: count,
    custom: featureLimit.optional(),
    multiple: featureLimit.optional(),
    alias: featureLimit.optional(),
    device: featureLimit.optional(),
    geo: featureLimit.optional(),
    bundle: featureLimit.optional(),
    parameters: featureLimit.optional(),
    export: featureLimit.optional(),
    api: featureLimit.optional(),
    team: countedLimit.optional(),
    splash: countedLimit.optional(),
    overlay: countedLimit.optional(),
    pixels: countedLimit.optional(),
    domain: countedLimit.optional(),
  }),
});
export type Plan = z.output<typeof PlanSchema>;

/** The numbers of a paged list envelope. */
export const PageInfoSchema = z.object({
  result: count,
  perpage: count,
  currentpage: count,
  nextpage: normaliser((value): number | null | Rejected => {
    if (value === null || value === undefined) return null;
    const parsed = readCount(value);
    return parsed instanceof Rejected ? new Rejected("expected a page number") : parsed;
  }),
  maxpage: count,
});

/** One page of a list, with its items. */
export interface Page<T> {
  items: T[];
  result: number;
  perpage: number;
  currentpage: number;
  nextpage: number | null;
  maxpage: number;
}

export const LinkCreatedSchema = z.object({ id: identifier, shorturl: text });
export type LinkCreated = z.output<typeof LinkCreatedSchema>;

/** The update answer names the address `short` in the document and `shorturl` in deployed code. */
export const LinkUpdatedSchema = reshaped(
  z.object({ id: identifier, shorturl: z.string().optional(), short: z.string().optional() }),
  ({ id, shorturl, short }) => ({ id, shorturl: shorturl ?? short ?? "" }),
);
export type LinkUpdated = z.output<typeof LinkUpdatedSchema>;

export const CreatedSchema = z.object({ id: identifier });
export type Created = z.output<typeof CreatedSchema>;

export const QrCodeCreatedSchema = z.object({ id: identifier, link: text });
export type QrCodeCreated = z.output<typeof QrCodeCreatedSchema>;

/** `data: {id, email, username}` on some versions, a bare `userid` on others. */
export const UserCreatedSchema = reshaped(
  z.object({
    data: z.object({ id: identifier, email: z.string().optional(), username: z.string().optional() }).optional(),
    userid: identifier.optional(),
    id: identifier.optional(),
  }),
  (body) => {
    const id = body.data?.id ?? body.userid ?? body.id;
    if (id === undefined) return new Rejected("no user id in the answer", ["data", "id"]);
    return { id, email: body.data?.email, username: body.data?.username };
  },
);
export type UserCreated = z.output<typeof UserCreatedSchema>;

export const MessageSchema = z.object({ message: text });
export type MessageResult = z.output<typeof MessageSchema>;

export const LoginLinkSchema = z.object({ url: z.string() });
export type LoginLink = z.output<typeof LoginLinkSchema>;

export const LinkWithStatsSchema = reshaped(z.object({ details: LinkDetailsSchema, data: StatisticsSchema }), ({ details, data }) => ({ details, stats: data }));
export type LinkWithStats = z.output<typeof LinkWithStatsSchema>;

export const QrCodeWithStatsSchema = reshaped(z.object({ details: QrCodeSchema, data: StatisticsSchema }), ({ details, data }) => ({ details, stats: data }));
export type QrCodeWithStats = z.output<typeof QrCodeWithStatsSchema>;
