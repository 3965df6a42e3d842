import { useEffect, useMemo, useState } from "react";
import type { IndexedLink, IndexFreshness } from "@linkshort/client/core";
import type { Account } from "../api/accounts";
import { showFailure } from "../ui/failure";
import { getAccountIndex, syncIndex } from "../api/account-indexes";

export type LinkOrder = "date" | "click";

/** Links a list shows at most; the rest are counted (a list of 10,000 rows helps nobody). */
export const SHOWN_LINKS = 100;

export interface LinkSearch {
  links: IndexedLink[];
  matches: number;
  freshness: IndexFreshness;
  /** The first read of the stored index has not finished. */
  isLoading: boolean;
  /** A sync is running. */
  isSyncing: boolean;
  error: unknown;
  /** Shows the index again (after a change the index has already taken in). */
  refresh: () => void;
  /** Syncs again after a failure. */
  retry: () => void;
}

/**
 * The account's links from its index, searched as the user types with no request: the index is
 * loaded from Raycast's cache at once, then synced (waiting out the rate limit, for as long as
 * the command is open); every change the extension makes shows at once.
 */
export function useLinkIndex(account: Account, query: string, order: LinkOrder): LinkSearch {
  const target = useMemo(() => getAccountIndex(account), [account.baseUrl, account.apiKey]);
  const [version, setVersion] = useState(0);
  const [attempt, setAttempt] = useState(0);
  const [isLoading, setLoading] = useState(true);
  const [isSyncing, setSyncing] = useState(true);
  const [error, setError] = useState<unknown>();

  useEffect(() => {
    const controller = new AbortController();
    const refresh = () => {
      if (!controller.signal.aborted) setVersion((value) => value + 1);
    };
    const stopWatching = target.client.links.watch(refresh);
    setError(undefined);
    setLoading(true);
    setSyncing(true);
    target.index
      .load()
      .then(() => {
        if (controller.signal.aborted) return;
        setLoading(false);
        refresh();
        // Opening the command reads the newest links even right after another sync: the user may have just made one elsewhere.
        return syncIndex(target, { wait: true, force: true, signal: controller.signal, onProgress: refresh });
      })
      .then(
        () => {
          if (controller.signal.aborted) return;
          setSyncing(false);
          refresh();
        },
        (failure: unknown) => {
          if (controller.signal.aborted) return;
          setSyncing(false);
          setError(failure);
          refresh();
          void showFailure(failure, "Could not read your links", () => setAttempt((value) => value + 1));
        },
      );
    return () => {
      controller.abort();
      stopWatching();
    };
  }, [target, attempt]);

  // Typed text is ranked by how well it matches; an empty query lists the newest or the most clicked (the index's order).
  const result = useMemo(
    () => target.index.search(query, SHOWN_LINKS, order === "click" && query.trim() === "" ? "clicks" : "best"),
    [target, query, order, version],
  );

  return {
    ...result,
    isLoading,
    isSyncing,
    error,
    refresh: () => setVersion((value) => value + 1),
    retry: () => setAttempt((value) => value + 1),
  };
}
