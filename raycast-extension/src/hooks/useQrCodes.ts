import { useCachedPromise } from "@raycast/utils";
import { getClient } from "../api/client";
import { loadPage, PAGE_SIZE } from "./loadPage";

/** The account's QR codes, a page at a time as the list scrolls. */
export function useQrCodes() {
  return useCachedPromise(
    () => (options: { page: number }) =>
      loadPage((page) => getClient().qrCodes.list({ limit: PAGE_SIZE, page }), options.page),
    [],
    { keepPreviousData: true, failureToastOptions: { title: "Could not load your QR codes" } },
  );
}

/** One QR code's scan statistics. */
export function useQrStats(id: number) {
  return useCachedPromise((qrId: number) => getClient().qrCodes.get(qrId), [id], {
    failureToastOptions: { title: "Could not load the scans" },
  });
}
