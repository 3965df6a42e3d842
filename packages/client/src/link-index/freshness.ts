import type { IndexFreshness } from "./link-index";

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
