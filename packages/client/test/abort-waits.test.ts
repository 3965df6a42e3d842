/** Every wait of the client ends at an abort with its own AbortedError, whatever the host's sleep does with the signal. */
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { AbortedError, LinkIndex, LinkShortClient, RateLimiter, type Sleep, type TransportRequest } from "../src";
import { fillLinks } from "./fill-links";
import { API_KEY, BASE_URL } from "./helpers";

/** Builds a host's sleep that calls `started` once it waits. */
type HostSleep = (started: () => void) => Sleep;

/** Raycast's and the DOM's way: an abort rejects the sleep with the signal's reason (a DOMException). */
const rejectingWithReason: HostSleep = (started) => (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
    started();
  });

/** n8n's way: the signal is ignored (and here the sleep never ends by itself). */
const ignoringSignal: HostSleep = (started) => () => {
  started();
  return new Promise<void>(() => undefined);
};

const sleeps: Array<[string, HostSleep]> = [
  ["rejects with the signal's reason", rejectingWithReason],
  ["ignores the signal", ignoringSignal],
];

/** What `work` ended with, or "still waiting" a second after it should have ended. */
function outcomeOf(work: Promise<unknown>): Promise<unknown> {
  return Promise.race([
    work.then(
      () => "resolved",
      (error: unknown) => error,
    ),
    new Promise((resolve) => setTimeout(resolve, 1_000, "still waiting")),
  ]);
}

describe.each(sleeps)("with a host sleep that %s", (_name, hostSleep) => {
  it("an abort during the backoff before a retry rejects the call with AbortedError, and nothing more is sent", async () => {
    const sent: TransportRequest[] = [];
    const transport = async (request: TransportRequest) => {
      sent.push(request);
      return { status: 503, headers: {}, body: "Service Unavailable" };
    };
    const controller = new AbortController();
    const client = new LinkShortClient({ baseUrl: BASE_URL, apiKey: API_KEY, transport, rateLimit: false, sleep: hostSleep(() => controller.abort()) });
    const outcome = await outcomeOf(client.links.get(1, { signal: controller.signal }));
    expect(outcome).toBeInstanceOf(AbortedError);
    expect(sent).toHaveLength(1);
  });

  describe("the index's sweep", () => {
    let sandbox: Sandbox;
    beforeEach(async () => {
      // Six requests a minute: the sweep reads its share of the window, then waits for its next turn.
      sandbox = await startSandbox({ seed: "minimal", maxPageSize: 100, rateLimit: { limit: 6, windowMs: 60_000 } });
      fillLinks(sandbox, 1_000);
    });
    afterEach(() => sandbox.close());

    it("an abort while it waits for its turn rejects the sync with AbortedError", async () => {
      const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter() } });
      const controller = new AbortController();
      let waits = 0;
      const index = new LinkIndex({ minSyncIntervalMs: 0, pageSize: 100, sleep: hostSleep(() => ((waits += 1), controller.abort())) });
      const outcome = await outcomeOf(index.sync(client, { wait: true, signal: controller.signal }));
      expect(waits).toBe(1);
      expect(outcome).toBeInstanceOf(AbortedError);
    });
  });
});

it("a host sleep that fails for its own reason, with no abort, fails the call with that error", async () => {
  const failure = new Error("the host's timer failed");
  const transport = async () => ({ status: 503, headers: {}, body: "Service Unavailable" });
  const client = new LinkShortClient({ baseUrl: BASE_URL, apiKey: API_KEY, transport, rateLimit: false, sleep: () => Promise.reject(failure) });
  await expect(client.links.get(1, { signal: new AbortController().signal })).rejects.toBe(failure);
});
