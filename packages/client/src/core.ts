/**
 * The client with no default transport: for hosts that bring their own HTTP and timers (n8n).
 * Nothing reachable from here imports anything but `zod/v4` or touches timers or process globals.
 */
export { LinkShortClient } from "./client";
export type { CoreClientOptions, RateLimitOptions, RequestOptions } from "./options";
export * from "./errors";
export * from "./inputs";
export * from "./schemas";
export { PagePromise } from "./pagination";
export { LARGE_PAGE_SIZE, SAFE_PAGE_SIZE, pageSizeAfter } from "./page-size";
export { RateLimiter, type RateLimitHeadroom } from "./rate-limit";
export type { Sleep, Transport, TransportRequest, TransportResponse } from "./transport";
export { LinkIndex, type IndexFreshness, type IndexSearchResult, type LinkIndexOptions, type SearchOrder, type SyncOptions } from "./link-index/link-index";
export { AccountRegistry, LinkIndexRegistry, MAX_INDEXED_ACCOUNTS } from "./link-index/registry";
export { freshnessSentence } from "./link-index/freshness";
export { accountBaseUrl, accountId, sha256Hex } from "./account-id";
export type { IndexedLink } from "./link-index/search";
export { MemoryIndexStore, type IndexChanges, type IndexMeta, type LinkIndexStore, type StoredIndex, type StoredLink } from "./link-index/store";
export { aliasFromShortUrl, aliasKey, MAX_ADDRESS_LENGTH, qrCodeUrlKey, shortUrlKey, trimTrailingSlashes } from "./addresses";
export type { LinkChange } from "./resources/links";
export { createOrReuse, createTracked, hiddenOptionsKey, reusableLink, type CreateOrReuseOptions, type ReusableLink } from "./link-index/reuse";
export { UTM_FIELDS, UtmSchema, withUtm, type Utm, type UtmField } from "./utm";
export { toRgbColour } from "./colour";
export { clickChart, type ChartStatistics, type ClickChart, type ClickChartOptions } from "./charts";
