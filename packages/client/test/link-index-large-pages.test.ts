/** The index's sweep reads the largest pages the account's server gives (issue 36): the cost of a first sync follows what the server allows. */
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { LinkIndex, LinkShortClient, RateLimiter } from "../src";
import { fillLinks } from "./fill-links";

const count = 5_000;

async function firstSync(
  maxPageSize: number | undefined,
): Promise<{ requests: Array<{ path: string; query: string }>; known: number; complete: boolean; sandbox: Sandbox }> {
  const sandbox = await startSandbox({ seed: "minimal", maxPageSize, rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  fillLinks(sandbox, count);
  const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter() } });
  const before = sandbox.requests.length;
  const freshness = await new LinkIndex({ minSyncIntervalMs: 0 }).sync(client);
  return {
    requests: sandbox.requests.slice(before).filter((request) => request.path.startsWith("/api/urls")),
    known: freshness.known,
    complete: freshness.complete,
    sandbox,
  };
}

test("on a server without a maximum page size, the first sync of 5,000 links walks pages of 1,000", async () => {
  const { requests, known, complete, sandbox } = await firstSync(undefined);
  try {
    expect(complete).toBe(true);
    expect(known).toBe(sandbox.store.linksOf(2).length);
    // The sweep: its first page, the last page to count, then the walk, 1,000 links a request.
    expect(requests.length).toBeLessThanOrEqual(10);
    expect(requests.filter((request) => request.query.includes("limit=1000")).length).toBeGreaterThanOrEqual(count / 1000);
  } finally {
    await sandbox.close();
  }
});

test("on a server that caps pages at 100, the first sync is complete: the walk follows the answered perpage", async () => {
  const { requests, known, complete, sandbox } = await firstSync(100);
  try {
    expect(complete).toBe(true);
    expect(known).toBe(sandbox.store.linksOf(2).length);
    expect(requests.length).toBeGreaterThanOrEqual(count / 100);
    expect(requests.length).toBeLessThanOrEqual(count / 100 + 6);
  } finally {
    await sandbox.close();
  }
});
