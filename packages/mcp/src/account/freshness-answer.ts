import { freshnessSentence, isoOrNull, type IndexFreshness } from "@linkshort/client";

/** Freshness as a tool answers it: the index's figures, dates as ISO strings, and a sentence for the model. */
export interface FreshnessAnswer {
  known: number;
  serverCount: number | null;
  complete: boolean;
  lastFullSweep: string | null;
  lastSync: string | null;
  summary: string;
}

/** The index's freshness as a tool answers it, with why the last update failed (redacted) until one succeeds. */
export function freshnessAnswer(freshness: IndexFreshness, lastFailure: string | undefined): FreshnessAnswer {
  const { known, serverCount, complete, lastFullSweepAt, lastSyncAt } = freshness;
  const sentence = freshnessSentence(freshness, { times: "iso" });
  let summary = complete ? `${sentence}.` : `${sentence}; older links may be missing until the first sync finishes.`;
  if (lastFailure !== undefined) summary += ` The last update of the index failed (${lastFailure}); links made elsewhere since may be missing.`;
  return { known, serverCount, complete, lastFullSweep: isoOrNull(lastFullSweepAt), lastSync: isoOrNull(lastSyncAt), summary };
}
