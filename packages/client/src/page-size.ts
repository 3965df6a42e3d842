/**
 * How large a page to ask a list for, once for every caller that reads many items (the trigger's
 * scans, the link index's sweeps): a list asked with `limit: "large"` gets the size below, and
 * the answer's `perpage` (what the server gave) decides what the same account is asked next.
 *
 * Deployed servers document no maximum page size, so a large page costs one request where pages
 * of 100 cost ten. A server that caps the size answers with its cap in `perpage`; one that refuses
 * a large size and falls back to its default (15 on deployed servers) is asked for 100 next time,
 * the size every server has given the client so far.
 */
export const LARGE_PAGE_SIZE = 1000;
/** The size asked after a large ask was answered with less than it: what every server gives. */
export const SAFE_PAGE_SIZE = 100;
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

const granted = new Map<string, number>();

/** The size to ask `account` for when a caller asks for large pages (`LARGE_PAGE_SIZE` until an answer says otherwise). */
export function pageSizeToAsk(account: string): number {
  return granted.get(account) ?? LARGE_PAGE_SIZE;
}

/** Records what `account` gave when asked for `asked` items a page (its `perpage`). */
export function recordPageSize(account: string, asked: number, perpage: number): void {
  granted.delete(account);
  granted.set(account, pageSizeAfter(asked, perpage));
  if (granted.size > MAX_ACCOUNTS) granted.delete(granted.keys().next().value as string);
}
