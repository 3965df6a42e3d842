import { REDIRECT_TYPES } from "@linkshort/client/core";
import { shortUrl } from "../views/addresses";
import type { Mode } from "../views/mode";
import { parseTimestamp } from "../views/dates";
import type { Stats } from "../visits/stats";
import { Failure, TIMESTAMP, isUrl, oneOf, text } from "./checks";

/**
 * A link as the sandbox keeps it, how a create or update body fills it, and how the API shows it:
 * a new optional field of links is added here alone (record, body, default, details view), and
 * seeds and the create's "same link" check pick it up from `linkDefaults` and `LinkFields`.
 */

export interface LinkRecord extends LinkFields {
  id: number;
  userId: number;
  alias: string;
  /** The branded domain (with scheme), or null for the service's own. */
  domain: string | null;
  date: string;
  stats: Stats;
}

/** What a create or update body sets; the rest of a link (alias, domain) is checked by the routes against other links. */
export interface LinkFields {
  url: string;
  type: string;
  password: string | null;
  expiry: string | null;
  geotarget: Array<{ location: string; link: string }>;
  devicetarget: Array<{ device: string; link: string }>;
  parameters: Array<{ name: string; value: string }>;
  metatitle: string;
  metadescription: string;
}

/** The fields of a link made with its URL alone: what a create body leaves out, and what seeds start from. */
export const linkDefaults = (): Omit<LinkFields, "url"> => ({
  type: "direct",
  password: null,
  expiry: null,
  geotarget: [],
  devicetarget: [],
  parameters: [],
  metatitle: "",
  metadescription: "",
});

/**
 * Whether a link has these fields, every one of them (deployed servers hand back such a link
 * instead of making another). A field the record lacks counts as its default: a link saved before
 * the field existed, or pushed whole by a test, has none.
 */
export function hasLinkFields(link: LinkRecord, fields: LinkFields): boolean {
  const defaults: Partial<LinkFields> = linkDefaults();
  return Object.entries(fields).every(([name, value]) => {
    const field = name as keyof LinkFields;
    return JSON.stringify(link[field] ?? defaults[field]) === JSON.stringify(value);
  });
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

function linkType(context: LinkBodyContext, value: unknown, allowCustom: boolean): string {
  if (value === undefined || value === null || value === "") return "direct";
  const type = text(value);
  if (oneOf(REDIRECT_TYPES, type)) return type;
  if (allowCustom && /^\d+$/.test(type)) {
    if (!context.store.state.splash.some((page) => page.userId === context.user.id && page.id === Number(type)))
      throw new Failure("Custom splash page does not exist.");
    return type;
  }
  const overlay = /^overlay-(\d+)$/.exec(type);
  if (allowCustom && overlay) {
    if (!context.store.state.overlays.some((item) => item.userId === context.user.id && item.id === Number(overlay[1])))
      throw new Failure("CTA overlay does not exist.");
    return type;
  }
  throw new Failure("Invalid redirect type.");
}

/**
 * What reading a body's link fields needs of its request (a route's `ApiContext` is one): the body,
 * the time, and the user's splash pages and overlays, which custom redirect types name.
 */
export interface LinkBodyContext {
  body: Record<string, unknown>;
  now: number;
  user: { id: number };
  store: { state: { splash: ReadonlyArray<{ id: number; userId: number }>; overlays: ReadonlyArray<{ id: number; userId: number }> } };
}

/** The link fields a create or update body sets: on update, what the body leaves out keeps its value. */
export function linkFields(context: LinkBodyContext, existing: LinkRecord | undefined): LinkFields {
  const { body } = context;
  // A field the stored link lacks is its default, as everywhere else: the update writes it in.
  const previous = { ...linkDefaults(), ...existing };
  if (!isUrl(body.url)) throw new Failure("Please enter a valid URL.");
  let expiry = previous.expiry;
  if (body.expiry !== undefined && body.expiry !== null && body.expiry !== "") {
    const value = text(body.expiry);
    if (!TIMESTAMP.test(value) || Number.isNaN(parseTimestamp(value))) throw new Failure("Please enter a valid expiry date.");
    if (parseTimestamp(value) <= context.now) throw new Failure("The expiry date must be later than today.");
    expiry = value;
  }
  return {
    url: body.url,
    type: linkType(context, body.type ?? existing?.type, existing === undefined),
    password: body.password === undefined ? previous.password : text(body.password) || null,
    expiry,
    geotarget: body.geotarget === undefined ? previous.geotarget : targets(body.geotarget, "location", "geotargeting"),
    devicetarget: body.devicetarget === undefined ? previous.devicetarget : targets(body.devicetarget, "device", "device targeting"),
    parameters: body.parameters === undefined ? previous.parameters : parameters(body.parameters),
    metatitle: body.metatitle === undefined ? previous.metatitle : text(body.metatitle),
    metadescription: body.metadescription === undefined ? previous.metadescription : text(body.metadescription),
  };
}

export function linkListView(link: LinkRecord, baseUrl: string, mode: Mode) {
  return {
    id: link.id,
    alias: link.alias,
    shorturl: shortUrl(link, baseUrl),
    longurl: link.url,
    clicks: mode === "deployed" ? String(link.stats.clicks) : link.stats.clicks,
    title: link.metatitle,
    description: link.metadescription,
    date: link.date,
  };
}

function targetMap(entries: Array<[string, string]>, mode: Mode) {
  if (entries.length === 0) return mode === "deployed" ? [] : {};
  return Object.fromEntries(entries.map(([name, link]) => [name.toLowerCase(), link]));
}

export function linkDetailsView(link: LinkRecord, baseUrl: string, mode: Mode) {
  return {
    id: link.id,
    shorturl: shortUrl(link, baseUrl),
    longurl: link.url,
    title: link.metatitle,
    description: link.metadescription,
    location: targetMap(
      link.geotarget.map((target) => [target.location, target.link]),
      mode,
    ),
    device: targetMap(
      link.devicetarget.map((target) => [target.device, target.link]),
      mode,
    ),
    expiry: link.expiry,
    date: link.date,
  };
}
