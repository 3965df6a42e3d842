import { ApiError, ConnectionError, RateLimiter, RateLimitError, ResponseError, TimeoutError } from "../src/core";
import { FakeClock, rateHeaders, scripted, type Handler } from "./helpers";

/** A server that counts requests per fixed window on the fake clock, as deployed servers do. */
function limitedServer(clock: FakeClock, limit: number, windowMs: number) {
  const served = { ok: 0, limited: 0 };
  const handler: Handler = () => {
    const windowEnd = (Math.floor(clock.time / windowMs) + 1) * windowMs;
    const key = windowEnd;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    const used = counts.get(key)!;
    const headers = rateHeaders(limit, limit - used, windowEnd);
    if (used > limit) {
      served.limited += 1;
      return { headers, json: { error: 429, message: "Too Many API Requests.", "Retry-After": Math.ceil((windowEnd - clock.time) / 1000) } };
    }
    served.ok += 1;
    return { headers, json: { error: 0, id: served.ok, shorturl: `https://s.io/${served.ok}` } };
  };
  const counts = new Map<number, number>();
  return { handler, served };
}

describe("rate limiting", () => {
  it("paces a burst larger than the limit so that no limit error surfaces and no limit answer is provoked", async () => {
    const clock = new FakeClock();
    clock.time = Date.UTC(2026, 10, 21, 12, 0, 0);
    const server = limitedServer(clock, 30, 1000);
    const { client } = scripted((request, index) => server.handler(request, index), {
      rateLimit: { limiter: new RateLimiter() },
      now: clock.now,
      sleep: clock.sleep,
    });
    const started = clock.time;
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => client.links.create({ url: `https://example.com/${i}` })));
    expect(results).toHaveLength(100);
    expect(new Set(results.map((r) => r.id)).size).toBe(100);
    expect(server.served).toEqual({ ok: 100, limited: 0 });
    // ceil(100 / 30) - 1 = 3 windows of waiting, plus the small reset margins.
    expect(clock.time - started).toBeGreaterThanOrEqual(3000);
    expect(clock.time - started).toBeLessThanOrEqual(3000 + 3 * 25);
  });

  it("shares one limiter between clients of the same base URL and key", async () => {
    const clock = new FakeClock();
    const server = limitedServer(clock, 5, 1000);
    const options = { rateLimit: {}, now: clock.now, sleep: clock.sleep, baseUrl: "https://shared-limit.example" };
    const a = scripted((r, i) => server.handler(r, i), options).client;
    const b = scripted((r, i) => server.handler(r, i), options).client;
    await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).links.create({ url: `https://example.com/${i}` })));
    expect(server.served).toEqual({ ok: 12, limited: 0 });
  });

  it("waits out a limit answer (Retry-After in the body) and retries, even a create", async () => {
    const { client, sent, clock } = scripted(
      [{ json: { error: 429, message: "Too Many API Requests.", "Retry-After": 7 } }, { json: { error: 0, id: 1, shorturl: "https://s.io/a" } }],
      { rateLimit: { limiter: new RateLimiter() } },
    );
    await expect(client.links.create({ url: "https://example.com" })).resolves.toEqual({ id: 1, shorturl: "https://s.io/a" });
    expect(sent).toHaveLength(2);
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(7000);
  });

  it("understands a proxy's HTTP 429 with a Retry-After header", async () => {
    const { client, sent, clock } = scripted([{ status: 429, headers: { "retry-after": "2" }, body: "" }, { json: { error: 0, message: "ok" } }], {
      rateLimit: { limiter: new RateLimiter() },
    });
    await client.links.delete(1);
    expect(sent).toHaveLength(2);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(2000);
  });

  it("fails with RateLimitError at once when the wait would exceed maxWaitMs", async () => {
    const { client, sent, clock } = scripted([{ json: { error: 429, message: "Too Many API Requests.", "Retry-After": 60 } }], {
      rateLimit: { limiter: new RateLimiter(), maxWaitMs: 10_000 },
    });
    const error = await client.account.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfterMs: 60_000 });
    expect(sent).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it("with rateLimit: false a limit answer surfaces at once", async () => {
    const { client, sent } = scripted([{ json: { error: 429, message: "Too Many API Requests.", "Retry-After": 1 } }]);
    await expect(client.account.get()).rejects.toBeInstanceOf(RateLimitError);
    expect(sent).toHaveLength(1);
  });

  it("paces before sending when the headers say the window is spent", async () => {
    const clock = new FakeClock();
    const resetAt = clock.time + 5000;
    const { client, sent } = scripted(
      [
        { headers: rateHeaders(30, 0, resetAt), json: { error: 0, message: "a" } },
        { headers: rateHeaders(30, 29, resetAt + 60_000), json: { error: 0, message: "b" } },
      ],
      {
        rateLimit: { limiter: new RateLimiter() },
        now: clock.now,
        sleep: clock.sleep,
      },
    );
    await client.links.delete(1);
    await client.links.delete(2);
    expect(sent).toHaveLength(2);
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(4000);
    expect(clock.sleeps[0]).toBeLessThanOrEqual(5100);
  });

  it("treats a negative Remaining (older servers) as zero", async () => {
    const clock = new FakeClock();
    const { client, sent } = scripted(
      [{ headers: rateHeaders(30, -3, clock.time + 2000), json: { error: 0, message: "a" } }, { json: { error: 0, message: "b" } }],
      {
        rateLimit: { limiter: new RateLimiter() },
        now: clock.now,
        sleep: clock.sleep,
      },
    );
    await client.links.delete(1);
    await client.links.delete(2);
    expect(sent).toHaveLength(2);
    expect(clock.sleeps).toHaveLength(1);
  });

  it("keeps pacing when the first answer comes back after the window it names has ended (a loaded machine)", async () => {
    const clock = new FakeClock();
    const server = limitedServer(clock, 5, 1000);
    const handler: Handler = (request, index) => {
      const reply = server.handler(request, index);
      // The first answer is read only after its window's reset: its headers say nothing of the window now.
      if (index === 0) clock.time = (Math.floor(clock.time / 1000) + 1) * 1000 + 50;
      return reply;
    };
    const { client } = scripted(handler, { rateLimit: { limiter: new RateLimiter() }, now: clock.now, sleep: clock.sleep });
    await Promise.all(Array.from({ length: 12 }, (_, i) => client.links.delete(i + 1)));
    expect(server.served).toEqual({ ok: 12, limited: 0 });
  });

  it("sends freely to a server without rate-limit headers", async () => {
    const { client, sent, clock } = scripted(() => ({ json: { error: 0, message: "ok" } }), { rateLimit: { limiter: new RateLimiter() } });
    await Promise.all(Array.from({ length: 50 }, (_, i) => client.links.delete(i + 1)));
    expect(sent).toHaveLength(50);
    expect(clock.sleeps).toEqual([]);
  });
});

describe("retries", () => {
  const fail = {
    "HTTP 502 HTML": { status: 502, body: "<html>Bad gateway</html>" },
    "HTTP 500 JSON": { status: 500, json: { error: 1, message: "Internal error" } },
    "connection reset": Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }),
    timeout: new TimeoutError(1000),
  };

  it.each(Object.entries(fail))("retries GET after %s with capped exponential backoff", async (_name, failure) => {
    const { client, sent, clock } = scripted([failure, failure, { json: { error: 0, message: "ok" } }]);
    await expect(client.links.delete(1)).resolves.toEqual({ message: "ok" });
    expect(sent).toHaveLength(3);
    expect(clock.sleeps).toEqual([375, 750]);
  });

  it.each(Object.entries(fail))("gives up after maxRetries on %s with the right class", async (_name, failure) => {
    const { client, sent } = scripted([failure, failure, failure, failure]);
    const error = await client.account.get().catch((e: unknown) => e);
    expect(sent).toHaveLength(3);
    expect(error).toBeInstanceOf(
      failure instanceof TimeoutError
        ? TimeoutError
        : failure instanceof Error
          ? ConnectionError
          : (failure as { json?: unknown }).json
            ? ApiError
            : ResponseError,
    );
  });

  it.each(Object.entries(fail))("never retries a create after %s", async (_name, failure) => {
    const { client, sent } = scripted([failure, { json: { error: 0, id: 1, shorturl: "x" } }]);
    const error = await client.links.create({ url: "https://example.com" }).catch((e: unknown) => e);
    const expected =
      failure instanceof TimeoutError
        ? TimeoutError
        : failure instanceof Error
          ? ConnectionError
          : (failure as { json?: unknown }).json
            ? ApiError
            : ResponseError;
    expect(error).toBeInstanceOf(expected);
    if (error instanceof ConnectionError) expect(error.mayHaveReachedServer).toBe(true);
    expect(sent).toHaveLength(1);
  });

  it("retries a create whose connection was refused (it never reached the server)", async () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    const { client, sent } = scripted([refused, { json: { error: 0, id: 1, shorturl: "https://s.io/a" } }]);
    await expect(client.links.create({ url: "https://example.com" })).resolves.toEqual({ id: 1, shorturl: "https://s.io/a" });
    expect(sent).toHaveLength(2);
  });

  it("does not retry a 4xx-style API error", async () => {
    const { client, sent } = scripted([{ json: { error: 1, message: "Link does not exist." } }, { json: { error: 0 } }]);
    await expect(client.links.get(1)).rejects.toMatchObject({ name: "NotFoundError" });
    expect(sent).toHaveLength(1);
  });

  it("takes maxRetries and timeoutMs per request", async () => {
    const failure = { status: 503, body: "" };
    const { client, sent } = scripted([failure, failure, failure, failure, failure, failure], { maxRetries: 5 });
    await expect(client.links.get(1, { maxRetries: 1, timeoutMs: 1234 })).rejects.toBeInstanceOf(ResponseError);
    expect(sent).toHaveLength(2);
    expect(sent[0]!.timeoutMs).toBe(1234);
  });

  it("caps the backoff", async () => {
    const failure = { status: 503, body: "" };
    const { client, clock } = scripted(
      Array.from({ length: 8 }, () => failure),
      { maxRetries: 7, random: () => 0.999999 },
    );
    await client.account.get().catch(() => undefined);
    expect(Math.max(...clock.sleeps)).toBeLessThanOrEqual(8000);
    expect(clock.sleeps.slice(0, 4)).toEqual([500, 1000, 2000, 4000]);
  });
});
