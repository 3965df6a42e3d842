/**
 * Raycast's click history asks the process-wide zone clock with this computer's clock and zone: the
 * week in a link's detail and the menu bar's clicks today. A clock in a far year, after an ordinary
 * question, must cost the work of the days asked (issue 51: every day, or every hour, in between was
 * filled). Work is counted, never timed: the host's Intl calls.
 */
import { ClickHistory } from "@linkshort/client/core";
import { lastWeek, todayClicks } from "../../raycast-extension/src/api/click-histories";
import { countWork, INTL_CALLS_A_YEAR } from "../../packages/client/test/clock-work";

const HOUR = 3_600_000;

it("the week of a link and today's clicks on a clock in 2426, after today's, cost the years around the days asked", async () => {
  const now = Math.floor(Date.now() / HOUR) * HOUR;
  const history = new ClickHistory({ account: "far-year", now: () => now });
  history.record({ id: 1, clicks: 3 }, now - HOUR);
  history.record({ id: 1, clicks: 5 }, now);
  expect(lastWeek(history, 1, now).buckets).toHaveLength(7);
  expect(todayClicks(history, now).byLink.size).toBeLessThanOrEqual(1);

  const far = Date.UTC(2426, 5, 1, 12);
  const week = await countWork(() => lastWeek(history, 1, far));
  // Before: every day from today to 2426 stepped through and kept, each year's offsets learnt (146,497 calls).
  expect(week.intlCalls).toBeLessThanOrEqual(2 * INTL_CALLS_A_YEAR);
  expect(week.result.buckets).toHaveLength(7);
  expect(week.result.buckets.every((bucket) => bucket.clicks === null)).toBe(true);
  // The menu bar finds no sample today, before any top links are counted.
  const today = await countWork(() => todayClicks(history, far));
  expect(today.result.clicks).toBeNull();
  expect(today.intlCalls).toBeLessThanOrEqual(2 * INTL_CALLS_A_YEAR);
});
