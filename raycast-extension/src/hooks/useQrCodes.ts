import { useCachedPromise } from "@raycast/utils";
import { accountById, type Account } from "../api/accounts";
import { getClient } from "../api/client";
import { loadPage, PAGE_SIZE } from "./loadPage";

/** The account's QR codes, a page at a time as the list scrolls. */
export function useQrCodes(account: Account) {
  return useCachedPromise(
    // Only the id is an argument (arguments key the cached pages, and the key must not be among them).
    (accountId: string) => (options: { page: number }) =>
      loadPage(
        (page) => getClient(accountById(accountId, account)).qrCodes.list({ limit: PAGE_SIZE, page }),
        options.page,
      ),
    [account.id],
    { keepPreviousData: true, failureToastOptions: { title: "Could not load your QR codes" } },
  );
}

/** One QR code's scan statistics. */
export function useQrStats(id: number) {
  return useCachedPromise((qrId: number) => getClient().qrCodes.get(qrId), [id], {
    failureToastOptions: { title: "Could not load the scans" },
  });
}
