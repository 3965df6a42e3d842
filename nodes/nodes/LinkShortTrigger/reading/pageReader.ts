import { isLinkShortError, type Page } from '@linkshort/client/core';

/** Reads one page at `limit` items ('large': the size the client asks the account for), never waiting for the rate limit. */
export type PageReader<T> = (page: number, limit: number | 'large') => Promise<Page<T>>;

/** What `unlessStopped` gives when the poll may send no more: the key's rate limit was spent, or the poll's deadline passed. */
export const STOPPED = Symbol('stopped');

/**
 * `promise`'s value, or `STOPPED` when it failed on the key's spent rate limit or on the poll's
 * deadline (every request of a poll has one: see the trigger's `poll`); other failures fail as they are.
 */
export async function unlessStopped<T>(promise: Promise<T>): Promise<T | typeof STOPPED> {
	return await promise.catch((error: unknown) => {
		if (isLinkShortError(error, 'LINKSHORT_RATE_LIMITED') || (isLinkShortError(error, 'LINKSHORT_TIMEOUT') && error.deadlinePassed)) return STOPPED;
		throw error;
	});
}
