/**
 * What a click-history question may ask, checked before anything is read: the fields every front
 * end shows (a time zone, a period, an hour, a number of clicks or minutes), each described for the
 * forms and models that fill it in.
 */
import * as z from "zod/v4";
import { IdSchema, positiveInteger, required } from "../resources/fields";
import { isTimeZone } from "../internal/time-zone";
import { GRANULARITIES } from "./zone";

export const CLICK_PERIODS = ["day", "week", "month"] as const;
export type ClickPeriod = (typeof CLICK_PERIODS)[number];

export const TimeZoneSchema = z
  .string(required("must be text"))
  .refine(isTimeZone, "must be an IANA time zone this system knows, such as Europe/Berlin or UTC")
  .describe("IANA time zone the periods are counted in, such as Europe/Berlin (days start at its midnight, with its summer time)");

/**
 * The moments a question may name: 1970 (the history's samples are epoch seconds, never before it)
 * to the end of 9999 (the last year the service's YYYY-MM-DD timestamps, and ISO 8601 without its
 * expanded form, can write). Nothing the history holds lies outside, and the clock's work for a
 * question is its own range's wherever the range lies.
 */
const FIRST_CLICK_MOMENT = 0;
const LAST_CLICK_MOMENT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** Whether `ms` is a moment a click-history question may name. */
export const isClickMoment = (ms: number): boolean => Number.isSafeInteger(ms) && ms >= FIRST_CLICK_MOMENT && ms <= LAST_CLICK_MOMENT;

/** A moment in epoch milliseconds, from 1970 to the end of 9999 (front ends read their own forms of time into it). */
export const ClickMomentSchema = z
  .number("must be a time in epoch milliseconds")
  .int("must be a whole number of milliseconds")
  .refine(isClickMoment, "must be a time from 1970 to the end of 9999 (UTC)");

/** A moment: epoch milliseconds or a Date. */
const moment = z
  .union([z.number().int("must be a whole number of milliseconds"), z.date()], "must be a time (a Date or epoch milliseconds)")
  .transform((value) => (typeof value === "number" ? value : value.getTime()))
  .pipe(ClickMomentSchema);

export const ClickPeriodSchema = z.enum(CLICK_PERIODS, "must be day, week or month").describe("Calendar period: day, week (from Monday) or month");
export const GranularitySchema = z.enum(GRANULARITIES, "must be hour, day, week or month").describe("Bucket size of the series: hour, day, week or month");
export const HourSchema = z
  .number(required("must be a number"))
  .int("must be a whole number")
  .min(0, "must be an hour from 0 to 23")
  .max(23, "must be an hour from 0 to 23")
  .describe("Hour of the day, 0 to 23, in the time zone");
export const ClickCountSchema = positiveInteger.describe("Number of clicks, a whole number of at least 1");
export const MinutesSchema = positiveInteger.describe("Number of minutes, a whole number of at least 1");

const range = {
  start: moment.describe("Start of the period (epoch ms or Date), moved back to the start of its bucket"),
  end: moment.describe("End of the period (epoch ms or Date, not included), moved on to the end of its bucket"),
  timeZone: TimeZoneSchema,
};

/** The most buckets one answer holds (ten years of days, a year and a bit of hours). */
export const MAX_BUCKETS = 10_000;
const NOMINAL_MS: Record<(typeof GRANULARITIES)[number], number> = { hour: 3_600_000, day: 86_400_000, week: 604_800_000, month: 2_629_746_000 };

function endAfterStart(value: { start: number; end: number; granularity?: (typeof GRANULARITIES)[number] }, context: z.RefinementCtx): void {
  if (value.end <= value.start) context.addIssue({ code: "custom", path: ["end"], message: "must be after start" });
  else if (value.granularity && (value.end - value.start) / NOMINAL_MS[value.granularity] > MAX_BUCKETS) {
    context.addIssue({ code: "custom", path: ["end"], message: `must be within ${MAX_BUCKETS} ${value.granularity}s of start` });
  }
}

export const SeriesQuerySchema = z
  .strictObject({ linkId: IdSchema.describe("The link's id"), ...range, granularity: GranularitySchema })
  .superRefine(endAfterStart);
export type SeriesQuery = z.input<typeof SeriesQuerySchema>;

export const TopLinksQuerySchema = z
  .strictObject({
    ...range,
    limit: positiveInteger.max(1000, "must be at most 1000").default(10).describe("How many links, most clicks first (default 10)"),
    granularity: GranularitySchema.optional().describe("Also each top link's series in buckets of this size"),
  })
  .superRefine(endAfterStart);
export type TopLinksQuery = z.input<typeof TopLinksQuerySchema>;

export const PeriodQuerySchema = z.strictObject({
  period: ClickPeriodSchema,
  timeZone: TimeZoneSchema,
  at: moment.optional().describe("A moment in the period (default now)"),
  offset: z
    .number()
    .int("must be a whole number")
    .min(-MAX_BUCKETS, `must be from -${MAX_BUCKETS} to ${MAX_BUCKETS}`)
    .max(MAX_BUCKETS, `must be from -${MAX_BUCKETS} to ${MAX_BUCKETS}`)
    .optional()
    .describe("Periods after (positive) or before (negative) the one holding `at`, such as -1 for the last whole one"),
});
export type PeriodQuery = z.input<typeof PeriodQuerySchema>;

export const RateQuerySchema = z.strictObject({
  linkId: IdSchema.describe("The link's id"),
  minutes: MinutesSchema,
  at: moment.optional().describe("End of the window (default now)"),
});
export type RateQuery = z.input<typeof RateQuerySchema>;

export const TotalsSampleSchema = z.strictObject({
  id: IdSchema,
  clicks: z.number(required("must be a number")).int("must be a whole number").nonnegative("must not be negative"),
  uniqueClicks: z.number("must be a number").int("must be a whole number").nonnegative("must not be negative").optional(),
});
/** A link's totals as a read showed them. */
export type LinkTotals = z.input<typeof TotalsSampleSchema>;
