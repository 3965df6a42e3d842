import { LinkShortClient, LinkShortError, RateLimiter, RateLimitError } from '@linkshort/client';
import { startSandbox, type Sandbox } from '@linkshort/sandbox';

/**
 * Several processes on one API key share its limit with no memory in common: each paces only from
 * what the server says. Each client here has its own RateLimiter, as a separate process (an n8n
 * worker) would. The API's 30 per 60 s, with the client's 120 s wait cap, is scaled down 60 times:
 * 30 per 1 s windows and a 2 s cap, so a call may lose at most about two windows to the others.
 */
const LIMIT = 30;
const WINDOW_MS = 1_000;
const SCALED_MAX_WAIT_MS = 2_000;
const CREATE_LATENCY_MS = Number(process.env.CREATE_LATENCY_MS ?? 40);

jest.setTimeout(60_000);

interface Outcome {
  created: number;
  limitErrors: number;
  otherErrors: string[];
  ms: number;
  minimumMs: number;
}

/** Runs `executions` (each a list of creates sent one after another, as n8n runs items) on separate clients. */
async function run(sandbox: Sandbox, executions: Array<{ client: LinkShortClient; urls: string[]; concurrent: boolean }>): Promise<Outcome> {
  const started = Date.now();
  const total = executions.reduce((sum, e) => sum + e.urls.length, 0);
  // Windows are aligned to multiples of their length: the last create can at best go at the start of the last window needed.
  const minimumMs = (Math.floor(started / WINDOW_MS) + Math.ceil(total / LIMIT) - 1) * WINDOW_MS - started;
  const outcome: Outcome = { created: 0, limitErrors: 0, otherErrors: [], ms: 0, minimumMs: Math.max(0, minimumMs) };
  const createOne = async (client: LinkShortClient, url: string) => {
    try {
      await client.links.create({ url });
      outcome.created += 1;
    } catch (error) {
      if (error instanceof RateLimitError) outcome.limitErrors += 1;
      else outcome.otherErrors.push(error instanceof LinkShortError ? `${error.name}: ${error.message}` : String(error));
    }
  };
  await Promise.all(
    executions.map(async ({ client, urls, concurrent }) => {
      if (concurrent) await Promise.all(urls.map((url) => createOne(client, url)));
      else for (const url of urls) await createOne(client, url);
    }),
  );
  outcome.ms = Date.now() - started;
  return outcome;
}

describe('one key, several processes (separate limiters), against the sandbox limit of 30 per 1 s window', () => {
  let sandbox: Sandbox;
  beforeEach(async () => {
    sandbox = await startSandbox({ seed: 'minimal', rateLimit: { limit: LIMIT, windowMs: WINDOW_MS } });
    // Each create takes a while, as one item of an n8n execution does: a window's 30 are used up over
    // a good part of a scaled window, not in a few milliseconds, so that waking late loses it.
    sandbox.onApiRequest = ({ method }) => (method === 'POST' ? new Promise((resolve) => setTimeout(resolve, CREATE_LATENCY_MS)) : undefined);
  });
  afterEach(() => sandbox.close());

  const processClient = (maxWaitMs: number) =>
    new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter(), maxWaitMs } });

  function linksPerUrl(prefix: string): Map<string, number> {
    const counts = new Map<string, number>();
    for (const link of sandbox.store.state.links) if (link.url.startsWith(prefix)) counts.set(link.url, (counts.get(link.url) ?? 0) + 1);
    return counts;
  }

  it.each([2, 3])(
    'queue mode scaled: %i workers x 2 executions x 30 creates in sequence, 2 s wait cap: no limit error, no duplicate, none lost',
    async (workers) => {
      const prefix = `https://example.com/queue-${workers}/`;
      const executions = Array.from({ length: workers }, (_, w) => {
        const client = processClient(SCALED_MAX_WAIT_MS);
        return [0, 1].map((e) => ({ client, concurrent: false, urls: Array.from({ length: 30 }, (_, i) => `${prefix}w${w}e${e}i${i}`) }));
      }).flat();
      const outcome = await run(sandbox, executions);
      expect(outcome.otherErrors).toEqual([]);
      expect(outcome.limitErrors).toBe(0);
      expect(outcome.created).toBe(workers * 60);
      const counts = linksPerUrl(prefix);
      expect(counts.size).toBe(workers * 60);
      expect([...counts.values()].every((n) => n === 1)).toBe(true);
      // A guard against lost windows, not a benchmark (bench measures the 1.15x goal).
      expect(outcome.ms).toBeLessThanOrEqual(outcome.minimumMs + 2 * WINDOW_MS);
    },
  );

  it('4 processes x 25 creates in one burst each (the bench shape): no limit error, no duplicate', async () => {
    const prefix = 'https://example.com/burst/';
    const executions = Array.from({ length: 4 }, (_, p) => ({
      client: processClient(20 * WINDOW_MS),
      concurrent: true,
      urls: Array.from({ length: 25 }, (_, i) => `${prefix}p${p}i${i}`),
    }));
    const outcome = await run(sandbox, executions);
    expect(outcome.otherErrors).toEqual([]);
    expect(outcome.limitErrors).toBe(0);
    expect(outcome.created).toBe(100);
    const counts = linksPerUrl(prefix);
    expect(counts.size).toBe(100);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(outcome.ms).toBeLessThanOrEqual(outcome.minimumMs + 2 * WINDOW_MS);
  });
});
