import { RateLimitError, type Page } from '@linkshort/client/core';

/** Reads one page at `limit` items ('large': the size the client asks the account for), never waiting for the rate limit. */
export type PageReader<T> = (page: number, limit: number | 'large') => Promise<Page<T>>;

/** What `unlessRateLimited` gives when the key's rate limit was spent. */
export const RATE_LIMITED = Symbol('rate limited');

/** `promise`'s value, or `RATE_LIMITED` when it failed on the key's spent rate limit; other failures fail as they are. */
export async function unlessRateLimited<T>(promise: Promise<T>): Promise<T | typeof RATE_LIMITED> {
	return await promise.catch((error: unknown) => {
		if (error instanceof RateLimitError) return RATE_LIMITED;
		throw error;
	});
}
