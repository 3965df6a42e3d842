/**
 * The client with no default transport: for hosts that bring their own HTTP and timers (n8n).
 * Nothing reachable from here imports anything but `zod/v4` or touches timers or process globals.
 *
 * Every name here is public surface, listed by test/public-surface.test.ts.
 */
export { LinkShortClient } from "./client";
export type { CoreClientOptions, RateLimitOptions, RequestOptions } from "./internal/options";
export {
  AbortedError,
  ApiError,
  AuthenticationError,
  ConnectionError,
  isLinkShortError,
  LinkShortError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ResponseError,
  ResponseTooLargeError,
  TimeoutError,
  TooManyPagesError,
  stopsBulkRun,
  ValidationError,
  type ErrorKind,
  type ErrorsByCode,
  type FieldIssue,
  type LinkShortErrorCode,
} from "./errors";

export { IdSchema } from "./resources/fields";
export { PaginationSchema, type Created, type MessageResult, type PageLimit, type PaginationInput, type Statistics } from "./resources/shared";
export type { Account, AccountUpdateInput } from "./resources/account";
export type { Domain, DomainCreateInput, DomainUpdateInput } from "./resources/domains";
export type { Overlay, SplashPage } from "./resources/pages";
export type { LinkChange, LinkTotalsRead } from "./resources/links/links";
export {
  LinkCreateSchema,
  LinkListSchema,
  LinkUpdateSchema,
  REDIRECT_TYPES,
  type Link,
  type LinkCreated,
  type LinkCreateInput,
  type LinkDetails,
  type LinkListInput,
  type LinkUpdated,
  type LinkUpdateInput,
  type LinkWithStats,
  type RedirectType,
} from "./resources/links/schemas";
export { UTM_FIELDS, UtmSchema, type Utm, type UtmField } from "./resources/links/utm";
export { PIXEL_TYPES, type Pixel, type PixelCreateInput, type PixelType, type PixelUpdateInput } from "./resources/pixels";
export { PLAN_TYPES, PlanSubscribeSchema, type Plan, type PlanSubscribeInput } from "./resources/plans";
export {
  QR_DATA_SCHEMAS,
  QR_TYPES,
  QrCodeCreateSchema,
  WIFI_ENCRYPTIONS,
  type QrCode,
  type QrCodeCreated,
  type QrCodeCreateInput,
  type QrCodeUpdateInput,
  type QrCodeWithStats,
  type QrData,
  type QrType,
} from "./resources/qr-codes";
export {
  USER_FILTERS,
  UserCreateSchema,
  UserListSchema,
  type LoginLink,
  type User,
  type UserCreated,
  type UserCreateInput,
  type UserListInput,
} from "./resources/users";

export { PagePromise, type Page } from "./pagination";
export { LARGE_PAGE_SIZE } from "./internal/page-size";
export { RateLimiter, type RateLimitHeadroom } from "./internal/rate-limit";
export type { Sleep, Transport, TransportRequest, TransportResponse } from "./transport";

export { LinkIndex, type IndexFreshness, type IndexSearchResult, type LinkIndexOptions, type SearchOrder, type SyncOptions } from "./link-index/link-index";
export { AccountRegistry, LinkIndexRegistry, MAX_INDEXED_ACCOUNTS } from "./link-index/registry";
export { freshnessSentence } from "./link-index/freshness";
export { accountId } from "./account-id";
export type { IndexedLink } from "./link-index/search";
export { MemoryIndexStore, type IndexChanges, type IndexMeta, type LinkIndexStore, type StoredIndex, type StoredLink } from "./link-index/store";
export { NOT_REUSED, RECORDED_REUSE_RULE, REUSE_RULE } from "./link-index/reuse";
export { ForgottenLinks, MadeLinks, MAX_MADE_LINKS, type MadeLinksState } from "./link-index/made-links";
export { createLink, type CreateLinkOptions, type ReusableLink } from "./link-index/create-link";
export { checkLinkCreate, type CheckedLinkCreate, type LinkCreateCheckOptions } from "./resources/links/create-input";

export {
  ClickHistory,
  calendarPeriod,
  chartSeriesOf,
  CLICK_PERIODS,
  ClickCountSchema,
  ClickMomentSchema,
  ClickPeriodSchema,
  GRANULARITIES,
  GranularitySchema,
  HourSchema,
  MemoryClickHistoryStore,
  MinutesSchema,
  stateHolderStore,
  TimeZoneSchema,
  type BucketQuality,
  type ClickBucket,
  type ClickHistoryOptions,
  type ClickHistoryState,
  type ClickHistoryStore,
  type ClickPeriod,
  type ClickSeries,
  type Granularity,
  type LinkTotals,
  type PeriodQuery,
  type RateQuery,
  type SeriesQuery,
  type TopLinksQuery,
  type UnplacedClickSpan,
  type WindowCount,
} from "./click-history";

// The click-history kit every front end uses (issue 54): sampling while a host reads, the
// account's series, the last days, an hour of a day in a zone, the default granularity, ISO or null.
export { accountSeriesOf, defaultGranularity, hourOfDay, lastDays, sampleWhile } from "./click-history";
export { isoOrNull } from "./iso-time";
