/**
 * The click events' stored times (issue 51, items 7 and 8): a state whose times the event cannot
 * use, hand-edited or stamped by a host clock that ran ahead, gives way to a new baseline with a
 * log line instead of failing every poll or keeping the event silent until real time catches up.
 */
import type { IDataObject } from 'n8n-workflow';
import { ClockedTrigger, createLinks, visit, type Polled } from './click-events';
import { clearLog, warnings } from './n8n-log';
import { clock, setClock, start } from './polled-trigger';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** A day start in UTC a week before the real clock: the test's own "now" runs from there. */
const dayStart = () => Math.floor(clock() / DAY) * DAY - 7 * DAY;
const JUMP = 30 * DAY;

beforeEach(() => clearLog());

const summaries = (polls: Polled[]) =>
  polls.flatMap((polled) => polled.items.filter((item) => item.kind === 'summary').map((item) => ({ at: polled.at, item })));
const stateOf = (trigger: ClockedTrigger) => trigger.staticData.state as IDataObject;

describe('Click Digest: a stored end of the last digest it cannot use', () => {
  it.each([
    ['negative', -1],
    ['fractional', 1.5],
    ['past what a date holds', 1e300],
    ['a year ahead of now', 'ahead'],
  ])("(%s) gives way to a new baseline with a log line, and the next period's digest comes on time", async (_what, value) => {
    await start();
    const day = dayStart();
    setClock(day + HOUR / 2);
    const [link] = await createLinks(1);
    const trigger = new ClockedTrigger({ event: 'clickDigest', digestPeriod: 'day', digestHour: 0 }, 'UTC');
    await trigger.pollAt(day + 10 * HOUR, []);
    await trigger.pollAt(day + 10 * HOUR + 30 * MINUTE, []);
    stateOf(trigger).digestedUntil = value === 'ahead' ? day + 365 * DAY : value;

    const repairedAt = await trigger.pollAt(day + 11 * HOUR, []);
    expect(repairedAt.items).toEqual([]);
    expect(warnings).toEqual([expect.stringMatching(/stored state .* so a new baseline is taken; repaired$/)]);
    expect(stateOf(trigger).digestedUntil).toBe(day);

    await visit(link!.shorturl, 2, day + 12 * HOUR);
    for (let at = day + 12 * HOUR + 30 * MINUTE; at <= day + DAY + 30 * MINUTE; at += 2 * HOUR) await trigger.pollAt(at, []);
    const sent = summaries(trigger.polls);
    expect(sent.map(({ item }) => [item.periodStart, item.clicks])).toEqual([[new Date(day).toISOString(), 2]]);
    expect(sent[0]!.at).toBe(day + DAY + 30 * MINUTE);
    expect(warnings).toHaveLength(1);
  });
});

describe('a host clock that ran ahead a month and came back', () => {
  it('Click Digest: the digest of the day the clock came back arrives when that day ends, not a month later', async () => {
    await start();
    const day = dayStart();
    setClock(day + HOUR / 2);
    const [link] = await createLinks(1);
    const trigger = new ClockedTrigger({ event: 'clickDigest', digestPeriod: 'day', digestHour: 1 }, 'UTC');
    for (let at = day + HOUR; at < day + 6 * HOUR; at += HOUR) await trigger.pollAt(at, []);
    // Two polls with the host clock a month ahead, then back.
    await trigger.pollAt(day + JUMP + 6 * HOUR, []);
    await trigger.pollAt(day + JUMP + 7 * HOUR, []);
    clearLog();
    const back = trigger.polls.length;
    for (let at = day + 8 * HOUR; at <= day + 3 * DAY; at += HOUR) {
      if (at === day + DAY + 12 * HOUR) await visit(link!.shorturl, 3, at - 10 * MINUTE);
      await trigger.pollAt(at, []);
    }
    expect(warnings).toEqual([expect.stringMatching(/ahead of this host's clock.*a clock ran ahead\), so a new baseline is taken; repaired$/)]);
    const sent = summaries(trigger.polls.slice(back));
    // The rest of the day it came back (a new baseline begins it), then the next day with its clicks, each at 01:00 after it.
    expect(sent.map(({ at, item }) => [new Date(at).toISOString(), item.periodStart, item.clicks])).toEqual([
      [new Date(day + DAY + HOUR).toISOString(), new Date(day).toISOString(), 0],
      [new Date(day + 2 * DAY + HOUR).toISOString(), new Date(day + DAY).toISOString(), 3],
    ]);
  });

  it('Link Reached Click Rate: a burst right after the clock came back fires at once', async () => {
    await start();
    const day = dayStart();
    setClock(day + HOUR / 2);
    const [link] = await createLinks(1);
    const trigger = new ClockedTrigger({ event: 'linkClickRate', rateClicks: 5, rateMinutes: 30 }, 'UTC');
    for (let at = day + HOUR; at < day + 2 * HOUR; at += 10 * MINUTE) await trigger.pollAt(at, []);
    await trigger.pollAt(day + JUMP + 2 * HOUR, []);
    clearLog();
    const fired: number[] = [];
    for (let at = day + 2 * HOUR + 10 * MINUTE; at <= day + 3 * HOUR; at += 10 * MINUTE) {
      if (at === day + 2 * HOUR + 40 * MINUTE) await visit(link!.shorturl, 6, at - 5 * MINUTE);
      if ((await trigger.pollAt(at, [])).items.length > 0) fired.push(at);
    }
    expect(fired).toEqual([day + 2 * HOUR + 40 * MINUTE]);
    expect(warnings).toEqual([expect.stringMatching(/a clock ran ahead\), so a new baseline is taken; repaired$/)]);
  });

  it('a clock set back by less than the slack (a minute) goes on from the state, with no new baseline', async () => {
    await start();
    const day = dayStart();
    setClock(day + HOUR / 2);
    const [link] = await createLinks(1);
    const trigger = new ClockedTrigger({ event: 'linkClickRate', rateClicks: 5, rateMinutes: 30 }, 'UTC');
    for (let at = day + HOUR; at <= day + 2 * HOUR; at += 10 * MINUTE) await trigger.pollAt(at, []);
    await visit(link!.shorturl, 6, day + 2 * HOUR + MINUTE / 2);
    clearLog();
    // The clock goes back a minute after a poll (a time server's correction), then on: the burst fires at the poll after.
    const polled = await trigger.pollAt(day + 2 * HOUR - MINUTE, []);
    const next = await trigger.pollAt(day + 2 * HOUR + 9 * MINUTE, []);
    expect([polled.items.map((item) => item.id), next.items.map((item) => item.id)]).toEqual([[], [link!.id]]);
    expect(warnings).toEqual([]);
  });
});
