import { PagePromise, type Page } from "@linkshort/client/core";

export const PAGE_SIZE = 50;

/**
 * One page for a List's `pagination` (Raycast counts pages from 0, the API from 1). Whether more
 * follow is the client's own rule, the one its `for await` stops by.
 */
export async function loadPage<T>(list: (page: number) => PromiseLike<Page<T>>, raycastPage: number) {
  const requested = raycastPage + 1;
  const page = await list(requested);
  return { data: page.items, hasMore: !PagePromise.isLastPage(page, requested) };
}
