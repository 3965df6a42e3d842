/**
 * The click history at 10,000 links and 90 days: its bytes on disk (the stored state as JSON) and
 * in memory per link-day, for links that gain clicks at every sample (the most a link can cost) and
 * for an account where most links are quiet; a series query's p50 for one link and for the
 * account's top 10 over a week.
 */
import { performance } from 'node:perf_hooks';
import { ClickHistory, type LinkTotals } from '@linkshort/client';
import { ms, percentile, type Row } from './row';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const LINKS = 10_000;
const DAYS = 90;
const ACCOUNT = 'https://short.example 0123456789abcdef0123456789abcdef';
const END = Date.UTC(2026, 10, 26, 0, 0);
const START = END - DAYS * DAY;

/**
 * Samples of every link: hourly for 88 days, every 15 minutes for the last two (as a sweep every 15
 * minutes would, thinned to the hour for older days anyway). `gains(link, hour)`: clicks a link gains in that sample.
 */
function fill(gains: (link: number, step: number) => number): { history: ClickHistory; heap: number } {
  gc();
  const baseline = process.memoryUsage().heapUsed;
  let now = START;
  const history = new ClickHistory({ account: ACCOUNT, timeZone: 'America/New_York', gapAfterMs: 2 * HOUR, now: () => now });
  const totals = new Float64Array(LINKS);
  const samples: LinkTotals[] = Array.from({ length: LINKS }, (_, index) => ({ id: index + 1, clicks: 0 }));
  let step = 0;
  for (let at = START; at <= END; at += at < END - 2 * DAY ? HOUR : 15 * 60_000) {
    now = at;
    for (let link = 0; link < LINKS; link += 1) {
      totals[link]! += gains(link, step);
      samples[link]!.clicks = totals[link]!;
    }
    history.record(samples, at);
    step += 1;
  }
  history.state(); // thins every link as a save would
  gc();
  return { history, heap: process.memoryUsage().heapUsed - baseline };
}

function sizeRows(rows: Row[], label: string, gains: (link: number, step: number) => number, goal: boolean): ClickHistory {
  const { history, heap } = fill(gains);
  const disk = Buffer.byteLength(JSON.stringify(history.state()));
  const linkDays = LINKS * DAYS;
  rows.push({
    figure: `9. click history of ${label}: on disk (the stored JSON), 10,000 links x 90 days`,
    measured: `${(disk / 1024 ** 2).toFixed(2)} MB`,
    baseline: '8 MB',
    ratio: `${(disk / linkDays).toFixed(2)} B/link-day`,
    goal: goal ? '< 8 MB' : '(reported)',
    met: goal ? disk < 8 * 1024 ** 2 : null,
  });
  rows.push({
    figure: `9. same, in memory (heap growth)`,
    measured: `${(heap / 1024 ** 2).toFixed(2)} MB`,
    baseline: '-',
    ratio: `${(heap / linkDays).toFixed(2)} B/link-day`,
    goal: '(reported)',
    met: null,
  });
  return history;
}

function queryRows(rows: Row[], history: ClickHistory): void {
  const week = { start: END - 7 * DAY, end: END, timeZone: 'America/New_York' };
  const oneLink: number[] = [];
  for (let round = 0; round < 2000; round += 1) {
    const started = performance.now();
    history.series({ linkId: 1 + (round % LINKS), granularity: round % 2 === 0 ? 'hour' : 'day', ...week });
    oneLink.push(performance.now() - started);
  }
  const top: number[] = [];
  for (let round = 0; round < 40; round += 1) {
    const started = performance.now();
    history.top({ ...week, limit: 10 });
    top.push(performance.now() - started);
  }
  const [linkP50, topP50] = [percentile(oneLink, 50), percentile(top, 50)];
  rows.push({
    figure: '9. series of one link over a week (168 hours or 7 days, New York), p50',
    measured: ms(linkP50),
    baseline: '1 ms',
    ratio: (linkP50 / 1).toFixed(3),
    goal: '< 1 ms',
    met: linkP50 < 1,
  });
  rows.push({
    figure: '9. the account top 10 over a week, 10,000 links, p50',
    measured: ms(topP50),
    baseline: '50 ms',
    ratio: (topP50 / 50).toFixed(3),
    goal: '< 50 ms',
    met: topP50 < 50,
  });
}

export function measureClickHistory(): Row[] {
  const rows: Row[] = [];
  // Every link gains clicks at every sample: the most a link can cost.
  const busy = sizeRows(rows, 'links clicked at every sample', (link, step) => 1 + ((link * 7 + step * 13) % 5), true);
  queryRows(rows, busy);
  // A typical account: a tenth of the links gain clicks every hour, a third on one day in five, the rest never.
  sizeRows(
    rows,
    'an account of mostly quiet links',
    (link, step) => (link % 10 === 0 ? 1 + (step % 3) : link % 3 === 0 && Math.floor(step / 24) % 5 === link % 5 ? 1 : 0),
    false,
  );
  return rows;
}
