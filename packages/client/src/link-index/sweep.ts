/**
 * The sweep: a walk of every page of the account that finds edits and deletions made elsewhere.
 * It reads the first page (the newest id), the last (the exact count), then every page, and is
 * trusted only when it saw exactly that many of the links up to that newest id; runs of equal
 * dates that a page boundary splits are read whole (`split-runs.ts`). One request per step: the caller
 * paces the steps (`pacing.ts`) and saves after each.
 */
import { PagePromise, type Page } from "../pagination";
import type { Link } from "../resources/links/schemas";
import type { LinkTable } from "./link-table";
import type { IndexedLink } from "./search";
import type { IndexMeta, SweepState } from "./store";
import { coveringReads, dateKey, leadingRunEnd, rereads, trailingRunStart } from "./split-runs";

/** Walks one sweep may begin before it gives up until the next is due (pages that keep moving). */
const MAX_WALKS_PER_SWEEP = 3;
/** Counts a walk takes again when links were made between its first page and its count. */
const MAX_RECOUNTS = 3;

/** What the sweep works on: the index's meta and links, and how it records what it reads. */
export interface SweepHost {
  meta(): IndexMeta;
  readonly links: LinkTable;
  /** The page size a new walk asks for. */
  pageSize(): number;
  now(): number;
  /** Records a link as read; `walked`: by the walk (it counts as seen by this sweep). */
  see(item: IndexedLink, walked: boolean): void;
  drop(id: number): void;
}

/** Reads a page of the list by date, `limit` links a page. */
export type ReadPage = (page: number, limit: number) => Promise<Page<Link>>;

/** Starts a sweep (`attempt`: walks of it that could not be trusted so far). */
export function startSweep(host: SweepHost, attempt = 0): void {
  const generation = host.meta().generation + 1;
  const asked = host.pageSize();
  host.meta().generation = generation;
  host.meta().sweep = {
    generation,
    phase: "probe",
    page: 1,
    pages: host.meta().sweep?.pages ?? 1,
    startedAt: host.now(),
    startMaxId: host.links.highestId(),
    highestAtStart: 0,
    totalAtStart: null,
    openRun: null,
    straddled: [],
    covers: [],
    perpage: asked,
    asked,
    attempt,
  };
}

/** One request of the sweep: the first page, the last (to count), the next page of the walk, or a run of equal dates read whole. */
export async function sweepStep(host: SweepHost, read: ReadPage): Promise<void> {
  const sweep = host.meta().sweep!;
  if (sweep.phase === "cover") {
    const [number, limit, first, last] = sweep.covers.shift()!;
    const page = await read(number, limit);
    if (page.perpage === limit && page.currentpage === number) for (const item of page.items) host.see(item, true);
    // A server that caps the page size answered another window: read the run's pages again instead.
    else if (page.perpage > 0 && page.perpage < limit) sweep.covers.push(...rereads(first, last, page.perpage));
    if (sweep.covers.length === 0 || seenByWalk(host, sweep) === sweep.totalAtStart) endWalk(host, sweep);
    return;
  }
  const page = await read(sweep.page, sweep.asked ?? host.pageSize());
  sweep.pages = Math.max(1, page.maxpage);
  const last = PagePromise.isLastPage(page, sweep.page);
  if (sweep.phase === "probe") {
    const given = PagePromise.sizeGiven(page);
    if (given < page.perpage) {
      // The server wrote the asked limit into perpage: the sweep asks what it gives, so that each answer's perpage is true.
      sweep.asked = given;
      sweep.perpage = given;
    }
    sweep.highestAtStart = page.items.reduce((max, item) => Math.max(max, item.id), 0);
    // The first page of the first sweep: every later link is newer than these.
    host.meta().frontierId ??= sweep.highestAtStart;
    if (last) {
      // The whole list in one answer: a walk by itself.
      for (const item of page.items) host.see(item, true);
      sweep.totalAtStart = page.items.length;
      countExactly(host, page);
      endWalk(host, sweep);
      return;
    }
    for (const item of page.items) host.see(item, false);
    estimateCount(host, page);
    sweep.phase = "count";
    sweep.page = sweep.pages;
    return;
  }
  if (sweep.phase === "count") {
    for (const item of page.items) host.see(item, false);
    if (!last || (page.items.length === 0 && sweep.page > 1)) {
      // The list grew or shrank since the first page: read the last page it has now.
      sweep.page = page.items.length === 0 ? Math.max(1, Math.min(sweep.page - 1, page.maxpage)) : Math.max(sweep.page + 1, page.maxpage);
      return;
    }
    sweep.totalAtStart = countExactly(host, page);
    sweep.phase = "walk";
    sweep.page = 1;
    return;
  }
  const newest = page.items.reduce((max, item) => Math.max(max, item.id), 0);
  if (sweep.page === 1 && newest > sweep.highestAtStart && (sweep.recounts ?? 0) < MAX_RECOUNTS) {
    // Links made since the first page was read, maybe before the count: count again, up to them,
    // rather than walk pages whose count cannot be trusted.
    for (const item of page.items) host.see(item, false);
    sweep.highestAtStart = newest;
    sweep.recounts = (sweep.recounts ?? 0) + 1;
    sweep.phase = "count";
    sweep.page = Math.max(1, page.maxpage);
    return;
  }
  for (const item of page.items) host.see(item, true);
  if (page.items.length > 0) sweep.perpage = page.perpage;
  noteRuns(sweep, page, last);
  if (!last) {
    sweep.page = page.currentpage + 1;
    return;
  }
  countExactly(host, page);
  endWalk(host, sweep);
}

/** Notes where a run of equal dates crosses the boundary between the page before and this one. */
function noteRuns(sweep: SweepState, page: Page<Link>, last: boolean): void {
  const offset = (page.currentpage - 1) * page.perpage;
  const items = page.items;
  let run = sweep.openRun;
  if (run !== null) {
    const end = leadingRunEnd(items, run.date);
    if (end === -1) run = null;
    else if (end < items.length - 1 || last) {
      sweep.straddled.push([run.start, offset + end]);
      run = null;
    }
  }
  if (run === null && !last && items.length > 0) {
    const start = trailingRunStart(items);
    run = { date: dateKey(items[start]!), start: offset + start };
  }
  sweep.openRun = run;
}

/**
 * The walk is over: trusted when it saw as many of the links up to `highestAtStart` as the server
 * counted before it (it saw each of them then: none was deleted under it). Else runs of equal dates
 * the pages split are read whole, and a walk still short is walked again; its unseen links stay.
 */
function endWalk(host: SweepHost, sweep: SweepState): void {
  if (seenByWalk(host, sweep) === sweep.totalAtStart) {
    for (const id of [...host.links.ids()]) {
      // Up to highestAtStart: unseen by a walk that saw every link. Above it, yet known when the sweep began: gone before the first page was read.
      const gone = id <= sweep.highestAtStart ? host.links.seenOf(id)! < sweep.generation : id <= sweep.startMaxId;
      if (gone) host.drop(id);
    }
    finishSweep(host);
  } else if (sweep.phase === "walk" && sweep.straddled.length > 0) {
    sweep.phase = "cover";
    // A server that answered the walk with smaller pages than asked would cap a larger window too.
    sweep.covers = coveringReads(sweep.straddled, sweep.perpage, sweep.perpage < (sweep.asked ?? host.pageSize()) ? sweep.perpage : undefined);
  } else if (sweep.attempt + 1 < MAX_WALKS_PER_SWEEP) {
    startSweep(host, sweep.attempt + 1);
  } else {
    // The pages keep moving: not complete, nothing dropped; the next due sweep tries again.
    host.meta().sweep = null;
  }
}

/** Links up to `highestAtStart` that this walk saw. */
function seenByWalk(host: SweepHost, sweep: SweepState): number {
  let seen = 0;
  for (const id of host.links.ids()) if (id <= sweep.highestAtStart && host.links.seenOf(id) === sweep.generation) seen += 1;
  return seen;
}

function estimateCount(host: SweepHost, page: Page<Link>): void {
  if (host.meta().serverCountExact && host.meta().serverCount !== null) return;
  host.meta().serverCount = Math.max(host.links.size, page.maxpage * PagePromise.sizeGiven(page));
  host.meta().serverCountExact = false;
}

/** The count the last page implies (with the page size the server answered with). */
function countExactly(host: SweepHost, page: Page<Link>): number {
  const count = (page.currentpage - 1) * page.perpage + page.items.length;
  host.meta().serverCount = count;
  host.meta().serverCountExact = true;
  return count;
}

function finishSweep(host: SweepHost): void {
  host.meta().sweep = null;
  host.meta().lastFullSweepAt = host.now();
}
