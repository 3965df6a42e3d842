/**
 * A link's visits per day over the last week, as plain HTML columns drawn from the visit times the
 * sandbox keeps (`stats.times`), in UTC days of the sandbox's clock. Independent of the client's
 * series chart: the page checks what the client's history derives from samples.
 */
import { visitsBetween } from "../visits/visit-times";
import { escapeHtml } from "./html";

const DAY = 86_400_000;
export const SERIES_DAYS = 7;

/** "1 click", "2 clicks": the unit's singular for one. */
export const counted = (count: number, unit: "clicks" | "scans") => `${count.toLocaleString("en-US")} ${count === 1 ? unit.slice(0, -1) : unit}`;

const dayLabel = (start: number) => new Date(start).toLocaleDateString("en-GB", { timeZone: "UTC", weekday: "short", day: "numeric" });

/**
 * The week's columns for `times` up to `now`, or a line saying that no visit of this link has a time
 * yet; the caption sets the week's count against `allTime`, the total the bars below it show.
 */
export function visitSeries(times: readonly number[] | undefined, now: number, unit: "clicks" | "scans", allTime: number): string {
  if (!times || times.length === 0) return `<p class="series-none">No ${unit} with a time yet: each visit from now on is kept with its time.</p>`;
  const today = now - (now % DAY);
  const days = Array.from({ length: SERIES_DAYS }, (_, index) => today - (SERIES_DAYS - 1 - index) * DAY);
  const counts = days.map((start) => visitsBetween(times, start, Math.min(start + DAY, now + 1)));
  const peak = Math.max(...counts);
  const total = counts.reduce((sum, count) => sum + count, 0);
  const columns = days
    .map((start, index) => {
      const count = counts[index]!;
      const height = peak > 0 && count > 0 ? Math.max(2, Math.round((count / peak) * 100)) : 0;
      const label = dayLabel(start);
      return `<li data-day="${new Date(start).toISOString().slice(0, 10)}" data-count="${count}" title="${escapeHtml(`${label}: ${counted(count, unit)}`)}"><span class="plot"><span class="col" style="height:${height}%"></span></span><span class="day">${escapeHtml(label)}</span></li>`;
    })
    .join("");
  return `<figure class="series"><figcaption>Last 7 days (UTC): ${counted(total, unit)} of ${allTime.toLocaleString("en-US")} in all</figcaption><ol>${columns}</ol></figure>`;
}

export const SERIES_STYLE = `
.series{margin:0 0 10px}.series figcaption{font-size:13px;color:var(--muted);margin-bottom:4px}
.series ol{display:flex;gap:4px;list-style:none;margin:0;padding:0}.series li{flex:1;min-width:0;text-align:center}
.series .plot{display:flex;align-items:flex-end;height:48px;background:var(--track);border-radius:2px}
.series .col{display:block;width:100%;background:var(--bar);border-radius:2px 2px 0 0}
.series .day{display:block;font-size:11px;color:var(--muted);white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.series-none{color:var(--muted);font-size:13px;margin:0 0 10px}
`;
