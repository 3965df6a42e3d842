import { AbortedError, LinkShortClient, RateLimiter, type TransportRequest, type TransportResponse } from "../src/core";
import { sharedLimiterIds } from "../src/internal/limiter-registry";
import { rateHeaders } from "./helpers";

const okBody = JSON.stringify({ error: 0, id: 1, shorturl: "https://s.io/a" });

/** A transport whose answers wait until the test lets them go. */
function heldTransport(headers: Record<string, string> = {}) {
  const held: Array<() => void> = [];
  const sent: TransportRequest[] = [];
  const transport = (request: TransportRequest) => {
    sent.push(request);
    return new Promise<TransportResponse>((resolve) => held.push(() => resolve({ status: 200, headers, body: okBody })));
  };
  return { transport, sent, releaseAll: () => held.splice(0).forEach((go) => go()) };
}

/** n8n's sleep: it ignores the abort signal, and here it never ends by itself either. */
const sleepIgnoringSignal = () => new Promise<void>(() => undefined);

const client = (transport: (request: TransportRequest) => Promise<TransportResponse>, limiter: RateLimiter, timeoutMs = 30_000) =>
  new LinkShortClient({
    baseUrl: "https://short.example",
    apiKey: "key-for-limiter-tests",
    transport,
    sleep: sleepIgnoringSignal,
    rateLimit: { limiter },
    timeoutMs,
  });

describe("a call waiting for the rate limiter obeys its abort signal", () => {
  it("behind the key's first request (same timeout): rejects with AbortedError while the first is still out", async () => {
    const { transport, sent, releaseAll } = heldTransport();
    const limiter = new RateLimiter();
    const first = client(transport, limiter).links.create({ url: "https://example.com/1" });
    const controller = new AbortController();
    const second = client(transport, limiter).links.create({ url: "https://example.com/2" }, { signal: controller.signal });
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    await expect(second).rejects.toBeInstanceOf(AbortedError);
    expect(sent).toHaveLength(1);
    releaseAll();
    await expect(first).resolves.toEqual({ id: 1, shorturl: "https://s.io/a" });
  });

  it("behind a first request with a longer timeout (the wait is raced with a sleep): AbortedError, not TimeoutError", async () => {
    const { transport, sent, releaseAll } = heldTransport();
    const limiter = new RateLimiter();
    const first = client(transport, limiter, 60_000).links.create({ url: "https://example.com/1" });
    const controller = new AbortController();
    const second = client(transport, limiter, 1_000).links.create({ url: "https://example.com/2" }, { signal: controller.signal });
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    await expect(second).rejects.toBeInstanceOf(AbortedError);
    expect(sent).toHaveLength(1);
    releaseAll();
    await first;
  });

  it("waiting for the next window with a sleep that ignores the signal: AbortedError at once", async () => {
    const now = Date.now();
    const { transport, releaseAll } = heldTransport(rateHeaders(30, 0, now + 60_000));
    const limiter = new RateLimiter();
    const spending = client(transport, limiter).links.create({ url: "https://example.com/1" });
    await new Promise((resolve) => setImmediate(resolve));
    releaseAll();
    await spending;
    const controller = new AbortController();
    const waiting = client(transport, limiter).links.create({ url: "https://example.com/2" }, { signal: controller.signal });
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(AbortedError);
  });

  it("a waiter that gave up leaves nothing behind: the next request after the first still goes", async () => {
    const { transport, sent, releaseAll } = heldTransport();
    const limiter = new RateLimiter();
    const first = client(transport, limiter).links.create({ url: "https://example.com/1" });
    for (let i = 0; i < 100; i += 1) {
      const controller = new AbortController();
      const waiting = client(transport, limiter).links.create({ url: `https://example.com/w${i}` }, { signal: controller.signal });
      await new Promise((resolve) => setImmediate(resolve));
      controller.abort();
      await expect(waiting).rejects.toBeInstanceOf(AbortedError);
    }
    const later = client(transport, limiter).links.create({ url: "https://example.com/later" });
    releaseAll();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    releaseAll();
    await expect(later).resolves.toEqual({ id: 1, shorturl: "https://s.io/a" });
    expect(sent).toHaveLength(2);
  });
});

describe("the process's shared limiters", () => {
  it("release the limiters of idle keys: many clients with distinct keys, their windows passed, leave a bounded map without any key in it", async () => {
    let time = Date.UTC(2026, 10, 21, 12, 0, 0);
    const answer = async () => ({ status: 200, headers: rateHeaders(30, 29, time + 60_000), body: okBody });
    const baseUrl = "https://many-keys.example";
    const keyOf = (i: number) => `sk_idle_${i}_${"x".repeat(20)}`;
    const make = (i: number) => new LinkShortClient({ baseUrl, apiKey: keyOf(i), transport: answer, sleep: async () => undefined, now: () => time });
    for (let i = 0; i < 5_000; i += 1) await make(i).links.create({ url: "https://example.com/x" });
    const whileActive = sharedLimiterIds().length;
    expect(whileActive).toBeGreaterThanOrEqual(5_000);
    time += 61_000;
    for (let i = 5_000; i < 10_000; i += 1) await make(i).links.create({ url: "https://example.com/x" });
    time += 61_000;
    await make(10_000).links.create({ url: "https://example.com/x" });
    const ids = sharedLimiterIds();
    expect(ids.length).toBeLessThanOrEqual(100);
    const everyKey = ids.join("\n");
    for (const i of [0, 4_999, 9_999, 10_000]) expect(everyKey).not.toContain(keyOf(i));
    expect(everyKey).not.toContain("sk_idle_");
  });

  it("clients of one key keep sharing one window after its entry was released", async () => {
    let time = Date.UTC(2026, 10, 21, 12, 0, 0);
    let remaining = 3;
    const sent: number[] = [];
    const transport = async () => {
      sent.push(time);
      remaining -= 1;
      return { status: 200, headers: rateHeaders(3, remaining, time + 60_000), body: okBody };
    };
    const sleeps: number[] = [];
    const sleep = async (ms: number) => {
      sleeps.push(ms);
      time += ms;
      remaining = 3;
    };
    const options = { baseUrl: "https://release-then-share.example", apiKey: "sk_release_then_share", transport, sleep, now: () => time };
    const kept = new LinkShortClient(options);
    await kept.links.create({ url: "https://example.com/1" });
    time += 61_000;
    remaining = 3;
    // Another key's entry comes and goes a minute later: the idle entries are released.
    await new LinkShortClient({ ...options, apiKey: "sk_another_key" }).links.create({ url: "https://example.com/x" });
    time += 61_000;
    remaining = 3;
    await new LinkShortClient({ ...options, apiKey: "sk_a_third_key" }).links.create({ url: "https://example.com/x" });
    remaining = 3;
    // The kept client and a new one of the same key spend one window of 3 together: the 4th waits.
    const fresh = new LinkShortClient(options);
    sleeps.length = 0;
    for (const c of [kept, fresh, kept, fresh]) await c.links.create({ url: "https://example.com/2" });
    expect(sleeps.length).toBeGreaterThanOrEqual(1);
  });
});
