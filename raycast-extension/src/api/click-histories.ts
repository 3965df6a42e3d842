import { Cache } from "@raycast/api";
import {
  calendarPeriod,
  ClickHistory,
  lastDays,
  stateHolderStore,
  type ClickHistoryState,
  type ClickSeries,
  type WindowCount,
} from "@linkshort/client/core";
import type { Account } from "./accounts";
import { getClient } from "./client";
import { accountDigest } from "./index-store";

const STATE_KEY = "state";
/** A week of 10-minute samples of a few thousand links stays far below this; the history thins itself with age. */
const CAPACITY_BYTES = 16 * 1024 * 1024;

/** The cache namespace of an account's click history (`client.accountId`). */
export function historyNamespace(accountId: string): string {
  return `click-history-${accountDigest(accountId)}`;
}

/** The zone of this computer: days and "today" start at its midnight. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/**
 * The account's click history as Raycast's cache holds it, read afresh on each call: Recent Links
 * samples in its own process, and a view opened since must see its last save. A damaged entry, or
 * one of another account, starts the history empty.
 */
export async function loadClickHistory(account: Account): Promise<ClickHistory> {
  const client = getClient(account);
  const cache = new Cache({ namespace: historyNamespace(client.accountId), capacity: CAPACITY_BYTES });
  const history = new ClickHistory({
    account: client.accountId,
    timeZone: localTimeZone(),
    store: stateHolderStore({
      get: () => {
        const text = cache.get(STATE_KEY);
        return text === undefined ? undefined : (JSON.parse(text) as unknown);
      },
      set: (state: ClickHistoryState) => cache.set(STATE_KEY, JSON.stringify(state)),
    }),
  });
  await history.load();
  return history;
}

/** One link's clicks per day over the last 7 days (today included) in this computer's zone. */
export function lastWeek(history: ClickHistory, linkId: number, now = Date.now()): ClickSeries {
  const timeZone = localTimeZone();
  return history.series({ linkId, ...lastDays({ days: 7, timeZone, at: now }), granularity: "day", timeZone });
}

/** Links counted one by one in the day's total; past it the total says "at least". */
const TODAY_LINKS = 1000;

export interface TodayClicks {
  /** Clicks since `since`; null when the history has no sample today. */
  clicks: number | null;
  /** When the count starts: the day's start, or the first sample after it when sampling began (or resumed after a gap) later. */
  since: number | null;
  /** Whether the count starts at the day's start (sampling ran across midnight). */
  wholeDay: boolean;
  /** Whether more links gained clicks than were counted (the total is then a lower bound). */
  atLeast: boolean;
  /** Each link that gained clicks today, by id. */
  byLink: Map<number, WindowCount>;
}

/** The account's clicks today, as far as the history measured them. */
export function todayClicks(history: ClickHistory, now = Date.now()): TodayClicks {
  const timeZone = localTimeZone();
  const day = calendarPeriod({ period: "day", timeZone, at: now });
  const { runningSince, lastSampleAt } = history.state();
  if (lastSampleAt === null || runningSince === null || lastSampleAt * 1000 < day.start) {
    return { clicks: null, since: null, wholeDay: false, atLeast: false, byLink: new Map() };
  }
  const top = history.top({ start: day.start, end: day.end, timeZone, limit: TODAY_LINKS });
  const since = Math.max(day.start, runningSince * 1000);
  return {
    clicks: top.links.reduce((sum, link) => sum + (link.clicks ?? 0), 0),
    since,
    wholeDay: since === day.start,
    atLeast: top.links.length === TODAY_LINKS,
    byLink: new Map(top.links.map((link) => [link.linkId, link])),
  };
}
