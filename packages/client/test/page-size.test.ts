import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { LinkShortClient } from "../src";
import { LARGE_PAGE_SIZE, RateLimiter, RateLimitError } from "../src/core";
import { pageSizeAfter, SAFE_PAGE_SIZE } from "../src/internal/page-size";
import { FakeClock, rateHeaders, scripted } from "./helpers";
import { fillLinks } from "./fill-links";

describe('large pages (limit: "large")', () => {
  const sandboxes: Sandbox[] = [];
  afterEach(async () => {
    await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.close()));
  });
  const account = async (maxPageSize?: number) => {
    const sandbox = await startSandbox({ seed: "minimal", rateLimit: { limit: 1_000_000, windowMs: 60_000 }, ...(maxPageSize ? { maxPageSize } : {}) });
    sandboxes.push(sandbox);
    fillLinks(sandbox, 2_500);
    const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: false });
    const limits = () => sandbox.requests.filter((request) => request.path === "/api/urls").map((request) => new URLSearchParams(request.query).get("limit"));
    return { sandbox, client, limits };
  };

  it("asks a server with no maximum for 1,000 a page: 2,500 links in 3 requests", async () => {
    const { client, limits } = await account();
    expect(await client.links.list({ limit: "large" }).toArray()).toHaveLength(2_500);
    expect(limits()).toEqual(["1000", "1000", "1000"]);
  });

  it("reads a capped server's perpage, walks every page it gives, and asks the account for that size afterwards", async () => {
    const { client, limits } = await account(100);
    const first = await client.links.list({ limit: "large" });
    expect(first.perpage).toBe(100);
    expect(await client.links.list({ limit: "large" }).toArray()).toHaveLength(2_500);
    expect(limits().slice(0, 2)).toEqual(["1000", "100"]);
    expect(limits().length).toBe(1 + 25);
  });

  it("steps down to 100 after a server answered a large ask with its default of 15 (a large limit refused), and to what it gives below that", () => {
    expect(pageSizeAfter(LARGE_PAGE_SIZE, LARGE_PAGE_SIZE)).toBe(LARGE_PAGE_SIZE);
    expect(pageSizeAfter(LARGE_PAGE_SIZE, 500)).toBe(500);
    expect(pageSizeAfter(LARGE_PAGE_SIZE, 15)).toBe(SAFE_PAGE_SIZE);
    expect(pageSizeAfter(SAFE_PAGE_SIZE, 15)).toBe(15);
    expect(pageSizeAfter(LARGE_PAGE_SIZE, Number.NaN)).toBe(SAFE_PAGE_SIZE);
  });

  it('a limit that is neither a number nor "large" is refused before any request, naming the field', async () => {
    const { client, sandbox } = await account();
    const before = sandbox.requests.length;
    await expect(client.links.list({ limit: "huge" as unknown as number }).toArray()).rejects.toMatchObject({
      name: "ValidationError",
      message: expect.stringContaining("limit"),
    });
    expect(sandbox.requests.length).toBe(before);
  });
});

describe("maxRateLimitWaitMs: 0 (a call that must not wait for the rate limit)", () => {
  it("fails at once with RateLimitError, nothing sent and no sleep, when the key's window is spent", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter();
    const { client, sent } = scripted(
      [
        {
          headers: rateHeaders(30, 0, clock.time + 40_000),
          json: {
            error: 0,
            data: { id: 1, email: "a@b.co", username: "a", avatar: "", status: "pro", planid: 1, expires: null, registered: "2026-01-01 00:00:00" },
          },
        },
      ],
      { rateLimit: { limiter }, now: clock.now, sleep: clock.sleep },
    );
    await client.account.get().catch(() => undefined);
    const error = await client.links.get(1, { maxRateLimitWaitMs: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(sent).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it("is checked like every call option", async () => {
    const { client } = scripted([]);
    await expect(client.links.get(1, { maxRateLimitWaitMs: -1 })).rejects.toThrow("options.maxRateLimitWaitMs:");
  });
});
