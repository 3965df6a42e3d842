/**
 * The sync protocol: the newest links down to the known ones (one request when nothing is new),
 * then the sweep's next pages, each in the sweep's turn of the window (`pacing.ts`), with a save
 * after each read.
 */
import type { LinkShortClient } from "../client";
import { PagePromise, type Page } from "../pagination";
import { recordPageSize, SAFE_PAGE_SIZE } from "../internal/page-size";
import type { RequestOptions } from "../resources/shared";
import type { Link } from "../resources/links/schemas";
import type { IndexFreshness } from "./freshness";
import type { SweepTurns } from "./pacing";
import { startSweep, sweepStep, type SweepHost } from "./sweep";

export interface SyncOptions {
  signal?: AbortSignal;
  /** The most sweep pages this call reads (a host without timers advances a bounded step per call). Default: no bound. */
  maxSweepPages?: number;
  /** When the sweep's share of the window is spent, wait for the next window (needs `sleep`) instead of returning. */
  wait?: boolean;
  /** Read the newest links even if the last sync was a moment ago. */
  force?: boolean;
  /**
   * Pages this call reads even when the sweep's share of the window is spent (a caller about to send
   * a request of its own that the read may spare: a reuse lookup, which may avoid a create). Default 0.
   */
  leastPages?: number;
  onProgress?: (freshness: IndexFreshness) => void;
}

/** What a sync works on: the sweep's host, and the index's settings, turns, saves and freshness. */
export interface SyncHost extends SweepHost {
  /** The page size the index was given; undefined: pages of SAFE_PAGE_SIZE for the newest links, and what the server allows for a walk. */
  readonly givenPageSize: number | undefined;
  readonly sweepEveryMs: number;
  readonly minSyncIntervalMs: number;
  readonly turns: SweepTurns;
  save(): Promise<void>;
  freshness(): IndexFreshness;
}

/** Reads what changed on the server since the last sync, as far as the options and the sweep's share allow. */
export async function runSync(host: SyncHost, client: LinkShortClient, options: SyncOptions): Promise<void> {
  const { signal } = options;
  const startedAt = host.now();
  try {
    const lastSyncAt = host.meta().lastSyncAt;
    const recent = lastSyncAt !== null && startedAt - lastSyncAt < host.minSyncIntervalMs;
    if (host.meta().frontierId !== null && (options.force || !recent)) {
      await readNewest(host, client, signal);
      host.meta().lastSyncAt = startedAt;
      await host.save();
      options.onProgress?.(host.freshness());
    }
    let budget = options.maxSweepPages ?? Number.POSITIVE_INFINITY;
    let sweepPagesRead = 0;
    let sweepsStarted = 0;
    while (budget > 0) {
      if (host.meta().sweep === null) {
        const lastFullSweepAt = host.meta().lastFullSweepAt;
        const due = lastFullSweepAt === null || host.now() - lastFullSweepAt >= host.sweepEveryMs;
        // One sweep at most per call: a call ends when the walk it began is done.
        if (!due || sweepsStarted > 0) break;
        startSweep(host);
        sweepsStarted += 1;
      }
      const swept = host.meta().lastFullSweepAt !== null;
      if (sweepPagesRead >= (options.leastPages ?? 0) && !host.turns.mayRead(client.rateLimitHeadroom(), swept)) {
        if (!options.wait || !(await host.turns.waitForTurn(() => client.rateLimitHeadroom(), swept, signal))) break;
        continue;
      }
      budget -= 1;
      sweepPagesRead += 1;
      host.turns.sent();
      await sweepStep(host, async (page, limit) => {
        const answer = await readPage(client, page, signal, limit);
        // What the walk's size teaches about the server; a read that covers a run of equal dates asks for less on purpose.
        if (host.givenPageSize === undefined && limit === host.meta().sweep?.asked) recordPageSize(client.accountId, limit, PagePromise.sizeGiven(answer));
        return answer;
      });
      if (host.meta().frontierId !== null && host.meta().lastSyncAt === null) host.meta().lastSyncAt = startedAt;
      await host.save();
      options.onProgress?.(host.freshness());
    }
  } finally {
    await host.save();
  }
}

function readPage(client: LinkShortClient, page: number, signal: AbortSignal | undefined, limit: number): Promise<Page<Link>> {
  const options: RequestOptions = signal ? { signal } : {};
  return Promise.resolve(client.links.list({ order: "date", limit, page }, options));
}

/** New links: newest-first pages down to one that reaches the frontier (one request when nothing is new). */
async function readNewest(host: SyncHost, client: LinkShortClient, signal: AbortSignal | undefined): Promise<void> {
  const meta = host.meta();
  const frontier = meta.frontierId!;
  let highest = frontier;
  for (let requested = 1; ; requested += 1) {
    const page = await readPage(client, requested, signal, host.givenPageSize ?? SAFE_PAGE_SIZE);
    let reached = false;
    for (const item of page.items) {
      if (item.id > frontier && !host.links.has(item.id) && meta.serverCount !== null) meta.serverCount += 1;
      host.see(item, false);
      highest = Math.max(highest, item.id);
      if (item.id <= frontier) reached = true;
    }
    if (reached || PagePromise.isLastPage(page, requested)) break;
  }
  meta.frontierId = highest;
}
