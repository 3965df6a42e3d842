import { useCachedPromise } from "@raycast/utils";
import { getClient } from "../api/client";
import { loadPage, PAGE_SIZE } from "./loadPage";

export type LinkOrder = "date" | "click";

/** The user's links, a page at a time as the list scrolls; cached, so they show at once. */
export function useLinks(order: LinkOrder) {
  return useCachedPromise(
    (sortOrder: LinkOrder) => (options: { page: number }) =>
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
