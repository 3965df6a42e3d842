/**
 * get_link's clicks over time: a link's clicks (or the account's top links') over a period, in buckets of
 * a granularity in an IANA zone, from the click history this server samples while it runs. Every
 * bucket says how it was measured; the answer says how far the history reaches and how often it
 * samples, so a model never reads "no data" as zero.
 */
import { deflateSync } from "node:zlib";
import {
  accountSeriesOf,
  chartSeriesOf,
  ClickMomentSchema,
  defaultGranularity,
  GranularitySchema,
  IdSchema,
  isoOrNull,
  TimeZoneSchema,
  type ClickSeries,
  type Granularity,
} from "@linkshort/client";
import type { ClickChart } from "@linkshort/client/charts";
import * as z from "zod/v4";
import type { ClicksOverTime, LinkClicksOverTime } from "./outputs";
import { SAMPLE_EVERY_MS, SWEEP_EVERY_MS } from "../account/server-index";
import { AnswerWithImage, type SeriesViewData, type ToolContext } from "./define";
import { loadCharts } from "./chart";
import { seriesSummary, toIso } from "./clicks-summary";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Periods a caller may name, as Dub's `interval` does. */
const PERIODS = { "24h": DAY, "7d": 7 * DAY, "30d": 30 * DAY, "90d": 90 * DAY, "1y": 365 * DAY } as const;
type Period = keyof typeof PERIODS;
const NOMINAL_MS: Record<Granularity, number> = { hour: HOUR, day: DAY, week: 7 * DAY, month: 30.44 * DAY };
/** The most buckets of one series in one answer: a year of days, 16 days of hours. */
export const MAX_BUCKETS_PER_SERIES = 400;
/** The links the sweep reads a page (the largest page the service gives). */
const SWEEP_PAGE = 1000;

const time = z
  .string("must be text")
  .max(40, "must be an ISO 8601 time")
  .refine(
    (text) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text) && !Number.isNaN(Date.parse(text)),
    "must be an ISO 8601 time with its offset, such as 2026-11-20T08:00:00Z",
  )
  .transform((text) => Date.parse(text))
  .pipe(ClickMomentSchema);

/** The fields of a question of clicks over time, as get_link lists them beside a link's id. */
export const CLICKS_OVER_TIME_FIELDS = {
  id: IdSchema.optional().describe("The link's id (from find_links or shorten_link). Omit for the account's top links of a period"),
  period: z
    .enum(Object.keys(PERIODS) as [Period, ...Period[]], "must be 24h, 7d, 30d, 90d or 1y")
    .optional()
    .describe("Up to now (default 7d); start overrides it"),
  start: time.optional().describe("ISO 8601 with offset, e.g. 2026-11-20T00:00:00+01:00; moved back to its bucket's start"),
  end: time.optional().describe("Default now; ISO 8601 with offset, moved on to its bucket's end"),
  granularity: GranularitySchema.optional().describe("Default: hour up to 2 days, day up to 120 days, else month"),
  timeZone: TimeZoneSchema.default("UTC"),
  limit: z
    .number("must be a number")
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(10, "must be at most 10")
    .default(5)
    .describe("Top links to show when id is omitted"),
};

/** Which fields ask for clicks over time rather than a link's details and statistics. */
export const OVER_TIME_FIELDS = ["period", "start", "end", "granularity", "timeZone", "limit"] as const;

/** A question of clicks over time checked (the fields given) into the query's moments and granularity; issues at the fields they concern. */
export function toClicksQuery(input: z.output<z.ZodObject<typeof CLICKS_OVER_TIME_FIELDS>>, context: z.RefinementCtx) {
  const end = input.end ?? Date.now();
  const start = input.start ?? end - PERIODS[input.period ?? "7d"];
  // end is a moment the schema took (1970 to 9999); a period back from it can only fall before 1970.
  if (input.start === undefined && start < 0) {
    context.addIssue({ code: "custom", path: ["period"], message: "reaches back before 1970 from end: give start instead" });
  }
  if (end <= start)
    context.addIssue({
      code: "custom",
      path: [input.end === undefined ? "start" : "end"],
      message: input.end === undefined ? "must be before now" : "must be after start",
    });
  const granularity: Granularity = input.granularity ?? defaultGranularity(start, end);
  const buckets = Math.ceil((end - start) / NOMINAL_MS[granularity]);
  if (buckets > MAX_BUCKETS_PER_SERIES) {
    context.addIssue({
      code: "custom",
      path: ["granularity"],
      message: `${granularity} gives about ${buckets} buckets over this period, more than the ${MAX_BUCKETS_PER_SERIES} one answer holds: choose a coarser one or a shorter period`,
    });
  }
  return { id: input.id, start, end, granularity, timeZone: input.timeZone, limit: input.limit };
}

export type ClicksQuery = ReturnType<typeof toClicksQuery>;

/** How often this server samples every link of an account of `links` links, in a sentence. */
export function resolutionSentence(links: number): string {
  const requests = Math.ceil(links / SWEEP_PAGE) + 2;
  return (
    `While it runs, this server reads the newest links every ${SAMPLE_EVERY_MS / 60_000} minutes and every link of the account ` +
    `(${links} known: a sweep of ${requests} requests at a third of the rate limit) ${SWEEP_EVERY_MS / 60_000} minutes after its last sweep ended, ` +
    "so a bucket is measured to about a quarter hour at best; get_link samples its link at once. Nothing is sampled while it does not run (a gap)."
  );
}

function linkAnswer(series: ClickSeries, context: ToolContext, read?: { shorturl: string; title: string }): LinkClicksOverTime {
  const link = read ?? context.links.index.get(series.linkId);
  return {
    id: series.linkId,
    shorturl: link?.shorturl ?? null,
    title: link?.title ?? null,
    total: series.total,
    uniqueTotal: series.uniqueTotal,
    measuredFrom: isoOrNull(series.measuredFrom),
    measuredTo: isoOrNull(series.measuredTo),
    firstSampleAt: isoOrNull(series.firstSampleAt),
    lastSampleAt: isoOrNull(series.lastSampleAt),
    unplaced: series.unplaced.map((span) => ({ from: toIso(span.from), to: toIso(span.to), clicks: span.clicks })),
    buckets: series.buckets.map((bucket) => ({
      start: toIso(bucket.start),
      end: toIso(bucket.end),
      clicks: bucket.clicks,
      quality: bucket.quality,
      measuredFrom: isoOrNull(bucket.measuredFrom),
      measuredTo: isoOrNull(bucket.measuredTo),
      uniqueClicks: bucket.uniqueClicks,
      reset: bucket.reset,
    })),
    summary: seriesSummary(series),
  };
}

export async function clicksOverTime(query: ClicksQuery, context: ToolContext): Promise<AnswerWithImage> {
  const { links, client, signal } = context;
  // On a shared store, with what the replica sampling it saved last.
  await links.loadHistory();
  // A sample now: the link's details (its totals and unique clicks), or the index's bounded step for the top links.
  const read = query.id !== undefined ? (await client.links.get(query.id, { signal })).details : undefined;
  if (query.id === undefined) await links.beforeLookup(signal);
  const { history } = links;
  const range = { start: query.start, end: query.end, timeZone: query.timeZone };
  const top = query.id === undefined ? history.top({ ...range, granularity: query.granularity, limit: query.limit }) : undefined;
  const series = top ? top.links.map((entry) => entry.series!) : [history.series({ linkId: query.id!, ...range, granularity: query.granularity })];
  const answers = series.map((entry) => linkAnswer(entry, context, read));
  // How far the history reaches: the link's first sample, or the account's for its top links.
  const firstSampleAt = top ? history.firstSampleAt : series[0]!.firstSampleAt;
  const boundaries = top ?? series[0]!;
  const reach =
    firstSampleAt === null
      ? `This server has no sample of ${top ? "the account's links" : "this link"} yet.`
      : `This server's history of ${top ? "the account's links" : "this link"} starts at ${toIso(firstSampleAt)} (its first sample): before it there is no data, not zero.`;
  const structured: ClicksOverTime = {
    top: top !== undefined,
    timeZone: query.timeZone,
    granularity: query.granularity,
    start: toIso(boundaries.start),
    end: toIso(boundaries.end),
    links: answers,
    history: {
      firstSampleAt: isoOrNull(firstSampleAt),
      sampledLinks: history.size,
      resolution: resolutionSentence(links.index.freshness().known),
      notes: [...history.notes],
    },
    summary: `${query.id === undefined ? (answers.length === 0 ? "No link gained clicks in this period as sampled. " : `The ${answers.length} link${answers.length === 1 ? "" : "s"} with the most clicks. `) : ""}${reach}`,
  };
  const title = query.id !== undefined ? (answers[0]!.shorturl?.replace(/^https?:\/\//, "") ?? `Link ${query.id}`) : `Top ${answers.length} links`;
  const chartSeries = query.id !== undefined ? chartSeriesOf(series[0]!) : accountSeriesOf(series);
  const { cleanLabel, seriesChart } = await loadCharts();
  const chart = chartSeries ? () => seriesChart(chartSeries, { title, deflate: deflateSync }) : undefined;
  return new AnswerWithImage(structured, undefined, chart && (() => ({ data: Buffer.from(chart().png()).toString("base64"), mimeType: "image/png" })), () =>
    seriesView(structured, title, chart?.(), cleanLabel),
  );
}

/** The answer as the statistics view shows it: the client's chart, the total, the top links' rows and what the history says. */
function seriesView(answer: ClicksOverTime, title: string, chart: ClickChart | undefined, cleanLabel: (text: string) => string): SeriesViewData {
  const label = (link: LinkClicksOverTime) => cleanLabel(link.shorturl?.replace(/^https?:\/\//, "") ?? `Link ${link.id}`);
  const one = !answer.top && answer.links.length === 1;
  return {
    kind: "series",
    title: cleanLabel(title),
    total: answer.links.reduce((sum, link) => sum + (link.total ?? 0), 0),
    timeZone: cleanLabel(answer.timeZone),
    ...(chart ? { svg: chart.svg(), description: chart.description } : {}),
    rows: one ? [] : answer.links.map((link) => ({ label: label(link), count: link.total ?? 0 })),
    notes: one ? [answer.links[0]!.summary, answer.summary] : [answer.summary],
  };
}
