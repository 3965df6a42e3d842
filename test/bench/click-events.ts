/**
 * LinkShort Trigger's Click Digest and Link Reached Click Rate at 10,000 links, each poll through
 * n8n-core's PollContext on a simulated clock (polls every 30 minutes for two days, a tenth of the
 * links clicked every hour): requests a poll, the digests' lateness in polls, and the static data
 * n8n keeps; the rate event on watched links (one request each a poll).
 */
import type { INodeParameters } from 'n8n-workflow';
import { startSandbox, type Sandbox } from '@linkshort/sandbox';
import { fillLinks } from '../../packages/client/test/fill-links';
import { PolledTrigger } from '../nodes/trigger-poller';
import { percentile, type Row } from './row';

const LINKS = 10_000;
const HALF_HOUR = 30 * 60_000;
const START = Date.UTC(2026, 10, 30, 0, 5);

interface Run {
  maxRequests: number;
  /** Per digest: the polls between its due time and its emission (0: the first poll at or after it). */
  lateness: number[];
  digests: number;
  staticBytes: number;
  alerts: number;
  /** Wall time of a poll (n8n-core, the sandbox serving its pages, the history read and written), p50. */
  pollMs: number;
}

function clickSome(sandbox: Sandbox, hour: number): void {
  const links = sandbox.store.state.links.filter((link) => link.userId === 2);
  for (let i = 0; i < links.length / 10; i += 1) {
    const link = links[(i * 7 + hour * 131) % links.length]!;
    sandbox.store.changingLink(link);
    link.stats.clicks += 1 + (i % 5);
  }
}

async function run(parameters: INodeParameters, hours: number, watch?: number): Promise<Run> {
  const realNow = Date.now;
  let simulated = START;
  Date.now = () => simulated;
  const sandbox = await startSandbox({ seed: 'minimal', rateLimit: { limit: 1_000_000, windowMs: 60_000 }, now: () => simulated });
  try {
    fillLinks(sandbox, LINKS, (i) => i % 3);
    const ids = sandbox.store.state.links.filter((link) => link.userId === 2).map((link) => link.id);
    const withLinks = watch ? { ...parameters, linkIds: ids.slice(0, watch).join(',') } : parameters;
    const trigger = new PolledTrigger(() => sandbox, withLinks, { timeZone: 'UTC' });
    const outcome: Run = { maxRequests: 0, lateness: [], digests: 0, staticBytes: 0, alerts: 0, pollMs: 0 };
    const pollTimes: number[] = [];
    for (let at = START; at < START + hours * 3_600_000; at += HALF_HOUR) {
      simulated = at;
      if ((at - START) % 3_600_000 === 0) clickSome(sandbox, (at - START) / 3_600_000);
      const items = await trigger.poll();
      pollTimes.push(at);
      outcome.maxRequests = Math.max(outcome.maxRequests, trigger.lastRequests);
      for (const json of items) {
        if (json.kind === 'summary') {
          const due = Date.parse(json.periodEnd as string) + (parameters.digestHour as number) * 3_600_000;
          outcome.lateness.push(pollTimes.filter((time) => time >= due).length - 1);
          outcome.digests += 1;
        } else if (json.clicksInWindow !== undefined) outcome.alerts += 1;
      }
    }
    outcome.staticBytes = JSON.stringify(trigger.staticData).length;
    outcome.pollMs = percentile(trigger.pollMs, 50);
    return outcome;
  } finally {
    Date.now = realNow;
    await sandbox.close();
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

export async function measureClickEvents(): Promise<Row[]> {
  const digest = await run({ event: 'clickDigest', digestPeriod: 'day', digestHour: 0 }, 49);
  const rate = await run({ event: 'linkClickRate', rateClicks: 3, rateMinutes: 60 }, 12);
  const watched = await run({ event: 'linkClickRate', rateClicks: 3, rateMinutes: 60 }, 6, 12);
  return [
    {
      figure:
        '8. Click Digest (daily at 00:00 UTC), 10,000 links, a tenth clicked each hour, a poll every 30 min for 2 days: requests a poll (most); lateness of each digest in polls; static data',
      measured: `${digest.maxRequests} requests; ${digest.digests} digests, lateness ${digest.lateness.join(', ')} polls; ${kb(digest.staticBytes)} of static data; a poll ${digest.pollMs.toFixed(0)} ms (p50)`,
      baseline: '-',
      ratio: '-',
      goal: '<= 12 requests, 2 digests, each at the first poll at or after its hour (0)',
      met: digest.maxRequests <= 12 && digest.digests === 2 && digest.lateness.every((late) => late === 0),
    },
    {
      figure: '8. Link Reached Click Rate (3 clicks in 60 min), 10,000 links, all links and 12 watched: requests a poll (most); static data',
      measured: `all links ${rate.maxRequests} requests (${rate.alerts} alerts, ${kb(rate.staticBytes)}, a poll ${rate.pollMs.toFixed(0)} ms p50); 12 watched ${watched.maxRequests} requests (${kb(watched.staticBytes)})`,
      baseline: '-',
      ratio: '-',
      goal: '<= 12 requests; watched links <= 1 each',
      met: rate.maxRequests <= 12 && watched.maxRequests <= 12,
    },
  ];
}
