import { inspect } from "node:util";
import { LinkShortClient, RateLimiter, RateLimitError, TimeoutError, ValidationError, type CoreClientOptions, type TransportRequest } from "../src/core";
import { API_KEY, BASE_URL, FakeClock, rateHeaders, scripted } from "./helpers";

const okTransport = async () => ({ status: 200, headers: {}, body: '{"error":0,"message":"ok"}' });
const make = (options: Record<string, unknown>) =>
  new LinkShortClient({ baseUrl: BASE_URL, apiKey: API_KEY, transport: okTransport, sleep: async () => undefined, ...options } as CoreClientOptions);

describe("request options are checked like inputs", () => {
  it.each([
    ["signal: {}", { signal: {} }, "options.signal"],
    ["timeoutMs: 0", { timeoutMs: 0 }, "options.timeoutMs"],
    ["timeoutMs: -1", { timeoutMs: -1 }, "options.timeoutMs"],
    ["timeoutMs: NaN", { timeoutMs: Number.NaN }, "options.timeoutMs"],
    ["timeoutMs: 2^31 (a timer would fire at once)", { timeoutMs: 2 ** 31 }, "options.timeoutMs"],
    ["maxRetries: Infinity", { maxRetries: Number.POSITIVE_INFINITY }, "options.maxRetries"],
    ["maxRetries: -1", { maxRetries: -1 }, "options.maxRetries"],
    ["maxRetries: 1.5", { maxRetries: 1.5 }, "options.maxRetries"],
  ])("%s: a ValidationError naming it, nothing sent", async (_name, options, field) => {
    const { client, sent } = scripted([{ json: { error: 0, message: "ok" } }]);
    const error = await client.links.delete(1, options as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fields).toEqual([field]);
    expect(sent).toHaveLength(0);
  });

  it("the same for a list, before its first page", async () => {
    const { client, sent } = scripted([]);
    await expect(client.links.list({}, { signal: "stop" } as never).toArray()).rejects.toBeInstanceOf(ValidationError);
    expect(sent).toHaveLength(0);
  });

  it.each([
    ["timeoutMs", Number.NaN],
    ["timeoutMs", 0],
    ["maxRetries", Number.POSITIVE_INFINITY],
    ["signal", {}],
    ["maxBodyBytes", 0],
    ["maxBodyBytes", 1.5],
    ["maxPages", -1],
    ["userAgent", "agent\r\nX-Injected: 1"],
  ])("the client refuses %s = %p when it is made", (field, value) => {
    expect(() => make({ [field]: value })).toThrow(ValidationError);
    expect(() => make({ [field]: value })).toThrow(`LinkShortClient: invalid input: ${field}:`);
  });

  it("refuses rateLimit.maxWaitMs and rateLimit.limiter that are not what they say", () => {
    expect(() => make({ rateLimit: { maxWaitMs: -5 } })).toThrow("rateLimit.maxWaitMs:");
    expect(() => make({ rateLimit: { limiter: {} } })).toThrow("rateLimit.limiter: must be a RateLimiter");
  });

  it("valid options pass unchanged", async () => {
    const { client, sent } = scripted([{ json: { error: 0, message: "ok" } }]);
    await client.links.delete(1, { timeoutMs: 1234, maxRetries: 0, signal: new AbortController().signal });
    expect(sent[0]!.timeoutMs).toBe(1234);
  });
});

describe("ids and keys that cannot be sent as given", () => {
  it.each([["9007199254740993"], [9007199254740993], ["99999999999999999999"]])("id %p is refused, not rounded to another id", async (id) => {
    const { client, sent } = scripted([{ json: { error: 0, message: "ok" } }]);
    const error = await client.links.delete(id as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fields).toEqual(["id"]);
    expect(sent).toHaveLength(0);
  });

  it("the largest safe id is sent exactly", async () => {
    const { client, sent } = scripted([{ json: { error: 0, message: "ok" } }]);
    await client.links.delete("9007199254740991" as never);
    expect(sent[0]!.path).toBe("/api/url/9007199254740991/delete");
  });

  it.each([
    ["a line break", "sk_live_abc\r\nX-Evil: 1"],
    ["a trailing newline (pasted)", "sk_live_abcdef\n"],
    ["a non-Latin-1 character", "sk_live_ключ"],
    ["a tab", "sk\tlive"],
  ])("an API key with %s is refused when the client is made, naming apiKey, without echoing the key", (_name, apiKey) => {
    const attempt = () => make({ apiKey });
    expect(attempt).toThrow(ValidationError);
    expect(attempt).toThrow(/apiKey: must be text of printable Latin-1 characters/);
    try {
      attempt();
    } catch (error) {
      expect((error as Error).message).not.toContain(apiKey.trim());
    }
  });
});

describe("the key stays out of the client's visible state", () => {
  it.each(["sk_test_visible_key_123", "ab1"])("util.inspect and JSON.stringify of a client do not show %p", (apiKey) => {
    const client = make({ apiKey });
    expect(inspect(client, { depth: Number.POSITIVE_INFINITY, showHidden: true })).not.toContain(apiKey);
    expect(JSON.stringify(client)).not.toContain(apiKey);
  });

  it("a key of any length is redacted from what the server echoes", async () => {
    const { client } = scripted([{ json: { error: 1, message: "Key Zq9 is not valid" } }], { apiKey: "Zq9" });
    const error = await client.links.delete(1).catch((e: unknown) => e);
    expect((error as Error).message).toBe("Key [redacted] is not valid");
  });

  it("a transport that authenticates itself (n8n's helper) never receives the key; the key still names the window and is redacted", async () => {
    const { client, sent } = scripted([{ json: { error: 1, message: "Key sk_hosted_1 is not valid" } }], {
      apiKey: "sk_hosted_1",
      transportAuthenticates: true,
    });
    const error = await client.links.delete(1).catch((e: unknown) => e);
    expect(sent[0]!.headers).not.toHaveProperty("Authorization");
    expect(JSON.stringify(sent[0])).not.toContain("sk_hosted_1");
    expect((error as Error).message).toBe("Key [redacted] is not valid");
    expect(() => make({ transportAuthenticates: "yes" as unknown as boolean })).toThrow("transportAuthenticates: must be true or false");
  });

  it("client.redact removes the key in the forms a server echoes it in, for what a front end reports itself", () => {
    const apiKey = "sk/é+key 1";
    const client = make({ apiKey });
    const echoed = [apiKey, JSON.stringify(apiKey), encodeURIComponent(apiKey), new URLSearchParams({ k: apiKey }).toString()].join(" | ");
    const redacted = client.redact(`unexpected error: ${echoed}`);
    expect(redacted).toBe('unexpected error: [redacted] | "[redacted]" | [redacted] | k=[redacted]');
  });
});

describe("limit answers (fake clock)", () => {
  it("RateLimitError.liftsAt: the spent window's plausible reset, else Retry-After from now, else unknown", () => {
    const now = Date.UTC(2026, 10, 21, 12, 0, 0, 300);
    const soon = now + 700;
    expect(new RateLimitError("limit", 429, 5_000, soon).liftsAt(now)).toBe(soon);
    // A reset in milliseconds (years away) or already past is not believed: Retry-After decides.
    expect(new RateLimitError("limit", 429, 5_000, soon * 1000).liftsAt(now)).toBe(now + 5_000);
    expect(new RateLimitError("limit", 429, 0, now - 1_000).liftsAt(now)).toBe(now);
    expect(new RateLimitError("limit", 429, undefined, undefined).liftsAt(now)).toBeUndefined();
  });

  it("a limit answer waits until the window's reset as stated, not the rounded-up Retry-After", async () => {
    const clock = new FakeClock();
    clock.time = Date.UTC(2026, 10, 21, 12, 0, 0, 300);
    const resetAt = Date.UTC(2026, 10, 21, 12, 0, 1);
    const { client, sent } = scripted(
      [
        { headers: rateHeaders(30, 0, resetAt), json: { error: 429, message: "Too Many API Requests.", "Retry-After": 1 } },
        { json: { error: 0, message: "ok" } },
      ],
      { rateLimit: { limiter: new RateLimiter() }, now: clock.now, sleep: clock.sleep },
    );
    await client.links.delete(1);
    expect(sent).toHaveLength(2);
    // Woken at the reset (plus the limiter's margin of some 20 ms), 700 ms after the answer, not 1000 ms.
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(700);
    expect(clock.sleeps[0]).toBeLessThanOrEqual(720);
  });

  it("a proxy's HTTP 429 over a window with requests left waits its Retry-After, not the window's reset", async () => {
    const clock = new FakeClock();
    const { client, sent } = scripted(
      [{ status: 429, headers: { "retry-after": "1", ...rateHeaders(30, 25, clock.time + 45_000) }, body: "" }, { json: { error: 0, message: "ok" } }],
      { rateLimit: { limiter: new RateLimiter(), maxWaitMs: 10_000 }, now: clock.now, sleep: clock.sleep },
    );
    await client.links.delete(1);
    expect(sent).toHaveLength(2);
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(1_000);
    expect(clock.sleeps[0]).toBeLessThanOrEqual(1_020);
  });

  it("a reset beyond the plausible window is not believed; a later answer is", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter();
    const { client, sent } = scripted(
      [
        {
          headers: { "x-ratelimit-limit": "30", "x-ratelimit-remaining": "-5", "x-ratelimit-reset": String(clock.time + 60_000) },
          json: { error: 0, message: "a" },
        },
        { headers: rateHeaders(30, 0, clock.time + 3_000), json: { error: 0, message: "b" } },
        { headers: rateHeaders(30, 29, clock.time + 63_000), json: { error: 0, message: "c" } },
      ],
      { rateLimit: { limiter, maxWaitMs: 10_000 }, now: clock.now, sleep: clock.sleep },
    );
    await client.links.delete(1);
    await client.links.delete(2);
    await client.links.delete(3);
    expect(sent).toHaveLength(3);
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeLessThanOrEqual(3_100);
  });

  it.each([0, -4, "0"])("Retry-After %p: one second between tries, and RateLimitError when maxWaitMs is spent", async (retryAfter) => {
    const { client, sent, clock } = scripted(() => ({ json: { error: 429, message: "Too Many API Requests.", "Retry-After": retryAfter } }), {
      rateLimit: { limiter: new RateLimiter(), maxWaitMs: 5_000 },
    });
    await expect(client.links.create({ url: "https://example.com" })).rejects.toBeInstanceOf(RateLimitError);
    expect(sent.length).toBeLessThanOrEqual(6);
    expect(Math.min(...clock.sleeps)).toBeGreaterThanOrEqual(1_000);
  });

  it("a call behind a slow first request (sent with a longer timeout) fails at its own timeout, with nothing sent", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter();
    let releaseProbe: (() => void) | undefined;
    const requests: TransportRequest[] = [];
    const transport = (request: TransportRequest) => {
      requests.push(request);
      if (requests.length === 1) return new Promise<never>((_resolve, reject) => (releaseProbe = () => reject(new TimeoutError(request.timeoutMs))));
      return Promise.resolve({ status: 200, headers: rateHeaders(30, 20, clock.time + 60_000), body: '{"error":0,"message":"ok"}' });
    };
    const options = { baseUrl: BASE_URL, apiKey: API_KEY, transport, sleep: clock.sleep, now: clock.now, maxRetries: 0, rateLimit: { limiter } };
    const probe = new LinkShortClient({ ...options, timeoutMs: 30_000 }).links.delete(1).catch((e: unknown) => e);
    const started = clock.time;
    const error = await new LinkShortClient({ ...options, timeoutMs: 1_000 }).links.delete(2).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(clock.time - started).toBe(1_000);
    expect(requests).toHaveLength(1);
    releaseProbe?.();
    await probe;
  });
});
