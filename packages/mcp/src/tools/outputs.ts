/**
 * The JSON shapes of the tools' structured results, for `outputSchema`.
 *
 * The client's answer schemas cannot serve here: they read raw server answers (numeric strings,
 * `0` for empty maps) through transforms, which JSON Schema cannot express. These describe what the
 * client hands back instead, and `sameAs<T>()` makes the type checker fail when one of them stops
 * matching the client's type exactly.
 */
import type {
  Account,
  BucketQuality,
  ClickBucket,
  ClickSeries,
  Domain,
  Granularity,
  Link,
  LinkDetails,
  Plan,
  QrCode,
  Statistics,
  UnplacedClickSpan,
  User,
} from "@linkshort/client";
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

/** A click history's times as the tools show them: ISO 8601 instead of epoch milliseconds. */
type Iso<T, Times extends keyof T> = { [K in keyof T]: K extends Times ? (null extends T[K] ? string | null : string) : T[K] };

const iso = z.string().describe("ISO 8601 (UTC)");
const isoOrNull = z.string().nullable();
const QUALITIES = ["exact", "spread", "partial", "gap", "none"] as const satisfies readonly BucketQuality[];

export const ClickBucketOutput = sameAs<Iso<Omit<ClickBucket, "uniqueQuality">, "start" | "end" | "measuredFrom" | "measuredTo">>()(
  z.object({
    start: iso,
    end: iso,
    clicks: z.number().nullable().describe("Clicks gained in the bucket; null: no data (see quality), never zero for unknown"),
    quality: z
      .enum(QUALITIES)
      .describe(
        "exact: between samples at its ends; spread: shared out of a longer sampling interval; partial: sampled over part of it; gap: nothing was sampling; none: before the first sample or after the last",
      ),
    measuredFrom: isoOrNull.describe("The sampled time the count starts at"),
    measuredTo: isoOrNull.describe("The sampled time the count ends at"),
    uniqueClicks: z.number().nullable().describe("New unique clicks, where the link's details were read around the bucket"),
    reset: z.boolean().describe("The link's total went down in it (a reset link, an id used again): that interval counts nothing"),
  }),
);

export type LinkClicksOverTime = Iso<
  Pick<ClickSeries, "total" | "uniqueTotal" | "measuredFrom" | "measuredTo" | "firstSampleAt" | "lastSampleAt">,
  "measuredFrom" | "measuredTo" | "firstSampleAt" | "lastSampleAt"
> & {
  id: number;
  shorturl: string | null;
  title: string | null;
  unplaced: Array<Iso<UnplacedClickSpan, "from" | "to">>;
  buckets: Array<z.output<typeof ClickBucketOutput>>;
  summary: string;
};

const LinkClicksOverTimeOutput = sameAs<LinkClicksOverTime>()(
  z.object({
    id: z.number(),
    shorturl: z.string().nullable().describe("null when the link index does not know the link yet"),
    title: z.string().nullable(),
    total: z
      .number()
      .nullable()
      .describe("Clicks from measuredFrom to measuredTo: the buckets' clicks plus unplaced; null when nothing was sampled in the period"),
    uniqueTotal: z.number().nullable(),
    measuredFrom: isoOrNull,
    measuredTo: isoOrNull,
    firstSampleAt: isoOrNull.describe("This server's first sample of the link: no data before it"),
    lastSampleAt: isoOrNull,
    unplaced: z.array(z.object({ from: iso, to: iso, clicks: z.number() })).describe("Clicks gained while nothing sampled: in the total, in no bucket"),
    buckets: z.array(ClickBucketOutput),
    summary: z.string().describe("What the series says and cannot know, in sentences to pass on"),
  }),
);

export interface ClicksOverTime {
  top: boolean;
  timeZone: string;
  granularity: Granularity;
  start: string;
  end: string;
  links: LinkClicksOverTime[];
  history: { firstSampleAt: string | null; sampledLinks: number; resolution: string; notes: string[] };
  summary: string;
}

export const ClicksOverTimeOutput = sameAs<ClicksOverTime>()(
  z.object({
    top: z.boolean().describe("true: the account's top links of the period (no id asked for)"),
    timeZone: z.string(),
    granularity: z.enum(["hour", "day", "week", "month"]),
    start: iso.describe("Start of the first bucket"),
    end: iso.describe("End of the last bucket"),
    links: z.array(LinkClicksOverTimeOutput).describe("The link asked for, or the top links of the period, most clicks first"),
    history: z
      .object({
        firstSampleAt: isoOrNull.describe("How far this server's history reaches: the link's first sample, or the account's for its top links"),
        sampledLinks: z.number().describe("Links with any history on this server"),
        resolution: z.string().describe("How often this server samples, for an account of this size"),
        notes: z.array(z.string()).describe("What could not be used of a stored history"),
      })
      .describe("What this server's click history holds"),
    summary: z.string(),
  }),
);

/** get_link's answer: a link's details and statistics, or its (or the top links') clicks over time, as the question asked. */
export const LinkOrClicksOutput = LinkWithStatsOutput.partial().extend(ClicksOverTimeOutput.partial().shape);
