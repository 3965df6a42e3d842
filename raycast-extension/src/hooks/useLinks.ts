import { useCachedPromise } from "@raycast/utils";
import type { Page } from "@linkshort/client/core";
import { getClient } from "../api/client";

export const PAGE_SIZE = 50;

/** One page for a List's `pagination` (Raycast counts pages from 0, the API from 1). */
export async function loadPage<T>(list: (page: number) => PromiseLike<Page<T>>, raycastPage: number) {
  const page = await list(raycastPage + 1);
  return { data: page.items, hasMore: page.items.length === page.perpage && page.currentpage < page.maxpage };
}

/** The user's links, a page at a time as the list scrolls; cached, so they show at once. */
export function useLinks(order: "date" | "click") {
  return useCachedPromise(
    (sortOrder: "date" | "click") => (options: { page: number }) =>
      loadPage((page) => getClient().links.list({ order: sortOrder, limit: PAGE_SIZE, page }), options.page),
    [order],
    { keepPreviousData: true, failureToastOptions: { title: "Could not load your links" } },
  );
}

/** One link's details and statistics. */
export function useLinkStats(id: number) {
  return useCachedPromise((linkId: number) => getClient().links.get(linkId), [id], {
    failureToastOptions: { title: "Could not load the statistics" },
  });
}
