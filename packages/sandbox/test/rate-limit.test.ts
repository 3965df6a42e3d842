import { request } from "undici";
import { LinkShortClient, RateLimitError, RateLimiter } from "@linkshort/client";
import { startSandbox, type Sandbox } from "@linkshort/sandbox";

describe("rate limiting over real HTTP", () => {
  let sandbox: Sandbox;
  beforeEach(async () => {
    sandbox = await startSandbox({ rateLimit: { limit: 5, windowMs: 1000 }, seed: "minimal" });
  });
  afterEach(() => sandbox.close());

  it("every answer carries the three headers; past the limit the deployed answer is HTTP 200 with error 429 and Retry-After in the body", async () => {
    const answers = [];
    for (let i = 0; i < 6; i += 1) {
      const response = await request(`${sandbox.baseUrl}/api/account`, { headers: { authorization: `Bearer ${sandbox.userKey}` } });
      answers.push({ status: response.statusCode, headers: response.headers, body: (await response.body.json()) as Record<string, unknown> });
    }
    for (const answer of answers) {
      expect(answer.headers["x-ratelimit-limit"]).toBe("5");
      expect(Number(answer.headers["x-ratelimit-reset"])).toBeGreaterThan(Date.now() / 1000 - 1);
    }
    expect(answers.slice(0, 5).map((a) => a.headers["x-ratelimit-remaining"])).toEqual(["4", "3", "2", "1", "0"]);
    const last = answers[5]!;
    // The six requests may straddle a window boundary; then the sixth is simply allowed.
    if (last.body.error === 429) {
      expect(last.status).toBe(200);
      expect(last.body).toEqual({ error: 429, message: "Too Many API Requests.", "Retry-After": expect.any(Number) });
    }
  });

  it("counts per key and before authentication", async () => {
    const wrong = async () => (await request(`${sandbox.baseUrl}/api/account`, { headers: { authorization: "Bearer wrong" } })).statusCode;
    const statuses = [];
    for (let i = 0; i < 5; i += 1) statuses.push(await wrong());
    expect(statuses).toEqual([403, 403, 403, 403, 403]);
    const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: false });
    await expect(client.account.get()).resolves.toMatchObject({ username: "demo" });
  });

  it("the client paces a burst of 12 creates through a limit of 5 per second with no limit answer", async () => {
    const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter() } });
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => client.links.create({ url: `https://example.com/burst/${i}` })));
    expect(new Set(results.map((r) => r.id)).size).toBe(12);
    expect(sandbox.requests.filter((r) => r.path === "/api/url/add")).toHaveLength(12);
  });

  it("without pacing, the same burst surfaces limit errors", async () => {
    const naive = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: false });
    const outcomes = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => naive.links.create({ url: `https://example.com/naive/${i}` })));
    const limited = outcomes.filter((o) => o.status === "rejected" && o.reason instanceof RateLimitError);
    expect(limited.length).toBeGreaterThanOrEqual(1);
  });
});
