import type { INodeParameters } from 'n8n-workflow';
import { performance } from 'node:perf_hooks';
import { LinkShortClient } from '@linkshort/client';
import { startSandbox, type OversizedPages, type Sandbox } from '@linkshort/sandbox';
import type { Credentials } from './harness';
import { PolledTrigger } from './trigger-poller';

/**
 * A sandbox and n8n on one host clock that each poll moves a minute on, and the trigger polled
 * through n8n-core's PollContext with its static data through JSON between polls (as n8n saves
 * it). Importing this registers the hooks that set the clock and close the sandbox; `sandbox`,
 * `client` and `credentials` are the ones the newest `start` made. The trigger itself, without
 * hooks, is `PolledTrigger` (trigger-poller.ts), which the bench polls with too.
 */

const realNow = () => performance.timeOrigin + performance.now();
let hostOffset = 0;
export let sandbox: Sandbox;
export let client: LinkShortClient;
export let credentials: Credentials;

export async function start(
  options: { maxPageSize?: number; oversizedPages?: OversizedPages; rateLimit?: { limit: number; windowMs: number }; requestLog?: { maxAgeMs: number } } = {},
) {
  sandbox = await startSandbox({
    seed: 'minimal',
    rateLimit: options.rateLimit ?? { limit: 1_000_000, windowMs: 60_000 },
    now: () => realNow() + hostOffset,
    ...(options.maxPageSize ? { maxPageSize: options.maxPageSize } : {}),
    ...(options.oversizedPages ? { oversizedPages: options.oversizedPages } : {}),
    ...(options.requestLog ? { requestLog: options.requestLog } : {}),
  });
  credentials = { baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey };
  client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: false });
}

/** The host's and the sandbox's clock now (epoch ms). */
export const clock = () => realNow() + hostOffset;
/** Sets the host's and the sandbox's clock to `at` (epoch ms); it runs on from there. */
export function setClock(at: number) {
  hostOffset = at - realNow();
}

const DAY = 86_400_000;
/**
 * The first `weekday` (0 Sunday to 6 Saturday) at `hourUtc` after the real clock, in a week of
 * Europe's winter time (November to February): a fixed "now" derived from the clock, never a
 * calendar date, so that it stays after the sandbox's demo data whatever day the tests run.
 */
export function weekdayAfterNow(weekday: number, hourUtc: number): number {
  let at = Math.ceil(realNow() / DAY) * DAY + hourUtc * 3_600_000;
  while (new Date(at).getUTCDay() !== weekday || ![10, 11, 0, 1].includes(new Date(at).getUTCMonth())) at += DAY;
  return at;
}

beforeEach(() => {
  hostOffset = 0;
  jest.spyOn(Date, 'now').mockImplementation(() => realNow() + hostOffset);
});
afterEach(async () => {
  jest.restoreAllMocks();
  await sandbox?.close();
});

/** A trigger polled a minute apart on the host clock, on the sandbox the newest `start` made. */
export class Trigger extends PolledTrigger {
  constructor(parameters: INodeParameters) {
    super(() => sandbox, parameters, { afterPoll: () => void (hostOffset += 60_000) });
  }
}
