import { useCachedPromise } from "@raycast/utils";
import { getClient } from "../api/client";

/** One link's details and statistics. */
export function useLinkStats(id: number) {
  return useCachedPromise((linkId: number) => getClient().links.get(linkId), [id], {
    failureToastOptions: { title: "Could not load the statistics" },
  });
}
