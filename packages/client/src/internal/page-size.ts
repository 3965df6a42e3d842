import { ApiError } from "../errors";
import { BoundedMap } from "./bounded-map";

/**
 * How large a page to ask a list for, once for every caller that reads many items (the trigger's
 * scans, the link index's sweeps): a list asked with `limit: "large"` gets the size below, and
 * the answer's `perpage` (what the server gave) decides what the same account is asked next.
 *
 * Deployed servers document no maximum page size, so a large page costs one request where pages
 * of 100 cost ten. A server that caps the size answers with its cap in `perpage`; one that refuses
 * a large size and falls back to its default (15 on deployed servers) is asked for 100 next time,
 * the size every server has given the client so far. One that refuses a size with an error ("The
 * limit must be between 1 and 100.") is asked again at once for 100, then for the documented
 * default of 15, and the account is asked for the size it answered from then on.
 */
export const LARGE_PAGE_SIZE = 1000;
/** The size asked after a large ask was answered with less than it, or refused: what every server gives. */
export const SAFE_PAGE_SIZE = 100;
/** The page size deployed servers give when `limit` is absent, zero or not a number: the last size tried. */
export const DEFAULT_PAGE_SIZE = 15;
/** Accounts remembered at most (the oldest is forgotten first); one entry per base URL and key. */
const MAX_ACCOUNTS = 1000;

/**
 * What to ask an account for next, given the size asked and the `perpage` the answer carried: the
 * same when the server gave it; its cap when it gave less but at least `SAFE_PAGE_SIZE`; else
 * `SAFE_PAGE_SIZE` (a large size may have been refused as a whole), or the server's size when even
 * that was refused.
 */
export function pageSizeAfter(asked: number, perpage: number): number {
  if (!Number.isSafeInteger(perpage) || perpage <= 0) return Math.min(asked, SAFE_PAGE_SIZE);
  if (perpage >= asked) return asked;
  if (perpage >= SAFE_PAGE_SIZE) return perpage;
  return asked > SAFE_PAGE_SIZE ? SAFE_PAGE_SIZE : perpage;
}

/** The next size to try after `size` was refused: `SAFE_PAGE_SIZE`, then `DEFAULT_PAGE_SIZE`; none below that. */
export function smallerPageSize(size: number): number | undefined {
  if (size > SAFE_PAGE_SIZE) return SAFE_PAGE_SIZE;
  if (size > DEFAULT_PAGE_SIZE) return DEFAULT_PAGE_SIZE;
  return undefined;
}

/**
 * Whether `error` is a server's refusal of the page size asked: a plain `ApiError` (not a refused
 * key, a missing right, a missing record or the rate limit) whose message speaks of the limit or
 * the page size ("The limit must be between 1 and 100."). Another failure of a list is not retried
 * at a smaller size; and a refusal is remembered only once a smaller size was answered.
 */
export function isPageSizeRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && error.constructor === ApiError && /\blimit\b|\bper ?page\b|\bpage ?size\b/i.test(error.message);
}

interface Remembered {
  /** The size to ask for large pages, from the last answer's `perpage`. */
  granted?: number;
  /** The smallest size the server refused with an error (a smaller one was then answered). */
  refused?: number;
}

const accounts = new BoundedMap<string, Remembered>(MAX_ACCOUNTS);

function remember(account: string, change: (entry: Remembered) => void): void {
  const entry = accounts.get(account) ?? {};
  change(entry);
  accounts.set(account, entry);
}

/** `size`, or the size to try instead when `account` refused it or a smaller size before. */
export function allowedPageSize(account: string, size: number): number {
  const refused = accounts.get(account)?.refused;
  let allowed = size;
  while (refused !== undefined && allowed >= refused) {
    const smaller = smallerPageSize(allowed);
    if (smaller === undefined) break;
    allowed = smaller;
  }
  return allowed;
}

/** The size to ask `account` for when a caller asks for large pages (`LARGE_PAGE_SIZE` until an answer says otherwise). */
export function pageSizeToAsk(account: string): number {
  return allowedPageSize(account, accounts.get(account)?.granted ?? LARGE_PAGE_SIZE);
}

/** Records what `account` gave when asked for `asked` items a page (its `perpage`). */
export function recordPageSize(account: string, asked: number, perpage: number): void {
  remember(account, (entry) => {
    entry.granted = pageSizeAfter(asked, perpage);
    // A size once refused that the server now gives in full is refused no longer.
    if (entry.refused !== undefined && asked >= entry.refused && perpage >= entry.refused) delete entry.refused;
  });
}

/**
 * Reads with `read` at `limit` items a page (or the smaller size `account` is known to allow),
 * and when the server refuses the size, at the next smaller one (`smallerPageSize`), remembering
 * the refusal once a size was answered. Gives the answer and the size it was read at. When even
 * the smallest size is refused, fails with the server's message and the size asked.
 */
export async function readAtAllowedSize<T>(account: string, limit: number, read: (limit: number) => Promise<T>): Promise<{ answer: T; limit: number }> {
  let asked = allowedPageSize(account, limit);
  /** The last size refused (0: none yet). */
  let refused = 0;
  for (;;) {
    try {
      const answer = await read(asked);
      if (refused > 0) remember(account, (entry) => (entry.refused = Math.min(entry.refused ?? refused, refused)));
      return { answer, limit: asked };
    } catch (error) {
      if (!isPageSizeRefusal(error)) throw error;
      const smaller = smallerPageSize(asked);
      if (smaller === undefined) throw new ApiError(`${error.message} (asked for pages of ${asked} items)`, error.status, error.envelopeError);
      refused = asked;
      asked = smaller;
    }
  }
}
