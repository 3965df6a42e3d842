import { useCachedPromise } from "@raycast/utils";
import { getClient } from "../api/client";

/** All the account's branded domains (every page), for the domain dropdown. */
export function useDomains() {
  return useCachedPromise(() => getClient().domains.list({ limit: 100 }).toArray(), [], {
    failureToastOptions: { title: "Could not load your domains" },
  });
}
