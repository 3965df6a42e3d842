import { useCachedPromise } from "@raycast/utils";
import type { Link } from "@linkshort/client/core";
import { getClient } from "../api/client";

export const PAGE_SIZE = 50;

/** The user's links, a page at a time as the list scrolls; cached, so they show at once. */
export function useLinks(order: "date" | "click") {
  return useCachedPromise(
    (sortOrder: "date" | "click") => async (options: { page: number }) => {
      const page = await getClient().links.list({ order: sortOrder, limit: PAGE_SIZE, page: options.page + 1 });
      return {
        data: page.items as Link[],
        hasMore: page.items.length === page.perpage && page.currentpage < page.maxpage,
      };
    },
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
