import type { LinkShortClient } from "../client";
import { ValidationError } from "../errors";
import { validate } from "../internal/validate";
import { addSample, checkpointCount, newChannel, timeAt, thin, type Channel, type KeptBoundary } from "./checkpoints";
import { decodeLink, encodeLink } from "./encoding";
import {
  isClickMoment,
  RateQuerySchema,
  SeriesQuerySchema,
  TopLinksQuerySchema,
  TotalsSampleSchema,
  type LinkTotals,
  type RateQuery,
  type SeriesQuery,
  type TopLinksQuery,
} from "./schemas";
import { seriesOf, windowCount, type ClickSeries, type WindowCount } from "./series";
import { defaultGranularity } from "./periods";
import { MemoryClickHistoryStore, stateProblem, type ClickHistoryState, type ClickHistoryStore } from "./store";
import { OptionsSchema, type CheckedOptions, type ClickHistoryOptions } from "./options";
import { DAYS_FOR_S, EVERY_SAMPLE_FOR_S, HOURS_FOR_S, keptBoundaries, TOLERANCE_S } from "./tiers";
import { zoneClock, type Granularity } from "./zone";

interface LinkHistory {
  clicks: Channel;
  unique: Channel | undefined;
  /** When (sample time, seconds) it was last thinned. */
  thinnedAt: number;
}

/** A link is thinned at most once an hour of sample time. */
const THIN_EVERY_S = 3600;

/**
 * Click history per link, from samples of its totals (what list pages and a link's details say, and
 * when). Buckets of hours, days, weeks or months in any IANA zone, each saying how it was measured;
 * see the client README for what it keeps and what it cannot know. No timers: it advances when
 * samples come and saves when asked.
 */
export class ClickHistory {
  readonly account: string;
  readonly timeZone: string;
  /** What could not be used of a stored history, for the host to show. */
  readonly notes: string[] = [];
  readonly #store: ClickHistoryStore;
  readonly #options: CheckedOptions;
  readonly #now: () => number;
  readonly #warn: ((text: string) => void) | undefined;
  readonly #links = new Map<number, LinkHistory>();
  readonly #encoded = new Map<number, string>();
  readonly #changed = new Set<number>();
  #runningSince: number | null = null;
  #lastSampleAt: number | null = null;
  #lastSaveAt = Number.NEGATIVE_INFINITY;
  #loaded: Promise<void> | undefined;
  #kept: { at: number; boundaries: KeptBoundary[] } | undefined;

  constructor(options: ClickHistoryOptions) {
    this.#options = validate(
      OptionsSchema,
      {
        account: options.account,
        timeZone: options.timeZone,
        gapAfterMs: options.gapAfterMs,
        crossedReadMs: options.crossedReadMs,
        saveEveryMs: options.saveEveryMs,
      },
      "clickHistory",
    );
    this.account = this.#options.account;
    this.timeZone = this.#options.timeZone;
    this.#store = options.store ?? new MemoryClickHistoryStore();
    this.#now = options.now ?? Date.now;
    this.#warn = options.warn;
  }

  /** Reads the store once. A history of another account, or a damaged one, starts empty (with a note) and is rewritten. */
  load(): Promise<void> {
    this.#loaded ??= this.#store.load().then(
      (stored) => this.#takeIn(stored),
      (error: unknown) =>
        this.#note(`the stored click history could not be read (${error instanceof Error ? error.message : String(error)}); it starts empty and is rewritten`),
    );
    return this.#loaded;
  }

  #takeIn(stored: unknown): void {
    if (stored === undefined || stored === null) return;
    const problem = stateProblem(stored);
    if (problem) return this.#note(`the stored click history is damaged (${problem}); it starts empty and is rewritten`);
    const state = stored as ClickHistoryState;
    if (state.account !== this.account) return this.#note("the stored click history is of another account; it starts empty and is rewritten");
    let damaged = 0;
    for (const [key, text] of Object.entries(state.links)) {
      const id = Number(key);
      if (this.#links.has(id)) continue;
      try {
        if (!Number.isSafeInteger(id) || id <= 0 || typeof text !== "string") throw new Error("not a link's history");
        const { clicks, unique } = decodeLink(text);
        this.#links.set(id, { clicks, unique, thinnedAt: 0 });
        this.#encoded.set(id, text);
      } catch {
        damaged += 1;
      }
    }
    if (damaged > 0) this.#note(`the click history of ${damaged} link(s) was damaged and starts anew`);
    this.#runningSince ??= state.runningSince;
    this.#lastSampleAt = Math.max(this.#lastSampleAt ?? 0, state.lastSampleAt ?? 0) || null;
  }

  #note(text: string): void {
    this.notes.push(text);
    this.#warn?.(text);
  }

  /** Takes in links' totals as a read showed them at `at` (default now). A total lower than the last is marked as a reset, never subtracted. */
  record(totals: LinkTotals | readonly LinkTotals[], at: number = this.#now()): void {
    const list: readonly LinkTotals[] = Array.isArray(totals) ? totals : [totals as LinkTotals];
    for (const [index, sample] of list.entries()) {
      if (!isSample(sample)) validate(TotalsSampleSchema, sample, "clickHistory.record", list === totals ? String(index) : "");
    }
    if (!isClickMoment(at))
      throw new ValidationError([{ field: "at", message: "must be a time in epoch milliseconds, from 1970 to the end of 9999" }], "clickHistory.record");
    const seconds = Math.floor(at / 1000);
    if (this.#lastSampleAt === null || seconds - this.#lastSampleAt > this.#options.gapAfterMs / 1000) this.#runningSince = seconds;
    this.#lastSampleAt = Math.max(this.#lastSampleAt ?? seconds, seconds);
    const crossed = this.#options.crossedReadMs / 1000;
    for (const sample of list) {
      const id = Number(sample.id);
      const link = this.#links.get(id);
      if (!link) {
        this.#links.set(id, {
          clicks: newChannel(seconds, sample.clicks),
          unique: sample.uniqueClicks === undefined ? undefined : newChannel(seconds, sample.uniqueClicks),
          thinnedAt: seconds,
        });
        this.#changed.add(id);
        continue;
      }
      const gap = (channel: Channel) => timeAt(channel, checkpointCount(channel) - 1) < this.#runningSince!;
      let changed = addSample(link.clicks, seconds, sample.clicks, gap(link.clicks), crossed);
      if (sample.uniqueClicks !== undefined) {
        if (link.unique) changed = addSample(link.unique, seconds, sample.uniqueClicks, gap(link.unique), crossed) || changed;
        else [link.unique, changed] = [newChannel(seconds, sample.uniqueClicks), true];
      }
      if (seconds - link.thinnedAt >= THIN_EVERY_S) this.#thin(link, seconds);
      if (changed) this.#changed.add(id);
    }
  }

  #thin(link: LinkHistory, now: number): void {
    const hour = now - (now % THIN_EVERY_S);
    if (this.#kept?.at !== hour) this.#kept = { at: hour, boundaries: keptBoundaries(zoneClock(this.timeZone), hour) };
    // Only what aged across a tier's edge since the last thinning can go (all of it, the first time).
    const last = link.thinnedAt;
    const ranges: Array<[number, number]> =
      last === 0
        ? [[Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY]]
        : [EVERY_SAMPLE_FOR_S, HOURS_FOR_S, DAYS_FOR_S].map((age) => [last - age - THIN_EVERY_S, now - age + THIN_EVERY_S]);
    for (const channel of [link.clicks, link.unique]) if (channel) thin(channel, this.#kept.boundaries, now - EVERY_SAMPLE_FOR_S, now - DAYS_FOR_S, ranges);
    link.thinnedAt = now;
  }

  /** Forgets a link (deleted: an id used again later starts a new history). */
  forget(id: number): void {
    if (this.#links.delete(id)) this.#changed.add(id);
  }

  /** Records the totals every list page and link details `client` reads show, as they arrive (no request of its own); returns the function that stops it. */
  observe(client: LinkShortClient): () => void {
    if (client.accountId !== this.account) throw new Error("this click history is of another account than the client's");
    return client.links.watchTotals((totals) => {
      this.record(totals);
      void this.saveIfDue().catch((error: unknown) =>
        this.#note(`the click history could not be saved (${error instanceof Error ? error.message : String(error)})`),
      );
    });
  }

  /** Links with any history. */
  get size(): number {
    return this.#links.size;
  }

  /** The earliest sample kept of any link (epoch ms; null before the first): how far the history reaches. */
  get firstSampleAt(): number | null {
    let first = Number.POSITIVE_INFINITY;
    for (const link of this.#links.values()) if (checkpointCount(link.clicks) > 0) first = Math.min(first, timeAt(link.clicks, 0));
    return first === Number.POSITIVE_INFINITY ? null : first * 1000;
  }

  /** One link's clicks from `start` to `end` in buckets of `granularity` in `timeZone` (the range widened to whole buckets). */
  series(query: SeriesQuery): ClickSeries {
    const checked = validate(SeriesQuerySchema, query, "clickHistory.series");
    return this.#seriesOver(
      checked.linkId,
      checked.timeZone,
      checked.granularity,
      zoneClock(checked.timeZone).boundaries(checked.granularity, checked.start, checked.end),
    );
  }

  #seriesOver(linkId: number, timeZone: string, granularity: Granularity, boundaries: number[]): ClickSeries {
    const link = this.#links.get(linkId);
    const base = { linkId, timeZone, granularity, start: boundaries[0]!, end: boundaries[boundaries.length - 1]! };
    if (!link) return { ...base, ...emptySeries(boundaries), firstSampleAt: null, lastSampleAt: null };
    const clicks = link.clicks;
    return {
      ...base,
      ...seriesOf(clicks, link.unique, boundaries, TOLERANCE_S[granularity]),
      firstSampleAt: timeAt(clicks, 0) * 1000,
      lastSampleAt: timeAt(clicks, checkpointCount(clicks) - 1) * 1000,
    };
  }

  /** The clicks of the last `minutes` before `at` (default now), as one bucket. */
  recent(query: RateQuery): WindowCount {
    const checked = validate(RateQuerySchema, query, "clickHistory.recent");
    const end = checked.at ?? this.#now();
    const link = this.#links.get(checked.linkId);
    if (!link) return { clicks: null, quality: "none", measuredFrom: null, measuredTo: null, uniqueClicks: null, reset: false };
    const tolerance = Math.min(TOLERANCE_S.hour, Math.max(1, Math.floor((checked.minutes * 60) / 5)));
    return windowCount(link.clicks, link.unique, end - checked.minutes * 60_000, end, tolerance);
  }

  /** The `limit` links with the most clicks from `start` to `end` (widened to whole buckets of `granularity`, by default `defaultGranularity`'s); with their series when `granularity` is given. */
  top(query: TopLinksQuery): { start: number; end: number; timeZone: string; links: Array<{ linkId: number } & WindowCount & { series?: ClickSeries }> } {
    const checked = validate(TopLinksQuerySchema, query, "clickHistory.top");
    const [{ granularity, timeZone }, clock] = [checked, zoneClock(checked.timeZone)];
    const unit: Granularity = granularity ?? defaultGranularity(checked.start, checked.end);
    // Without a series only the ends are needed, however many buckets lie between.
    const boundaries = granularity ? clock.boundaries(granularity, checked.start, checked.end) : undefined;
    const [start, end] = boundaries ? [boundaries[0]!, boundaries[boundaries.length - 1]!] : clock.enclosing(unit, checked.start, checked.end);
    const ranked: Array<{ linkId: number } & WindowCount> = [];
    for (const [linkId, link] of this.#links) {
      const count = windowCount(link.clicks, link.unique, start, end, TOLERANCE_S[unit]);
      if (count.clicks !== null && count.clicks > 0) ranked.push({ linkId, ...count });
    }
    // Most clicks first; the newer link (higher id) first among equals.
    ranked.sort((a, b) => b.clicks! - a.clicks! || b.linkId - a.linkId);
    const links = ranked
      .slice(0, checked.limit)
      .map((entry) => (granularity ? { ...entry, series: this.#seriesOver(entry.linkId, timeZone, granularity, boundaries!) } : entry));
    return { start, end, timeZone, links };
  }

  /** The state as stored (links thinned first). */
  state(): ClickHistoryState {
    const now = Math.floor(this.#now() / 1000);
    const links: Record<string, string> = {};
    for (const [id, link] of this.#links) {
      if (now - link.thinnedAt >= THIN_EVERY_S) {
        this.#thin(link, now);
        this.#changed.add(id);
      }
      if (this.#changed.has(id) || !this.#encoded.has(id)) this.#encoded.set(id, encodeLink(link));
      links[id] = this.#encoded.get(id)!;
    }
    for (const id of this.#changed) if (!this.#links.has(id)) this.#encoded.delete(id);
    this.#changed.clear();
    return { version: 1, account: this.account, runningSince: this.#runningSince, lastSampleAt: this.#lastSampleAt, links };
  }

  /** Writes the history to its store now. */
  async save(): Promise<void> {
    await this.load();
    this.#lastSaveAt = this.#now();
    await this.#store.save(this.state());
  }

  /** Writes the history when it changed and the last write is `saveEveryMs` old. */
  async saveIfDue(): Promise<void> {
    if (this.#changed.size === 0 || this.#now() - this.#lastSaveAt < this.#options.saveEveryMs) return;
    await this.save();
  }
}

function isSample(value: unknown): value is LinkTotals {
  if (value === null || typeof value !== "object") return false;
  const { id, clicks, uniqueClicks } = value as Record<string, unknown>;
  const count = (entry: unknown) => typeof entry === "number" && Number.isSafeInteger(entry) && entry >= 0;
  return typeof id === "number" && Number.isSafeInteger(id) && id > 0 && count(clicks) && (uniqueClicks === undefined || count(uniqueClicks));
}

function emptySeries(boundaries: number[]): Pick<ClickSeries, "buckets" | "total" | "measuredFrom" | "measuredTo" | "unplaced" | "uniqueTotal"> {
  const buckets = boundaries.slice(1).map((end, index) => ({
    start: boundaries[index]!,
    end,
    clicks: null,
    quality: "none" as const,
    measuredFrom: null,
    measuredTo: null,
    uniqueClicks: null,
    uniqueQuality: "none" as const,
    reset: false,
  }));
  return { buckets, total: null, measuredFrom: null, measuredTo: null, unplaced: [], uniqueTotal: null };
}
