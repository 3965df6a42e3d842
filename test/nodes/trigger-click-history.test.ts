import { emptyStats } from '@linkshort/sandbox';
import { fillLinks } from '../../packages/client/test/fill-links';
import { ClockedTrigger, createLinks, visit, type Polled } from './click-events';
import { poll } from './harness';
import { clock, credentials, sandbox, setClock, start, weekdayAfterNow } from './polled-trigger';

/**
 * The click events through n8n-core's PollContext on a controllable clock: a week of visits
 * replayed in seconds, polls every half hour with missed ones, a restart, a gap and a reset link.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** A Monday 00:00 UTC (01:00 in Berlin, in its winter time) after the real clock. */
const MONDAY = weekdayAfterNow(1, 0);

describe('LinkShort Trigger: Click Digest', () => {
  it("emits every day's digest exactly once and on time through a week of restarts, missed polls, a gap and a reset link; sums equal the sampled differences", async () => {
    await start();
    setClock(MONDAY);
    const [a, b, c] = await createLinks(3);
    const ids = [a!.id, b!.id, c!.id];
    const parameters = { event: 'clickDigest', digestPeriod: 'day', digestHour: 1 };
    let trigger = new ClockedTrigger(parameters);
    const missed = (at: number) =>
      (at > MONDAY + 2 * DAY + 22 * HOUR + 10 * MINUTE && at < MONDAY + 3 * DAY + HOUR) ||
      (at > MONDAY + 4 * DAY + 2 * HOUR + 10 * MINUTE && at < MONDAY + 4 * DAY + 7 * HOUR + 30 * MINUTE);
    const polls: Polled[] = [];
    for (let at = MONDAY + 5 * MINUTE; at < MONDAY + 8 * DAY + HOUR; at += 30 * MINUTE) {
      const day = Math.floor((at - MONDAY) / DAY);
      const clockOfDay = (at - MONDAY) % DAY;
      // Visits land between polls: a day's visits at 08:10, 09:10, 12:10 and 14:10 UTC.
      if (clockOfDay === 8 * HOUR + 5 * MINUTE) await visit(a!.shorturl, day + 1, at + 5 * MINUTE);
      if (clockOfDay === 9 * HOUR + 5 * MINUTE) await visit(c!.shorturl, 3, at + 5 * MINUTE);
      if (clockOfDay === 12 * HOUR + 5 * MINUTE) await visit(b!.shorturl, 1, at + 5 * MINUTE);
      if (clockOfDay === 14 * HOUR + 5 * MINUTE) await visit(a!.shorturl, 2, at + 5 * MINUTE);
      // Wednesday 23:30 UTC, while polls are missed (Thursday 00:30 in Berlin).
      if (day === 2 && clockOfDay === 23 * HOUR + 5 * MINUTE) await visit(a!.shorturl, 4, at + 25 * MINUTE);
      // Friday 04:00 UTC, in a gap of five hours with nothing running.
      if (day === 4 && clockOfDay === 3 * HOUR + 35 * MINUTE) await visit(b!.shorturl, 4, at + 25 * MINUTE);
      // Thursday 10:20 UTC: link C's count goes back to zero.
      if (day === 3 && clockOfDay === 10 * HOUR + 5 * MINUTE) sandbox.store.state.links.find((link) => link.id === c!.id)!.stats = emptyStats();
      // Saturday noon: n8n restarts (a new trigger from the saved static data).
      if (day === 5 && clockOfDay === 12 * HOUR + 5 * MINUTE) trigger = Object.assign(new ClockedTrigger(parameters), { staticData: trigger.staticData });
      if (missed(at)) continue;
      polls.push(await trigger.pollAt(at, ids));
    }

    expect(Math.max(...polls.map((polled) => polled.requests))).toBeLessThanOrEqual(12);
    const summaries = polls
      .flatMap((polled) => polled.items.map((item, index) => ({ item, polled, binary: polled.binaries[index] })))
      .filter(({ item }) => item.kind === 'summary');
    // Berlin's days from that Monday to the next, each once, in order.
    const dayStarts = Array.from({ length: 8 }, (_, day) => MONDAY - HOUR + day * DAY);
    expect(summaries.map(({ item }) => Date.parse(item.periodStart as string))).toEqual(dayStarts);
    for (const { item, polled, binary } of summaries) {
      const due = Date.parse(item.periodEnd as string) + HOUR;
      // On time: at the first poll that ran at or after the hour it was due.
      expect(polled.at).toBe(polls.find((other) => other.at >= due)!.at);
      expect(binary?.chart?.mimeType).toBe('image/png');
      expect(item.summary).toMatch(/from about .* to about /);
    }
    // Wednesday's digest waited for the missed polls (late, not lost).
    expect(summaries[2]!.polled.at).toBe(MONDAY + 3 * DAY + HOUR + 5 * MINUTE);

    // Each exactly measured count is the difference of the totals sampled at its ends (at a boundary
    // where the total did not change across it, the sample before it).
    const totalAt = (id: number, at: number) =>
      polls
        .filter((polled) => polled.at <= at + MINUTE)
        .at(-1)!
        .totals.get(id)!;
    const linkItems = polls.flatMap((polled) => polled.items).filter((item) => item.kind === 'link');
    for (const item of linkItems.filter((entry) => entry.quality === 'exact' && !entry.reset)) {
      expect(item.clicks).toBe(
        totalAt(item.id as number, Date.parse(item.sampledTo as string)) - totalAt(item.id as number, Date.parse(item.sampledFrom as string)),
      );
    }
    // Over the week the digests of a link add up to the difference of its first and last sampled totals.
    for (const link of [a!, b!]) {
      const own = linkItems.filter((item) => item.id === link.id);
      const sum = own.reduce((total, item) => total + (item.clicks as number), 0);
      const from = Math.min(...own.map((item) => Date.parse(item.sampledFrom as string)));
      const to = Math.max(...own.map((item) => Date.parse(item.sampledTo as string)));
      expect(sum).toBe(totalAt(link.id, to) - totalAt(link.id, from));
    }
    // Link A each day: (day + 1) + 2 clicks; the four of Wednesday night, across three hours of
    // missed polls over Berlin's midnight, are shared out between Wednesday and Thursday (spread).
    const aDays = linkItems.filter((item) => item.id === a!.id);
    expect(aDays.map((item) => item.clicks)).toEqual([3, 4, expect.any(Number), expect.any(Number), 7, 8, 9, 10]);
    expect((aDays[2]!.clicks as number) + (aDays[3]!.clicks as number)).toBe(5 + 6 + 4);
    expect([aDays[2]!.quality, aDays[3]!.quality]).toEqual(['spread', 'spread']);
    // The gap's clicks count for Friday, in no hour.
    expect(linkItems.filter((item) => item.id === b!.id).map((item) => item.clicks)).toEqual([1, 1, 1, 1, 5, 1, 1, 1]);
    // The reset day never subtracts and says so: Thursday's three clicks came before the reset.
    expect(linkItems.filter((item) => item.id === c!.id).map((item) => [item.clicks, item.reset])).toEqual([
      [3, false],
      [3, false],
      [3, false],
      [3, true],
      [3, false],
      [3, false],
      [3, false],
      [3, false],
    ]);
    expect(linkItems.find((item) => item.id === a!.id && item.previousClicks === 3)).toMatchObject({ clicks: 4, changePercent: 33.3, shorturl: a!.shorturl });
  });
});

describe('LinkShort Trigger: Click Digest on an account read over several polls', () => {
  it("waits for a pass begun after the period ended, within 12 requests a poll, and emits the day once with every link's clicks", async () => {
    await start({ maxPageSize: 10 });
    setClock(MONDAY);
    fillLinks(sandbox, 150);
    const ids = sandbox.store.state.links.filter((link) => link.userId === 2).map((link) => link.id);
    const [first, last] = [sandbox.store.state.links.find((link) => link.id === ids[0])!, sandbox.store.state.links.find((link) => link.id === ids.at(-1))!];
    const trigger = new ClockedTrigger({ event: 'clickDigest', digestPeriod: 'day', digestHour: 0 });
    const polls: Polled[] = [];
    for (let at = MONDAY + 22 * HOUR + 5 * MINUTE; at < MONDAY + DAY + 3 * HOUR; at += 10 * MINUTE) {
      // Clicks on the oldest and the newest link (the pass's two ends) before Berlin's midnight (23:00 UTC).
      if (at === MONDAY + 22 * HOUR + 35 * MINUTE) for (const link of [first, last]) link.stats = { ...emptyStats(), clicks: link.stats.clicks + 3 };
      polls.push(await trigger.pollAt(at, [first.id, last.id]));
    }
    expect(Math.max(...polls.map((polled) => polled.requests))).toBeLessThanOrEqual(12);
    const emittedAt = polls.filter((polled) => polled.items.some((item) => item.kind === 'summary'));
    expect(emittedAt).toHaveLength(1);
    const [digest] = emittedAt;
    // Not at the first poll past midnight: a pass over 16 pages takes two polls, and one begun after midnight must end first.
    expect(digest!.at).toBeGreaterThan(MONDAY + 23 * HOUR + 5 * MINUTE);
    expect(digest!.at).toBeLessThanOrEqual(MONDAY + 23 * HOUR + 35 * MINUTE);
    const linkItems = digest!.items.filter((item) => item.kind === 'link');
    expect(linkItems.map((item) => [item.id, item.clicks]).sort()).toEqual(
      [
        [first.id, 3],
        [last.id, 3],
      ].sort(),
    );
  });
});

describe('LinkShort Trigger: Link Reached Click Rate', () => {
  it('fires once per episode, again only after falling back, and says so; watched links react on the next poll with one request each', async () => {
    await start();
    setClock(MONDAY);
    const [a, b] = await createLinks(2);
    const all = new ClockedTrigger({ event: 'linkClickRate', rateClicks: 10, rateMinutes: 15 });
    const watchedA = new ClockedTrigger({ event: 'linkClickRate', rateClicks: 10, rateMinutes: 15, linkIds: [a!.id] });
    const fired: Array<{ trigger: string; at: number; id: number; again: boolean }> = [];
    const burstsAt = new Set([30, 120]);
    for (let minute = 5; minute <= 200; minute += 5) {
      const at = MONDAY + minute * MINUTE;
      if (burstsAt.has(minute) || burstsAt.has(minute - 5)) await visit(a!.shorturl, 6, at - 2 * MINUTE);
      if (minute % 10 === 0) await visit(b!.shorturl, 2, at - 2 * MINUTE);
      for (const [name, trigger] of [
        ['all', all],
        ['watched', watchedA],
      ] as const) {
        const polled = await trigger.pollAt(at, []);
        expect(polled.requests).toBeLessThanOrEqual(name === 'watched' ? 1 : 12);
        for (const item of polled.items) fired.push({ trigger: name, at: minute, id: item.id as number, again: item.reachedAgain as boolean });
      }
    }
    // Twelve clicks within 15 minutes at minutes 30-35 and 120-125: the rate is reached at the poll after the second half of each burst.
    expect(fired).toEqual([
      { trigger: 'all', at: 35, id: a!.id, again: false },
      { trigger: 'watched', at: 35, id: a!.id, again: false },
      { trigger: 'all', at: 125, id: a!.id, again: true },
      { trigger: 'watched', at: 125, id: a!.id, again: true },
    ]);
  });

  it("with a factor, fires on a rise over the link's own rate, not on a steady high rate", async () => {
    await start();
    setClock(MONDAY);
    const [steady, quiet] = await createLinks(2);
    const trigger = new ClockedTrigger({ event: 'linkClickRate', rateClicks: 3, rateMinutes: 15, rateFactor: 4 });
    const fired: number[] = [];
    for (let minute = 5; minute <= 180; minute += 5) {
      const at = MONDAY + minute * MINUTE;
      await visit(steady!.shorturl, 2, at - 2 * MINUTE);
      if (minute % 30 === 0) await visit(quiet!.shorturl, 1, at - 2 * MINUTE);
      if (minute === 170) await visit(quiet!.shorturl, 8, at - 2 * MINUTE);
      fired.push(...(await trigger.pollAt(at, [])).items.map((item) => item.id as number));
    }
    expect(fired).toEqual([quiet!.id]);
  });
});

describe("LinkShort Trigger: click events' settings", () => {
  it.each([
    [{ event: 'clickDigest', digestPeriod: 'year' }, 'UTC', /^Period: must be day, week or month/],
    [{ event: 'clickDigest', digestHour: 24 }, 'UTC', /^Hour: must be an hour from 0 to 23/],
    [{ event: 'clickDigest' }, 'Mars/Olympus', /^Timezone \(the workflow's settings\): must be an IANA time zone/],
    [{ event: 'linkClickRate', rateClicks: 0 }, 'UTC', /^Clicks: /],
    [{ event: 'linkClickRate', rateMinutes: 1.5 }, 'UTC', /^Minutes: /],
    [{ event: 'linkClickRate', rateFactor: 0.5 }, 'UTC', /^Times Its Usual Rate: must be a number of at least 1 \(1: the clicks alone count\)$/],
    [{ event: 'linkClickRate', rateFactor: 0 }, 'UTC', /^Times Its Usual Rate: must be a number of at least 1 /],
  ])('%j in %s: a field-named error before any request', async (parameters, zone, message) => {
    await start();
    const before = sandbox.requests.length;
    const error = (await poll(credentials, parameters, {}, 'trigger', undefined, zone).catch((caught: unknown) => caught)) as Error;
    expect(error.message).toMatch(message);
    expect(sandbox.requests.length).toBe(before);
    expect(clock()).toBeGreaterThan(0);
  });
});
