/**
 * The public names of `@linkshort/client` and `@linkshort/client/core`, types included: each is a
 * promise to users, so any change to the surface shows here as a diff.
 */
import { join } from "node:path";
import ts from "typescript";

const ENTRIES = ["core.ts", "index.ts"].map((entry) => join(__dirname, "..", "src", entry));
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
  "ChartStatistics",
  "ClickChart",
  "ClickChartOptions",
  "ClickSeries",
  "ConnectionError",
  "CoreClientOptions",
  "CreateOrReuseOptions",
  "Created",
  "Domain",
  "DomainCreateInput",
  "DomainUpdateInput",
  "FieldIssue",
  "IdSchema",
  "IndexChanges",
  "IndexFreshness",
  "IndexMeta",
  "IndexSearchResult",
  "IndexedLink",
  "LARGE_PAGE_SIZE",
  "Link",
  "LinkChange",
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
  "LinkUpdateInput",
  "LinkUpdateSchema",
  "LinkUpdated",
  "LinkWithStats",
  "LoginLink",
  "MAX_INDEXED_ACCOUNTS",
  "MemoryIndexStore",
  "MessageResult",
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
  "REDIRECT_TYPES",
  "RateLimitError",
  "RateLimitHeadroom",
  "RateLimitOptions",
  "RateLimiter",
  "RedirectType",
  "RequestOptions",
  "ResponseError",
  "ResponseTooLargeError",
  "ReusableLink",
  "SearchOrder",
  "SeriesBucket",
  "SeriesChartOptions",
  "SeriesGranularity",
  "Sleep",
  "SplashPage",
  "Statistics",
  "StoredIndex",
  "StoredLink",
  "SyncOptions",
  "TimeoutError",
  "TooManyPagesError",
  "Transport",
  "TransportRequest",
  "TransportResponse",
  "USER_FILTERS",
  "UTM_FIELDS",
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
  "accountId",
  "aliasFromShortUrl",
  "clickChart",
  "createOrReuse",
  "createTracked",
  "formatTimestamp",
  "freshnessSentence",
  "isHttpUrl",
  "qrCodeUrlKey",
  "seriesChart",
  "sha256Hex",
  "timestampIso",
  "timestampParts",
  "toRgbColour",
];

/** What `@linkshort/client` adds for Node, sorted. */
const NODE_ONLY = [
  "FileIndexStore",
  "FileIndexStoreOptions",
  "LinkShortClientOptions",
  "nodeSleep",
  "undiciTransport",
];

test("@linkshort/client/core exports exactly these names", () => {
  expect(publicNames("core.ts")).toEqual(CORE);
});

test("@linkshort/client exports the core's names and the Node transport, timers and file store", () => {
  expect(publicNames("index.ts")).toEqual([...CORE, ...NODE_ONLY].sort());
});
