import { isoOrNull } from "@linkshort/client/core";
import { getAccountIndex, freshnessLine, syncIndex } from "../api/account-indexes";

type Input = {
  /** Text to look for in the alias, short URL, long URL, title or description; the newest links when empty. */
  query?: string;
  /** "date" for newest first, "click" for most clicked first (only without a query: matches are ranked best first). */
  order?: "date" | "click";
  /** How many links to return at most (default 20, at most 100). */
  limit?: number;
};

/** Sweep pages one call may read: an assistant does not wait minutes for the first full read of a large account. */
const TOOL_SWEEP_PAGES = 20;

/**
 * Finds the user's links from the whole account's index (the API has no search), best match first,
 * with how fresh the index is: while the first full read is under way, older links may be missing.
 */
export default async function tool(input: Input) {
  const target = getAccountIndex();
  await target.index.load();
  let refreshFailed: string | undefined;
  try {
    await syncIndex(target, { force: true, maxSweepPages: TOOL_SWEEP_PAGES });
  } catch (error) {
    // With nothing known, there is no answer to give; otherwise answer from what is known, and say so.
    if (target.index.freshness().known === 0) throw error;
    refreshFailed = error instanceof Error ? error.message : String(error);
  }
  const query = String(input.query ?? "").slice(0, 2048);
  const limit = Math.min(Math.max(Math.trunc(Number(input.limit) || 20), 1), 100);
  const found = target.index.search(query, limit, input.order === "click" && query.trim() === "" ? "clicks" : "best");
  const { freshness } = found;
  return {
    links: found.links.map(({ id, alias, shorturl, longurl, title, clicks, date }) => ({
      id,
      alias,
      shorturl,
      longurl,
      title,
      clicks,
      date,
    })),
    matches: found.matches,
    freshness: {
      complete: freshness.complete,
      linksKnown: freshness.known,
      linksOnServer: freshness.serverCount,
      lastFullCheck: isoOrNull(freshness.lastFullSweepAt),
      summary: freshnessLine(freshness),
      ...(refreshFailed ? { refreshFailed } : {}),
    },
  };
}
