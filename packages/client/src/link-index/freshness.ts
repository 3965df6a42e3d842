import type { IndexMeta } from "./store";

/** How fresh an answer from the index is. */
export interface IndexFreshness {
  /** Links in the index. */
  known: number;
  /** How many links the server holds, as its pages imply; null before the first read. */
  serverCount: number | null;
  /** `serverCount` was counted to the end of the list, not estimated from the page count. */
  serverCountExact: boolean;
  /** A full sweep has finished: every link that existed then is in the index. */
  complete: boolean;
  /** When the last full sweep finished (epoch ms). */
  lastFullSweepAt: number | null;
  /** When the newest links were last read (epoch ms). */
  lastSyncAt: number | null;
  /** The sweep under way: the next page of how many. */
  sweep: { page: number; pages: number } | null;
}

/** The freshness of an index with `known` links and this meta. */
export function freshnessOf(meta: IndexMeta, known: number): IndexFreshness {
  const sweep = meta.sweep;
  return {
    known,
    serverCount: meta.serverCount,
    serverCountExact: meta.serverCountExact,
    complete: meta.lastFullSweepAt !== null,
    lastFullSweepAt: meta.lastFullSweepAt,
    lastSyncAt: meta.lastSyncAt,
    sweep: sweep && { page: sweep.page, pages: sweep.pages },
  };
}

const count = (value: number) => value.toLocaleString("en-US");

/** A moment as people read it in a list ("5 min ago") or as a model reads it (an ISO date). */
function when(at: number, now: number, times: "ago" | "iso"): string {
  if (times === "iso") return `at ${new Date(at).toISOString()}`;
  const minutes = Math.round((now - at) / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}

/**
 * How far the index is, in one sentence for every front end: "Indexed 3,200 of about 10,000
 * links" ("about" only while the count is an estimate from the page count), or for a complete one
 * "10,000 links, all checked 5 min ago; new links read just now".
 */
export function freshnessSentence(freshness: IndexFreshness, options: { now?: number; times?: "ago" | "iso" } = {}): string {
  const { now = Date.now(), times = "ago" } = options;
  const { known, serverCount, serverCountExact, complete, lastFullSweepAt, lastSyncAt } = freshness;
  if (!complete || lastFullSweepAt === null) {
    if (serverCount === null) return "Indexing the account's links";
    return `Indexed ${count(known)} of ${serverCountExact ? "" : "about "}${count(Math.max(serverCount, known))} links`;
  }
  return `${count(known)} links, all checked ${when(lastFullSweepAt, now, times)}; new links read ${when(lastSyncAt ?? lastFullSweepAt, now, times)}`;
}
