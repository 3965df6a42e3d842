export { ClickHistory } from "./click-history";
export type { ClickHistoryOptions } from "./options";
export { accountSeriesOf, chartSeriesOf } from "./chart-series";
export { calendarPeriod, defaultGranularity, hourOfDay, lastDays } from "./periods";
export { sampleWhile } from "./sample-while";
export type { BucketQuality } from "./query";
export type { ClickBucket, ClickSeries, UnplacedClickSpan, WindowCount } from "./series";
export {
  CLICK_PERIODS,
  ClickCountSchema,
  ClickMomentSchema,
  ClickPeriodSchema,
  GranularitySchema,
  HourSchema,
  MinutesSchema,
  TimeZoneSchema,
  type ClickPeriod,
  type LinkTotals,
  type PeriodQuery,
  type RateQuery,
  type SeriesQuery,
  type TopLinksQuery,
} from "./schemas";
export { MemoryClickHistoryStore, stateHolderStore, type ClickHistoryState, type ClickHistoryStore } from "./store";
export { GRANULARITIES, type Granularity } from "./zone";
