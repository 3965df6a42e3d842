import { useCachedPromise } from "@raycast/utils";
import type { Account } from "../api/accounts";
import { lastWeek, loadClickHistory } from "../api/click-histories";
import { getClient } from "../api/client";

/** A link's clicks per day over the last 7 days, from the history Recent Links keeps (no request). */
export function useClickWeek(account: Account, id: number) {
  // Cached under the account's digest, never its key.
  return useCachedPromise(
    async (_accountId: string, linkId: number) => lastWeek(await loadClickHistory(account), linkId),
    [getClient(account).accountId, id],
    { failureToastOptions: { title: "Could not read the clicks over time" } },
  );
}
