/**
 * New Link after the server's clock stepped back (a time zone setting changed, an NTP correction, a
 * restored VM) by 5 hours and by 3 days, then 250 new links made 5 a second on the stepped clock,
 * on an account of 10,000 links (one a second up to now) on a server capping pages at 100: requests
 * and polls until every new link is emitted, the most requests of a poll, duplicates and misses,
 * each poll through n8n-core's PollContext with its static data through JSON between polls.
 * `npm run bench -- step-back` runs it alone.
 */
import { startSandbox } from '@linkshort/sandbox';
import { addLinks } from '../../packages/client/test/fill-links';
import type { Row } from './row';
import { newLinkPoller } from './triggers';

const HOUR = 3_600_000;
const ACCOUNT = 10_000;
const NEW_LINKS = 250;
const PAGES_PER_POLL = 12;

interface StepBackOutcome {
  requests: number;
  polls: number;
  /** Polls and requests until the read ended (polls quiet again). */
  readPolls: number;
  readRequests: number;
  maxRequests: number;
  quietRequests: number;
  duplicates: number;
  missed: number;
}

async function runStepBack(stepMs: number): Promise<StepBackOutcome> {
  let offset = 0;
  const sandbox = await startSandbox({ seed: 'minimal', rateLimit: { limit: 1_000_000, windowMs: 60_000 }, maxPageSize: 100, now: () => Date.now() + offset });
  try {
    addLinks(sandbox, ACCOUNT, { from: Date.now() - ACCOUNT * 1_000, perSecond: 1, name: 'fill' });
    const { emitted, pollOnce, reading } = newLinkPoller(sandbox);
    do await pollOnce();
    while (reading() !== null);
    await pollOnce();
    offset = -stepMs;
    const made = addLinks(sandbox, NEW_LINKS, { from: Date.now() + offset, perSecond: 5, name: 'stepped' });
    const perPoll: number[] = [];
    const left = () => made.some((id) => !emitted.includes(id));
    while (left() && perPoll.length < 100) perPoll.push(await pollOnce());
    const polls = perPoll.length;
    // The read then goes on up to the top (old links only) before polls are quiet again.
    while (reading() !== null && perPoll.length < 100) perPoll.push(await pollOnce());
    const readPolls = perPoll.length;
    const quietRequests = await pollOnce();
    const counts = new Map<number, number>();
    for (const id of emitted) counts.set(id, (counts.get(id) ?? 0) + 1);
    return {
      requests: perPoll.slice(0, polls).reduce((sum, sent) => sum + sent, 0),
      polls,
      readPolls,
      readRequests: perPoll.reduce((sum, sent) => sum + sent, 0),
      maxRequests: Math.max(...perPoll),
      quietRequests,
      duplicates: [...counts.values()].reduce((sum, count) => sum + count - 1, 0) + emitted.filter((id) => !made.includes(id)).length,
      missed: made.filter((id) => !counts.has(id)).length,
    };
  } finally {
    await sandbox.close();
  }
}

export async function measureStepBack(): Promise<Row[]> {
  const rows: Row[] = [];
  // The whole account at 100 a page, read down and then climbed back up a poll's worth at a time, after an hour's read that found nothing.
  const pages = Math.ceil((ACCOUNT + NEW_LINKS + 10) / 100);
  const bound = 3 * Math.ceil(pages / (PAGES_PER_POLL - 1)) + 2;
  for (const [name, step] of [
    ['5 hours', 5 * HOUR],
    ['3 days', 72 * HOUR],
  ] as const) {
    const outcome = await runStepBack(step);
    rows.push({
      figure: `19. New Link after a step back of ${name}, then ${NEW_LINKS} new links, ${ACCOUNT.toLocaleString('en')} links, server capping pages at 100: requests and polls until every new link is emitted`,
      measured: `${outcome.requests} requests over ${outcome.polls} polls (most ${outcome.maxRequests} a poll); the read ends after ${outcome.readPolls} polls, ${outcome.readRequests} requests, then a quiet poll sends ${outcome.quietRequests}; ${outcome.duplicates} duplicated, ${outcome.missed} missed`,
      baseline: 'main (issue 51, 5 hours): 99 of 250 emitted, 151 never',
      ratio: '-',
      goal: `<= ${PAGES_PER_POLL} requests a poll, the read over in <= ${bound} polls, then 1 request a quiet poll, 0 duplicated, 0 missed`,
      met:
        outcome.maxRequests <= PAGES_PER_POLL && outcome.readPolls <= bound && outcome.quietRequests === 1 && outcome.duplicates === 0 && outcome.missed === 0,
    });
  }
  return rows;
}
