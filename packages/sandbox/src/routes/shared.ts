import type { DateTieOrder } from "../date-ties";
import type { OversizedPages } from "../oversized-pages";
import type { UserRecord } from "../persistence/state";
import type { Store } from "../persistence/store";
import type { Mode } from "../views/mode";
import { Failure } from "../model/checks";

export { Failure, TIMESTAMP, isUrl, oneOf, text } from "../model/checks";

/**
 * What every resource's routes share: the request context, the answer envelope, ownership checks
 * and paging.
 *
 * The sandbox is an independent check of the client, so it does not reuse the client's
 * validation: every check of input below and in the resource files is written from the API
 * document and deployed servers' behaviour. It imports from `@linkshort/client/core` only the
 * spec's enumerations (pixel providers, QR types, redirect types, plan terms), which are facts of
 * the API rather than rules of the client; a wrong list there would show up as a contract test
 * failure against the document.
 */

export interface ApiContext {
  store: Store;
  user: UserRecord;
  body: Record<string, unknown>;
  query: URLSearchParams;
  params: string[];
  mode: Mode;
  baseUrl: string;
  now: number;
  /** The largest page a list gives (undefined: no maximum). */
  maxPageSize: number | undefined;
  /** What a list answers a `limit` above `maxPageSize` (absent: a capped page that says its size). */
  oversizedPages?: OversizedPages;
  /** How links of the same second are listed by date (absent: by id). */
  dateTies?: DateTieOrder;
}

export type ApiBody = Record<string, unknown>;

type Handler = (context: ApiContext) => ApiBody;

export interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
  /** Changes state (saved to the data file before the answer). */
  writes: boolean;
}

/** A route; `{id}` in the path stands for a numeric id, handed to the handler in `params`. */
export const route = (method: string, path: string, handler: Handler): Route => ({
  method,
  pattern: new RegExp(`^${path.replace(/\{id\}/g, "(\\d+)")}$`),
  handler,
  writes: method !== "GET" || path.startsWith("/api/user/login"),
});

/** The success envelope; lists on deployed servers say `error: "0"`. */
export const ok = (extra: ApiBody = {}, mode?: Mode, listFlag = false): ApiBody => ({ error: listFlag && mode === "deployed" ? "0" : 0, ...extra });

/** The longest address mail servers accept (RFC 5321's path limit): longer values are refused before any other check. */
const EMAIL_MAX_LENGTH = 254;

/**
 * An e-mail address as the server checks it: one `@` with text before it, and a domain after it
 * with a dot that has text on both sides, no whitespace. One pass over at most 254 characters, so
 * a crafted value of any length costs the same (a regular expression here backtracked
 * quadratically on long values).
 */
export function isEmail(value: string): boolean {
  if (value.length > EMAIL_MAX_LENGTH || /\s/.test(value)) return false;
  const at = value.indexOf("@");
  if (at < 1 || value.indexOf("@", at + 1) !== -1) return false;
  const dot = value.indexOf(".", at + 2);
  return dot !== -1 && dot < value.length - 1;
}
const DEFAULT_PAGE_SIZE = 15;

/**
 * Pages as deployed servers do: `limit` 0 or not a number means 15, a page below 1 means 1. A
 * larger `limit` than the sandbox's `maxPageSize` (none by default, as deployed servers document
 * none) is answered as `oversizedPages` says: a page of that size whose `perpage` says so
 * ("cap"), the servers' error envelope ("refuse"), or a page of that size whose `perpage` repeats
 * the `limit` asked while `maxpage` and `nextpage` count pages of the size given ("echo").
 */
export function paginate<T>(
  items: readonly T[],
  { query, mode, maxPageSize, oversizedPages = "cap" }: Pick<ApiContext, "query" | "mode" | "maxPageSize" | "oversizedPages">,
) {
  const limitParam = Number.parseInt(query.get("limit") ?? "", 10);
  const asked = Number.isFinite(limitParam) && limitParam > 0 ? limitParam : DEFAULT_PAGE_SIZE;
  const oversized = maxPageSize !== undefined && asked > maxPageSize;
  if (oversized && oversizedPages === "refuse") throw new Failure(`The limit must be between 1 and ${maxPageSize}.`);
  const limit = oversized ? maxPageSize : asked;
  const pageParam = Number.parseInt(query.get("page") ?? "", 10);
  const page = Number.isFinite(pageParam) && pageParam > 1 ? pageParam : 1;
  const maxpage = Math.max(1, Math.ceil(items.length / limit));
  const slice = items.slice((page - 1) * limit, page * limit);
  // Deployed servers always announce a next page, even at the end.
  const nextpage = mode === "deployed" ? page + 1 : Math.min(page + 1, maxpage);
  const perpage = oversized && oversizedPages === "echo" ? asked : limit;
  return { slice, info: { result: slice.length, perpage, currentpage: page, nextpage, maxpage } };
}

/** The caller's item with the id of the path, or the server's "does not exist" (also for another user's item). */
export function owned<T extends { id: number; userId: number }>(items: T[], context: ApiContext, what: string): T {
  const id = Number(context.params[0]);
  const item = items.find((candidate) => candidate.id === id && candidate.userId === context.user.id);
  if (!item) throw new Failure(`${what} does not exist.`);
  return item;
}

export function requireAdmin(context: ApiContext): void {
  if (!context.user.admin) throw new Failure("You do not have permission to access this endpoint.", 403);
}

export function mine<T extends { userId: number }>(items: T[], context: ApiContext): T[] {
  return items.filter((item) => item.userId === context.user.id);
}

export function removeItem<T>(items: T[], item: T): void {
  items.splice(items.indexOf(item), 1);
}
