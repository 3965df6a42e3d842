import { useCachedPromise } from "@raycast/utils";
import { getClient } from "../api/client";
import { loadPage, PAGE_SIZE } from "./useLinks";

/** The account's branded domains, for the domain dropdown. */
export function useDomains() {
  return useCachedPromise(async () => (await getClient().domains.list({ limit: 100 })).items, [], {
    failureToastOptions: { title: "Could not load your domains" },
  });
}

/** The account's QR codes, a page at a time. */
export function useQrCodes() {
  return useCachedPromise(
    () => (options: { page: number }) =>
      loadPage((page) => getClient().qrCodes.list({ limit: PAGE_SIZE, page }), options.page),
    [],
    { keepPreviousData: true, failureToastOptions: { title: "Could not load your QR codes" } },
  );
}
