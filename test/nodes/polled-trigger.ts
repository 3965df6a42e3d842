import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { performance } from 'node:perf_hooks';
import { LinkShortClient } from '@linkshort/client';
import { startSandbox, type OversizedPages, type Sandbox } from '@linkshort/sandbox';
import { poll, type Credentials } from './harness';

/**
 * A sandbox and n8n on one host clock that each poll moves a minute on, and the trigger polled
 * through n8n-core's PollContext with its static data through JSON between polls (as n8n saves
 * it). Importing this registers the hooks that set the clock and close the sandbox; `sandbox`,
 * `client` and `credentials` are the ones the newest `start` made.
 */

const realNow = () => performance.timeOrigin + performance.now();
let hostOffset = 0;
export let sandbox: Sandbox;
export let client: LinkShortClient;
export let credentials: Credentials;

export async function start(options: { maxPageSize?: number; oversizedPages?: OversizedPages; rateLimit?: { limit: number; windowMs: number } } = {}) {
  sandbox = await startSandbox({
    seed: 'minimal',
    rateLimit: options.rateLimit ?? { limit: 1_000_000, windowMs: 60_000 },
    now: () => realNow() + hostOffset,
    ...(options.maxPageSize ? { maxPageSize: options.maxPageSize } : {}),
    ...(options.oversizedPages ? { oversizedPages: options.oversizedPages } : {}),
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

/** A trigger polled a minute apart. */
export class Trigger {
  staticData: IDataObject = {};
  emitted: IDataObject[] = [];
  requestsPerPoll: number[] = [];
  constructor(private readonly parameters: INodeParameters) {}

  async poll(pollBudgetMs?: number) {
    const before = sandbox.requests.length;
    const { result, staticData } = await poll(credentials, this.parameters, JSON.parse(JSON.stringify(this.staticData)) as IDataObject, 'trigger', pollBudgetMs);
    this.staticData = JSON.parse(JSON.stringify(staticData ?? {})) as IDataObject;
    const items = (result?.[0] ?? []).map((item) => item.json);
    this.emitted.push(...items);
    this.requestsPerPoll.push(sandbox.requests.length - before);
    hostOffset += 60_000;
    return items;
  }

  get reading() {
    return (this.staticData.state as { reading?: unknown } | undefined)?.reading ?? null;
  }

  /** Polls until no read is under way (the baseline, or what is new, read to its end); returns the polls it took. */
  async pollUntilRead(most = 40) {
    for (let polls = 1; polls <= most; polls += 1) {
      await this.poll();
      if (this.reading === null) return polls;
    }
    throw new Error(`a read still under way after ${most} polls`);
  }

  /** Polls until the baseline is read; returns the number of polls it took. */
  async readBaseline() {
    for (let polls = 1; polls <= 50; polls += 1) {
      await this.poll();
      if ((this.staticData.state as { baselineRead?: boolean } | undefined)?.baselineRead) return polls;
    }
    throw new Error('the baseline was never read');
  }

  /** Polls until `done(emitted so far)`; returns the number of polls it took. */
  async pollUntil(done: () => boolean, most = 50) {
    for (let polls = 1; polls <= most; polls += 1) {
      await this.poll();
      if (done()) return polls;
    }
    throw new Error(`not done within ${most} polls`);
  }
}
