import { useCachedPromise } from "@raycast/utils";
import { getClient } from "../api/client";

/** The account's branded domains, for the domain dropdown. */
export function useDomains() {
  return useCachedPromise(async () => (await getClient().domains.list({ limit: 100 })).items, [], {
    failureToastOptions: { title: "Could not load your domains" },
  });
}

/** The account's QR codes, a page at a time. */
export function useQrCodes() {
  return useCachedPromise(
    () => async (options: { page: number }) => {
      const page = await getClient().qrCodes.list({ limit: 50, page: options.page + 1 });
      return { data: page.items, hasMore: page.items.length === page.perpage && page.currentpage < page.maxpage };
    },
    [],
    { keepPreviousData: true, failureToastOptions: { title: "Could not load your QR codes" } },
  );
}
