/**
 * Everything a link is made of: the inputs of create, update and list (each field described for
 * those who fill it in), the answers, and how reuse compares each create field with a link's
 * details. A new field of a link is added here, and only here.
 */
import * as z from "zod/v4";
import { reshaped } from "../../internal/readers";
import { count, httpUrl, identifier, nonEmpty, optionalText, targetMap, text, timestamp, timestampInput, TIMESTAMP_DESCRIPTION } from "../fields";
import { PaginationSchema, StatisticsSchema, type PageLimit } from "../shared";
import { UtmSchema } from "./utm";

export const REDIRECT_TYPES = ["direct", "frame", "splash"] as const;
export type RedirectType = (typeof REDIRECT_TYPES)[number];

export const LINK_ORDERS = ["date", "click"] as const;
const ALIAS_PATTERN = /^[A-Za-z0-9-]{3,50}$/;

export const LinkListSchema = PaginationSchema.extend({
  order: z.enum(LINK_ORDERS, `must be one of ${LINK_ORDERS.join(", ")}`).optional(),
});
export type LinkListInput = Omit<z.input<typeof LinkListSchema>, "limit"> & { limit?: PageLimit };

const geoTarget = z.strictObject({ location: nonEmpty, link: httpUrl });
const deviceTarget = z.strictObject({ device: nonEmpty, link: httpUrl });
const parameter = z.strictObject({ name: nonEmpty, value: z.string("must be text") });

/**
 * On create, `type` may also name a custom splash page by its id (a number) or a CTA overlay as
 * `overlay-<id>`.
 */
const LinkTypeSchema = z.union([z.enum(REDIRECT_TYPES), z.number().int().positive(), z.string().regex(/^[1-9]\d*$/), z.string().regex(/^overlay-[1-9]\d*$/)], {
  error: `must be ${REDIRECT_TYPES.join(", ")}, a splash page id or overlay-<id>`,
});

const linkFields = {
  url: httpUrl.describe("The long URL to shorten, http or https"),
  custom: z
    .string("must be text")
    .regex(ALIAS_PATTERN, "must be 3 to 50 letters, digits or hyphens")
    .optional()
    .describe("Custom alias, the part after the domain: 3 to 50 letters, digits or hyphens. Omit for a generated one"),
  password: z.string("must be text").min(1, "must not be empty").optional().describe("Visitors must enter this password before they are redirected"),
  domain: httpUrl.optional().describe("A branded domain of the account (e.g. https://go.example.com). Omit for the service's own"),
  expiry: timestampInput.optional().describe(`When the link stops redirecting: ${TIMESTAMP_DESCRIPTION}`),
  geotarget: z
    .array(geoTarget, "must be a list of {location, link}")
    .optional()
    .describe("Send visitors from a country elsewhere: [{location: country name, link: URL}]"),
  devicetarget: z
    .array(deviceTarget, "must be a list of {device, link}")
    .optional()
    .describe("Send visitors on a device elsewhere: [{device: e.g. iPhone, Android, link: URL}]"),
  parameters: z.array(parameter, "must be a list of {name, value}").optional().describe("Query parameters appended to the long URL: [{name, value}]"),
  /** Campaign fields, written into `parameters` as `utm_source` and so on. */
  utm: UtmSchema.optional().describe(
    "Campaign tracking fields appended to the long URL as utm_source, utm_medium, utm_campaign, utm_term and utm_content: {source, medium, campaign, term, content}, each optional",
  ),
  metatitle: optionalText.describe("Title shown when the short link is shared"),
  metadescription: optionalText.describe("Description shown when the short link is shared"),
};

export const LinkCreateSchema = z.strictObject({
  ...linkFields,
  type: LinkTypeSchema.optional().describe(
    "Redirect type: direct (default), frame, splash, the id of a custom splash page, or overlay-<id> for a call-to-action overlay",
  ),
});
export type LinkCreateInput = z.input<typeof LinkCreateSchema>;

export const LinkUpdateSchema = z.strictObject({
  ...linkFields,
  url: httpUrl.describe("The long URL, required even when it does not change; the short URL stays the same"),
  type: z
    .enum(REDIRECT_TYPES, `must be one of ${REDIRECT_TYPES.join(", ")}`)
    .optional()
    .describe("Redirect type: direct, frame or splash"),
});
export type LinkUpdateInput = z.input<typeof LinkUpdateSchema>;

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

export const LinkCreatedSchema = z.object({ id: identifier, shorturl: text });
export type LinkCreated = z.output<typeof LinkCreatedSchema>;

/** The update answer names the address `short` in the document and `shorturl` in deployed code. */
export const LinkUpdatedSchema = reshaped(
  z.object({ id: identifier, shorturl: z.string().optional(), short: z.string().optional() }),
  ({ id, shorturl, short }) => ({ id, shorturl: shorturl ?? short ?? "" }),
);
export type LinkUpdated = z.output<typeof LinkUpdatedSchema>;

export const LinkWithStatsSchema = reshaped(z.object({ details: LinkDetailsSchema, data: StatisticsSchema }), ({ details, data }) => ({
  details,
  stats: data,
}));
export type LinkWithStats = z.output<typeof LinkWithStatsSchema>;

/** A create body as it is sent: checked, with the UTM fields written into `parameters`. */
export type LinkCreateBody = Omit<z.output<typeof LinkCreateSchema>, "utm">;

/** `{location: link}` of a GET's answer, from the input's list (the server lower-cases the names). */
function targetsOf<K extends string>(targets: Array<Record<K | "link", string>> | undefined, key: K): string {
  const entries = (targets ?? []).map((target) => [target[key].trim().toLowerCase(), target.link] as const);
  return JSON.stringify(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const sortedTargets = (map: Record<string, string>) =>
  JSON.stringify(
    Object.entries(map)
      .map(([name, link]) => [name.toLowerCase(), link] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );

/** Some servers keep only the date part of an expiry. */
const sameExpiry = (asked: string | undefined, held: string | null) =>
  asked === undefined ? held === null : held !== null && (held === asked || (held.length === 10 && asked.startsWith(held)));

/**
 * How `createLink` (with `reuse`) compares each field of a create body with the details of a link it might
 * hand back instead (read just before it does): whether the link has what was asked, absent
 * included. `"not shown"`: the details never show it; reuse compares such a field its own way
 * (alias, domain, redirect type, parameters) or, given one it cannot compare (a password), creates.
 */
export const REUSE_DETAILS_MATCH: { [K in keyof LinkCreateBody]-?: ((asked: LinkCreateBody[K], details: LinkDetails) => boolean) | "not shown" } = {
  url: (asked, details) => details.longurl === asked,
  custom: "not shown",
  password: "not shown",
  domain: "not shown",
  expiry: (asked, details) => sameExpiry(asked, details.expiry),
  geotarget: (asked, details) => sortedTargets(details.location) === targetsOf(asked, "location"),
  devicetarget: (asked, details) => sortedTargets(details.device) === targetsOf(asked, "device"),
  parameters: "not shown",
  metatitle: (asked, details) => details.title === (asked ?? ""),
  metadescription: (asked, details) => details.description === (asked ?? ""),
  type: "not shown",
};
