import {
  ApiError,
  ConnectionError,
  LinkShortClient,
  LinkShortError,
  RateLimitError,
  ResponseError,
  TimeoutError,
  undiciTransport,
  type Transport,
} from '@linkshort/client';
import { FAULT_KINDS, startSandbox, type FaultKind, type Sandbox } from '@linkshort/sandbox';

/**
 * A bounded soak: 4 workers run random operations against the sandbox while 10% of API requests
 * meet an injected fault of every kind (before or after the server acted). At the end the
 * sandbox's state is compared with what the client reported.
 */
const OPERATIONS = Number(process.env.SOAK_OPERATIONS ?? 5000);
const WORKERS = 4;
const TIME_LIMIT_MS = Number(process.env.SOAK_SECONDS ?? 90) * 1000;
const TIMEOUT_MS = 250;

/** The client error each fault kind must surface as, when the last attempt met it. */
const EXPECTED_CLASS: Record<FaultKind, { name: string }> = {
  '5xx': ResponseError,
  drop: ConnectionError,
  delay: TimeoutError,
  html: ResponseError,
  empty: ResponseError,
  malformed: ResponseError,
  '429': RateLimitError,
};

jest.setTimeout(TIME_LIMIT_MS + 60_000);

describe('fault soak', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({
      seed: 'minimal',
      faultSeed: 20261121,
      rateLimit: { limit: 1_000_000, windowMs: 60_000 },
      // Half of each kind strikes after the server acted, as when a connection drops after a
      // commit; a limit answer only ever comes before (servers and proxies limit before acting).
      faults: FAULT_KINDS.flatMap((kind) => [
        { kind, probability: 0.1 / FAULT_KINDS.length / (kind === '429' ? 1 : 2), when: 'before' as const, delayMs: TIMEOUT_MS * 2 },
        ...(kind === '429' ? [] : [{ kind, probability: 0.1 / FAULT_KINDS.length / 2, when: 'after' as const, delayMs: TIMEOUT_MS * 2 }]),
      ]),
    });
  });
  afterAll(() => sandbox.close());

  it(`${OPERATIONS} operations by ${WORKERS} workers with 10% faults: no lost create, no duplicated create, every failure of the right class`, async () => {
    // Each attempt carries an id, so that the fault the sandbox injected into it can be found.
    const attemptsByOp = new Map<number, string[]>();
    const createOps = new Set<number>();
    let attemptCounter = 0;
    const base = undiciTransport();
    const currentOp = new Map<symbol, number>();
    const makeClient = (worker: symbol) => {
      const transport: Transport = async (request) => {
        const id = `a${(attemptCounter += 1)}`;
        const op = currentOp.get(worker)!;
        attemptsByOp.set(op, [...(attemptsByOp.get(op) ?? []), id]);
        return base({ ...request, headers: { ...request.headers, 'X-Request-Id': id } });
      };
      return new LinkShortClient({
        baseUrl: sandbox.baseUrl,
        apiKey: sandbox.userKey,
        transport,
        timeoutMs: TIMEOUT_MS,
        maxRetries: 2,
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 5))),
        rateLimit: { maxWaitMs: 10_000 },
      });
    };

    const createdOk = new Map<string, number>(); // url -> id
    const createFailed = new Map<string, LinkShortError>();
    const failures: Array<{ op: number; error: unknown }> = [];
    const liveIds: number[] = [];
    let next = 0;
    const started = Date.now();

    async function worker(index: number) {
      const self = Symbol(`worker ${index}`);
      const client = makeClient(self);
      while (next < OPERATIONS && Date.now() - started < TIME_LIMIT_MS) {
        const op = (next += 1);
        currentOp.set(self, op);
        const roll = (op * 7919) % 10;
        try {
          if (roll < 5 || liveIds.length === 0) {
            const url = `https://example.com/soak/${op}`;
            createOps.add(op);
            try {
              const { id } = await client.links.create({ url });
              createdOk.set(url, id);
              liveIds.push(id);
            } catch (error) {
              createFailed.set(url, error as LinkShortError);
              throw error;
            }
          } else if (roll < 7) {
            await client.links.get(liveIds[op % liveIds.length]!);
          } else if (roll < 9) {
            const id = liveIds[op % liveIds.length]!;
            await client.links.update(id, { url: `https://example.com/soak/${op}/updated`, custom: `soak-${id}` });
          } else {
            await client.links.list({ limit: 50, page: 1 + (op % 3) });
          }
        } catch (error) {
          failures.push({ op, error });
        }
      }
    }
    await Promise.all(Array.from({ length: WORKERS }, (_, i) => worker(i)));
    const done = next;

    const links = sandbox.store.state.links.filter((link) => link.url.startsWith('https://example.com/soak/'));
    const storedIds = new Set(links.map((link) => link.id));
    // An attempt may draw a fault before the server acts and another after (a delay, then a drop):
    // the first one decides what the client saw.
    const faultByAttempt = new Map<string, (typeof sandbox.faults.log)[number]>();
    for (const entry of sandbox.faults.log) if (entry.requestId && !faultByAttempt.has(entry.requestId)) faultByAttempt.set(entry.requestId, entry);

    // No lost create: every create the client reported as done is in the store.
    const lost = [...createdOk.values()].filter((id) => !storedIds.has(id));
    expect(lost).toEqual([]);

    // No duplicated create: a create is sent once; it is sent again only after a limit answer,
    // which comes before the server acts.
    for (const op of createOps) {
      const sent = attemptsByOp.get(op) ?? [];
      const resent = sent.slice(0, -1).filter((id) => !(faultByAttempt.get(id)?.kind === '429' && faultByAttempt.get(id)?.when === 'before'));
      expect([op, resent]).toEqual([op, []]);
    }
    expect(new Set(createdOk.values()).size).toBe(createdOk.size);

    // A link the client was told failed may exist only if the failure may have come after the server acted.
    const reported = new Set(createdOk.values());
    for (const link of links.filter((candidate) => !reported.has(candidate.id))) {
      const error = createFailed.get(link.url);
      expect(error).toBeDefined();
      const mayHaveReached =
        error instanceof TimeoutError || (error instanceof ConnectionError && error.mayHaveReachedServer) || error instanceof ResponseError;
      expect([link.id, error?.name, mayHaveReached]).toEqual([link.id, error?.name, true]);
    }

    // Every failure is a LinkShortError of the class the last attempt's fault calls for.
    let checked = 0;
    for (const { op, error } of failures) {
      expect(error).toBeInstanceOf(LinkShortError);
      const kind = faultByAttempt.get((attemptsByOp.get(op) ?? []).at(-1) ?? '')?.kind;
      if (kind) {
        expect([op, kind, (error as Error).name]).toEqual([op, kind, EXPECTED_CLASS[kind].name]);
        checked += 1;
      } else {
        // No fault on the last attempt: the server itself refused (e.g. an alias taken by a retried update).
        expect(error).toBeInstanceOf(ApiError);
      }
    }
    const injected = sandbox.faults.injected;
    console.log(
      `fault soak: ${done} operations in ${Date.now() - started} ms, ${createdOk.size} creates done, ${createFailed.size} failed, ` +
        `${failures.length} failures (${checked} matched to their fault), faults injected ${JSON.stringify(injected)}`,
    );
    for (const kind of FAULT_KINDS) expect(injected[kind] ?? 0).toBeGreaterThan(0);
    expect(done).toBeGreaterThanOrEqual(Math.min(OPERATIONS, 500));
  });
});
