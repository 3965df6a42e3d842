/**
 * The JSON shapes of the tools' structured results, for `outputSchema`.
 *
 * The client's answer schemas cannot serve here: they read raw server answers (numeric strings,
 * `0` for empty maps) through transforms, which JSON Schema cannot express. These describe what the
 * client hands back instead, and `sameAs<T>()` makes the type checker fail when one of them stops
 * matching the client's type exactly.
 */
import { PagePromise, type Account, type Domain, type Link, type LinkDetails, type Page, type Plan, type QrCode, type Statistics, type User } from "@linkshort/client";
import * as z from "zod/v4";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** Returns `schema` unchanged; a compile error ("not assignable to never") unless its output type is exactly `T`. */
function sameAs<T>() {
  return <S extends z.ZodType>(schema: S & (Same<z.output<S>, T> extends true ? unknown : never)): S => schema;
}

const timestamp = z.string().nullable().describe("YYYY-MM-DD HH:MM:SS, or null when unknown");
const counts = z.record(z.string(), z.number());

export const LinkOutput = sameAs<Link>()(
  z.object({
    id: z.number(),
    alias: z.string(),
    shorturl: z.string(),
    longurl: z.string(),
    clicks: z.number(),
    title: z.string(),
    description: z.string(),
    date: timestamp,
  }),
);

export const LinkDetailsOutput = sameAs<LinkDetails>()(
  z.object({
    id: z.number(),
    shorturl: z.string(),
    longurl: z.string(),
    title: z.string(),
    description: z.string(),
    location: z.record(z.string(), z.string()).describe("geo-targeting: country to URL"),
    device: z.record(z.string(), z.string()).describe("device targeting: device to URL"),
    expiry: timestamp,
    date: timestamp,
  }),
);

export const StatisticsOutput = sameAs<Statistics>()(
  z.object({
    clicks: z.number(),
    uniqueClicks: z.number(),
    topCountries: counts,
    topReferrers: counts,
    topBrowsers: counts,
    topOs: counts,
    socialCount: counts,
  }),
);

export const QrCodeOutput = sameAs<QrCode>()(z.object({ id: z.number(), link: z.string(), scans: z.number(), name: z.string(), date: timestamp }));

export const DomainOutput = sameAs<Domain>()(z.object({ id: z.number(), domain: z.string(), redirectroot: z.string(), redirect404: z.string() }));

export const AccountOutput = sameAs<Account>()(
  z.object({
    id: z.number(),
    email: z.string(),
    username: z.string(),
    avatar: z.string(),
    status: z.string(),
    expires: timestamp,
    registered: timestamp,
  }),
);

/** A user as the tools show it: without `apikey`, which a model has no use for and must never see. */
export type UserWithoutKey = Omit<User, "apikey">;
export const UserOutput = sameAs<UserWithoutKey>()(AccountOutput.extend({ planid: z.number().nullable() }));

const feature = z.object({ enabled: z.boolean() });
const countedFeature = z.object({ enabled: z.boolean(), count: z.number() });
const price = z.number().nullable();

export const PlanOutput = sameAs<Plan>()(
  z.object({
    id: z.number(),
    name: z.string(),
    free: z.boolean(),
    prices: z.object({ monthly: price, yearly: price, lifetime: price }).nullable(),
    limits: z.object({
      links: z.number(),
      clicks: z.number(),
      retention: z.number(),
      custom: feature.optional(),
      multiple: feature.optional(),
      alias: feature.optional(),
      device: feature.optional(),
      geo: feature.optional(),
      bundle: feature.optional(),
      parameters: feature.optional(),
      export: feature.optional(),
      api: feature.optional(),
      team: countedFeature.optional(),
      splash: countedFeature.optional(),
      overlay: countedFeature.optional(),
      pixels: countedFeature.optional(),
      domain: countedFeature.optional(),
    }),
  }),
);

/** Where a paged list stands, so that a model can ask for the next page. */
export const pageOutput = {
  currentpage: z.number(),
  maxpage: z.number(),
  morePages: z.boolean().describe("Whether another page follows: ask for page currentpage + 1"),
};

/** A page's position, with the client's own rule for where a list ends (servers' `nextpage` and `maxpage` can mislead). */
export function pagePosition(page: Page<unknown>, requested: number) {
  return { currentpage: page.currentpage, maxpage: page.maxpage, morePages: !PagePromise.isLastPage(page, requested) };
}
