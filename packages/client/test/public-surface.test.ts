/**
 * The public names of `@linkshort/client`, `@linkshort/client/core`, `/charts` and `/values`, types
 * included: each is a promise to users, so any change to the surface shows here as a diff
 * (ARCHITECTURE.md, "The client's public surface", says why each is public).
 */
import { join } from "node:path";
import ts from "typescript";

const ENTRIES = ["core.ts", "index.ts", "charts/index.ts", "values.ts"].map((entry) => join(__dirname, "..", "src", entry));
const program = ts.createProgram(ENTRIES, {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  target: ts.ScriptTarget.ES2022,
  strict: true,
  noEmit: true,
});

function publicNames(entry: string): string[] {
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(join(__dirname, "..", "src", entry))!)!;
  return checker
    .getExportsOfModule(module)
    .map((symbol) => symbol.name)
    .sort();
}

/** `@linkshort/client/core`, sorted. */
const CORE = [
  "AbortedError",
  "Account",
  "AccountRegistry",
  "AccountUpdateInput",
  "ApiError",
  "AuthenticationError",
  "BucketQuality",
  "CLICK_PERIODS",
  "CheckedLinkCreate",
  "ClickBucket",
  "ClickCountSchema",
  "ClickHistory",
  "ClickHistoryOptions",
  "ClickHistoryState",
  "ClickHistoryStore",
  "ClickMomentSchema",
  "ClickPeriod",
  "ClickPeriodSchema",
  "ClickSeries",
  "ConnectionError",
  "CoreClientOptions",
  "CreateLinkOptions",
  "Created",
  "Domain",
  "DomainCreateInput",
  "DomainUpdateInput",
  "ErrorKind",
  "ErrorsByCode",
  "FieldIssue",
  "ForgottenLinks",
  "GRANULARITIES",
  "Granularity",
  "GranularitySchema",
  "HourSchema",
  "IdSchema",
  "IndexChanges",
  "IndexFreshness",
  "IndexMeta",
  "IndexSearchResult",
  "IndexedLink",
  "LARGE_PAGE_SIZE",
  "Link",
  "LinkChange",
  "LinkCreateCheckOptions",
  "LinkCreateInput",
  "LinkCreateSchema",
  "LinkCreated",
  "LinkDetails",
  "LinkIndex",
  "LinkIndexOptions",
  "LinkIndexRegistry",
  "LinkIndexStore",
  "LinkListInput",
  "LinkListSchema",
  "LinkShortClient",
  "LinkShortError",
  "LinkShortErrorCode",
  "LinkTotals",
  "LinkTotalsRead",
  "LinkUpdateInput",
  "LinkUpdateSchema",
  "LinkUpdated",
  "LinkWithStats",
  "LoginLink",
  "MAX_INDEXED_ACCOUNTS",
  "MAX_MADE_LINKS",
  "MadeLinks",
  "MadeLinksState",
  "MemoryClickHistoryStore",
  "MemoryIndexStore",
  "MessageResult",
  "MinutesSchema",
  "NOT_REUSED",
  "NotFoundError",
  "Overlay",
  "PIXEL_TYPES",
  "PLAN_TYPES",
  "Page",
  "PageLimit",
  "PagePromise",
  "PaginationInput",
  "PaginationSchema",
  "PeriodQuery",
  "PermissionError",
  "Pixel",
  "PixelCreateInput",
  "PixelType",
  "PixelUpdateInput",
  "Plan",
  "PlanSubscribeInput",
  "PlanSubscribeSchema",
  "QR_DATA_SCHEMAS",
  "QR_TYPES",
  "QrCode",
  "QrCodeCreateInput",
  "QrCodeCreateSchema",
  "QrCodeCreated",
  "QrCodeUpdateInput",
  "QrCodeWithStats",
  "QrData",
  "QrType",
  "RECORDED_REUSE_RULE",
  "REDIRECT_TYPES",
  "REUSE_RULE",
  "RateLimitError",
  "RateLimitHeadroom",
  "RateLimitOptions",
  "RateLimiter",
  "RateQuery",
  "RedirectType",
  "RequestOptions",
  "ResponseError",
  "ResponseTooLargeError",
  "ReusableLink",
  "SearchOrder",
  "SeriesQuery",
  "Sleep",
  "SplashPage",
  "Statistics",
  "StoredIndex",
  "StoredLink",
  "SyncOptions",
  "TimeZoneSchema",
  "TimeoutError",
  "TooManyPagesError",
  "TopLinksQuery",
  "Transport",
  "TransportRequest",
  "TransportResponse",
  "USER_FILTERS",
  "UTM_FIELDS",
  "UnplacedClickSpan",
  "User",
  "UserCreateInput",
  "UserCreateSchema",
  "UserCreated",
  "UserListInput",
  "UserListSchema",
  "Utm",
  "UtmField",
  "UtmSchema",
  "ValidationError",
  "WIFI_ENCRYPTIONS",
  "WindowCount",
  "accountId",
  "accountSeriesOf",
  "calendarPeriod",
  "chartSeriesOf",
  "checkLinkCreate",
  "createLink",
  "defaultGranularity",
  "freshnessSentence",
  "hourOfDay",
  "isLinkShortError",
  "isoOrNull",
  "lastDays",
  "sampleWhile",
  "stateHolderStore",
  "stopsBulkRun",
];

/** `@linkshort/client/charts`, sorted. */
const CHARTS = [
  "CHART_PALETTES",
  "ChartSeries",
  "ChartStatistics",
  "ClickChart",
  "ClickChartOptions",
  "Deflate",
  "ReadStatisticsOptions",
  "SeriesBucket",
  "SeriesChartOptions",
  "SeriesGranularity",
  "StatisticsEntry",
  "StatisticsList",
  "StatisticsListKey",
  "StatisticsReading",
  "cleanLabel",
  "clickChart",
  "readStatistics",
  "seriesChart",
];

/** `@linkshort/client/values`, sorted. */
const VALUES = ["aliasFromShortUrl", "formatTimestamp", "isHttpUrl", "qrCodeUrlKey", "timestampIso", "timestampParts", "toRgbColour"];

/** What `@linkshort/client` adds for Node, sorted. */
const NODE_ONLY = ["FileClickHistoryStore", "FileIndexStore", "FileIndexStoreOptions", "LinkShortClientOptions", "undiciTransport"];

test("@linkshort/client/core exports exactly these names", () => {
  expect(publicNames("core.ts")).toEqual(CORE);
});

test("@linkshort/client/charts exports exactly these names", () => {
  expect(publicNames("charts/index.ts")).toEqual(CHARTS);
});

test("@linkshort/client/values exports exactly these names", () => {
  expect(publicNames("values.ts")).toEqual(VALUES);
});

test("@linkshort/client exports the core's names and the Node transport and file stores", () => {
  expect(publicNames("index.ts")).toEqual([...CORE, ...NODE_ONLY].sort());
});
