/** The server's link index of each account given none: one per account (https://x/ and https://x alike), following every client of it. */
import { LinkShortClient, RateLimiter } from "@linkshort/client";
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { serverLinkIndexFor } from "../src/account/server-indexes";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: "minimal", rateLimit: { limit: 1000, windowMs: 60_000 } });
});
afterAll(() => sandbox.close());

test("two clients of one account share one index, and a link either makes is in it at once", async () => {
  const first = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter() } });
  const second = new LinkShortClient({ baseUrl: `${sandbox.baseUrl}/`, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter() } });
  const index = serverLinkIndexFor(first);
  try {
    expect(serverLinkIndexFor(second)).toBe(index);
    const other = serverLinkIndexFor(new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.adminKey }));
    expect(other).not.toBe(index);
    await other.stop();
    const made = await second.links.create({ url: "https://example.com/made-by-the-second-client" });
    expect(index.index.get(made.id)?.longurl).toBe("https://example.com/made-by-the-second-client");
  } finally {
    await index.stop();
  }
});
