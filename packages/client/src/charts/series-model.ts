/**
 * A series of clicks over time as the series chart takes it (what the click history answers),
 * checked field by field, and the labels of its time axis, written in the series' time zone.
 */
import { ValidationError, type FieldIssue } from "../errors";
import { isTimeZone } from "../internal/time-zone";
import { chartCount, cleanLabel } from "./model";

export type SeriesGranularity = "hour" | "day" | "week" | "month";

export interface SeriesBucket {
  /** When the bucket starts, in milliseconds since 1970 (UTC). */
  start: number;
  /** Clicks in the bucket; `null` when nothing was sampled around it (before the first sample, or nothing running): drawn as a gap, not as a zero. */
  count: number | null;
  /** True when samples bound the bucket; false when its count is a share of clicks spread over a longer sampling gap. */
  exact: boolean;
  /** The bucket's label on the time axis; by default its start written in `timeZone`. */
  label?: string;
}

export interface ChartSeries {
  granularity: SeriesGranularity;
  /** The IANA time zone the buckets are cut in, such as "Europe/Berlin" (default "UTC"). */
  timeZone?: string;
  /** Oldest first, at most `MAX_BUCKETS`. */
  buckets: readonly SeriesBucket[];
  /** Clicks of the period gained while nothing sampled across a bucket's edge, so in no bucket: counted in the total, drawn in no bar (default 0). */
  unplaced?: number;
}

export interface SeriesBar {
  label: string;
  /** `null` for a gap. */
  count: number | null;
  exact: boolean;
  /** Where the bucket starts within the next larger unit, in the time zone: the hour of its day, the day of its month (from 0), its month (from 0). */
  position: number;
}

export interface SeriesModel {
  title: string;
  granularity: SeriesGranularity;
  bars: SeriesBar[];
  /** The sum of every bucket with data and the unplaced clicks: the clicks of the period. */
  total: number;
  /** Clicks of the period in no bucket (gained while nothing sampled across a bucket's edge). */
  unplaced: number;
  /** The largest bucket, the top of the scale. */
  peak: number;
  gaps: number;
  spread: number;
}

/** A month of hours and some: more bars than this would be thinner than a pixel at any width. */
export const MAX_BUCKETS = 1000;
const WEEK_MS = 7 * 24 * 3_600_000;
const GRANULARITIES: readonly SeriesGranularity[] = ["hour", "day", "week", "month"];
const LABEL_FORMATS: Record<SeriesGranularity, Intl.DateTimeFormatOptions> = {
  hour: { hour: "2-digit", minute: "2-digit", hourCycle: "h23" },
  day: { day: "numeric", month: "short" },
  week: { day: "numeric", month: "short" },
  month: { month: "short", year: "numeric" },
};

function checkSeries(series: ChartSeries): FieldIssue[] {
  if (typeof series !== "object" || series === null) return [{ field: "series", message: "must be an object with granularity and buckets" }];
  const issues: FieldIssue[] = [];
  if (!GRANULARITIES.includes(series.granularity))
    issues.push({ field: "granularity", message: `must be "hour", "day", "week" or "month", not ${JSON.stringify(series.granularity)}` });
  if (series.timeZone !== undefined && !isTimeZone(series.timeZone))
    issues.push({
      field: "timeZone",
      message: `${JSON.stringify(String(series.timeZone).slice(0, 64))} is not a known IANA time zone (such as "Europe/Berlin")`,
    });
  if (!Array.isArray(series.buckets)) return [...issues, { field: "buckets", message: "must be a list" }];
  if (series.buckets.length > MAX_BUCKETS) return [...issues, { field: "buckets", message: `at most ${MAX_BUCKETS} buckets, not ${series.buckets.length}` }];
  let previous = Number.NEGATIVE_INFINITY;
  series.buckets.forEach((bucket: Partial<SeriesBucket> | null, index) => {
    const at = `buckets[${index}]`;
    if (typeof bucket !== "object" || bucket === null) return void issues.push({ field: at, message: "must be an object" });
    if (typeof bucket.start !== "number" || !Number.isFinite(bucket.start)) issues.push({ field: `${at}.start`, message: "must be a time in milliseconds" });
    else if (bucket.start <= previous) issues.push({ field: `${at}.start`, message: "must be later than the bucket before" });
    else previous = bucket.start;
    if (bucket.count !== null && (typeof bucket.count !== "number" || !Number.isSafeInteger(bucket.count) || bucket.count < 0)) {
      issues.push({ field: `${at}.count`, message: "must be a whole number of clicks, 0 or more, or null for no data" });
    }
    if (typeof bucket.exact !== "boolean") issues.push({ field: `${at}.exact`, message: "must be true or false" });
    if (bucket.label !== undefined && typeof bucket.label !== "string") issues.push({ field: `${at}.label`, message: "must be text" });
  });
  if (series.unplaced !== undefined && (typeof series.unplaced !== "number" || !Number.isSafeInteger(series.unplaced) || series.unplaced < 0)) {
    issues.push({ field: "unplaced", message: "must be a whole number of clicks, 0 or more" });
  }
  return issues.slice(0, 10);
}

/** Intl's formatters cost about a millisecond each to make: kept for the last few zones and languages. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: string, timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale} ${timeZone} ${JSON.stringify(options)}`;
  let format = formatters.get(key);
  if (!format) {
    if (formatters.size >= 32) formatters.clear();
    format = new Intl.DateTimeFormat(locale, { timeZone, ...options });
    formatters.set(key, format);
  }
  return format;
}

const NUMBERS: Intl.DateTimeFormatOptions = { month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", hourCycle: "h23" };

/** A bucket's default label ("14:00", the date at midnight; "3 Nov"; "Nov 2026") and its position, in the time zone. */
function labeller(granularity: SeriesGranularity, timeZone: string, locale: string): (start: number) => { label: string; position: number } {
  const format = formatter(locale, timeZone, LABEL_FORMATS[granularity]);
  const midnight = formatter(locale, timeZone, LABEL_FORMATS.day);
  // "11/16, 14:00": month, day, hour and minute in the zone (a third of the time formatToParts takes).
  const numbers = formatter("en-US", timeZone, NUMBERS);
  return (start) => {
    const [month, day, hour, minute] = (numbers.format(start).match(/\d+/g) ?? []).map(Number) as [number, number, number, number];
    if (granularity === "month") return { label: format.format(start), position: month - 1 };
    if (granularity === "day") return { label: format.format(start), position: day - 1 };
    // Weeks are labelled by their first day and stepped by their number since 1970.
    if (granularity === "week") return { label: format.format(start), position: Math.floor(start / WEEK_MS) };
    return { label: hour === 0 && minute === 0 ? midnight.format(start) : format.format(start), position: hour };
  };
}

/** The series checked (a `ValidationError` naming each bad field) and read into bars. */
export function seriesModel(series: ChartSeries, title: string, locale: string): SeriesModel {
  const issues = checkSeries(series);
  if (!isLocale(locale)) issues.push({ field: "locale", message: `${JSON.stringify(String(locale).slice(0, 40))} is not a language tag (such as "en-GB")` });
  if (issues.length > 0) throw new ValidationError(issues, "series chart");
  const label = labeller(series.granularity, series.timeZone ?? "UTC", locale);
  const bars = series.buckets.map((bucket): SeriesBar => {
    const time = label(bucket.start);
    return {
      label: cleanLabel(bucket.label ?? time.label),
      count: bucket.count === null ? null : chartCount(bucket.count),
      exact: bucket.exact,
      position: time.position,
    };
  });
  const counted = bars.filter((bar) => bar.count !== null);
  return {
    title: cleanLabel(typeof title === "string" ? title : ""),
    granularity: series.granularity,
    bars,
    total: counted.reduce((sum, bar) => sum + (bar.count as number), 0) + (series.unplaced ?? 0),
    unplaced: series.unplaced ?? 0,
    peak: counted.reduce((most, bar) => Math.max(most, bar.count as number), 0),
    gaps: bars.length - counted.length,
    spread: counted.filter((bar) => !bar.exact).length,
  };
}

function isLocale(locale: unknown): boolean {
  if (typeof locale !== "string") return false;
  try {
    Intl.DateTimeFormat.supportedLocalesOf([locale]);
    return true;
  } catch {
    return false;
  }
}
