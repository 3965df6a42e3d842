import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { performance } from 'node:perf_hooks';
import type { Sandbox } from '@linkshort/sandbox';

export interface PollerOptions {
  /** The workflow's time zone (n8n's default when absent). */
  timeZone?: string;
  /** Runs after each poll (the tests' host clock moves on a minute). */
  afterPoll?: () => void;
}

/**
 * LinkShort Trigger polled as n8n polls it: each poll through n8n-core's PollContext, its static
 * data through JSON between polls (as n8n saves it). It keeps what each poll emitted and the API
 * requests it sent (the sandbox's log grew by). No jest here, so that the bench polls with it too;
 * n8n's engine is loaded at the first poll (it installs async hooks that slow every await in the
 * process). `sandbox` is read at each poll (a test may start another).
 */
export class PolledTrigger {
  staticData: IDataObject = {};
  emitted: IDataObject[] = [];
  requestsPerPoll: number[] = [];
  /** How long each poll took: the static data through JSON into the poll, and the poll (not the JSON out). */
  pollMs: number[] = [];

  constructor(
    private readonly sandbox: () => Sandbox,
    private readonly parameters: INodeParameters,
    private readonly options: PollerOptions = {},
  ) {}

  /** One poll; returns the JSON of the items it emitted. */
  async poll(pollBudgetMs?: number): Promise<IDataObject[]> {
    const { poll } = await import('./harness');
    const sandbox = this.sandbox();
    const credentials = { baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey };
    const before = sandbox.requests.length;
    const began = performance.now();
    const { result, staticData } = await poll(
      credentials,
      this.parameters,
      JSON.parse(JSON.stringify(this.staticData)) as IDataObject,
      'trigger',
      pollBudgetMs,
      this.options.timeZone,
    );
    this.pollMs.push(performance.now() - began);
    this.staticData = JSON.parse(JSON.stringify(staticData ?? {})) as IDataObject;
    const items = (result?.[0] ?? []).map((item) => item.json);
    this.emitted.push(...items);
    this.requestsPerPoll.push(sandbox.requests.length - before);
    this.options.afterPoll?.();
    return items;
  }

  /** The requests the last poll sent. */
  get lastRequests(): number {
    return this.requestsPerPoll.at(-1) ?? 0;
  }

  /** A New Item event's read under way (see PendingRead), or null. */
  get reading() {
    return (this.staticData.state as { reading?: unknown } | undefined)?.reading ?? null;
  }

  get baselineRead(): boolean {
    return (this.staticData.state as { baselineRead?: boolean } | undefined)?.baselineRead === true;
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
      if (this.baselineRead) return polls;
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
