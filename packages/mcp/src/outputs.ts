/**
 * The JSON shapes of the tools' structured results, for `outputSchema`.
 *
 * The client's answer schemas cannot serve here: they read raw server answers (numeric strings,
 * `0` for empty maps) through transforms, which JSON Schema cannot express. These describe what the
 * client hands back instead, and `sameAs<T>()` makes the type checker fail when one of them stops
 * matching the client's type exactly.
 */
import type { Account, Domain, Link, LinkDetails, Plan, QrCode, Statistics, User } from "@linkshort/client";
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
const pageOutput = {
  currentpage: z.number(),
  maxpage: z.number(),
  morePages: z.boolean().describe("Whether another page follows: ask for page currentpage + 1"),
};

// What each tool answers, built from the shapes above.

export const MessageOutput = z.object({ message: z.string() });

export const CreatedLinkOutput = z.object({ id: z.number(), shorturl: z.string() });

export const ShortenedLinkOutput = CreatedLinkOutput.extend({
  reused: z.boolean().describe("true: an existing link to this URL was given back (reuse); false: a new link was made"),
  note: z.string().optional().describe("Present when an older link to the URL may exist that the index does not know yet"),
});

export const BulkResultOutput = z.object({
  url: z.string().describe("The URL as given (cut to 500 characters)"),
  status: z.enum(["created", "reused", "failed", "skipped"]).describe("skipped: not tried (the call stopped first: see error)"),
  id: z.number().optional(),
  shorturl: z.string().optional(),
  error: z.string().optional().describe("Why it failed or was skipped, naming the field"),
});

export const ShortenedLinksOutput = z.object({
  results: z.array(BulkResultOutput).describe("One result per URL, in the order given"),
  created: z.number(),
  reused: z.number(),
  failed: z.number(),
  skipped: z.number(),
});

const FreshnessOutput = z
  .object({
    known: z.number().describe("Links in the index"),
    serverCount: z.number().nullable().describe("How many links the server holds, as last read (null before the first read)"),
    complete: z.boolean().describe("Whether a full sync has finished: every link that existed then is indexed"),
    lastFullSweep: z.string().nullable().describe("When every link was last checked against the server (ISO 8601), null before the first full sync"),
    lastSync: z.string().nullable().describe("When the newest links were last read (ISO 8601)"),
    summary: z.string().describe("How fresh the answer is, in a sentence to pass on"),
  })
  .describe("How fresh the link index is: links made through this server are there at once, links made elsewhere after the next read");

export const FoundLinksOutput = z.object({
  links: z.array(LinkOutput),
  matches: z.number().describe("How many indexed links matched, of which links are the best"),
  index: FreshnessOutput,
});

export const LinkWithStatsOutput = z.object({ details: LinkDetailsOutput, stats: StatisticsOutput });

const QrImageOutput = z
  .object({
    url: z.string().optional().describe("Where the PNG was read"),
    bytes: z.number().optional(),
    unavailable: z.string().optional().describe("Why no image is shown"),
  })
  .describe("The QR code's PNG, shown as image content next to this answer");

export const CreatedQrCodeOutput = z.object({ id: z.number(), link: z.string(), image: QrImageOutput });

export const QrCodeWithStatsOutput = z.object({ details: QrCodeOutput, stats: StatisticsOutput, image: QrImageOutput });

export const QrCodePageOutput = z.object({ qrCodes: z.array(QrCodeOutput), ...pageOutput });

export const DomainPageOutput = z.object({ domains: z.array(DomainOutput), ...pageOutput });

export const PlansOutput = z.object({ plans: z.array(PlanOutput) });

export const UsersOutput = z.object({ users: z.array(UserOutput) });

export const CreatedUserOutput = z.object({ id: z.number(), email: z.string().optional(), username: z.string().optional() });
