/**
 * update_links of 100 links at the real 30 requests a minute, with the settings that ship (the call
 * deadline, the client's max wait), for a client that asks the person: each confirming call waits
 * for the key's rate limit up to its deadline and does all it can, the person is asked once for the
 * whole set, and the model is told when to call again. On a clock that jumps over every wait (the
 * sandbox, the client and the server read `Date.now`, the client sleeps by moving it), so minutes
 * of waiting take a second.
 */
import { LinkShortClient, RateLimiter } from "@linkshort/client";
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { Client } from "@modelcontextprotocol/client";
import { addLinks } from "../../client/test/fill-links";
import { DEFAULT_MAX_WAIT_SECONDS } from "../src/config/command-line";
import type { BulkLinks } from "../src/tools/bulk-outputs";
import { connectInMemory } from "./in-memory";

const LIMIT = 30;
const WINDOW_MS = 60_000;
const LINKS = 100;

let skippedMs = 0;
const realNow = Date.now.bind(Date);
let sandbox: Sandbox;

beforeAll(async () => {
  jest.spyOn(Date, "now").mockImplementation(() => realNow() + skippedMs);
  sandbox = await startSandbox({ port: 0, rateLimit: { limit: LIMIT, windowMs: WINDOW_MS } });
});

afterAll(async () => {
  await sandbox.close();
  jest.restoreAllMocks();
});

/** The client as the CLI makes it (its default max wait), sleeping by moving the clock on. */
const shippedClient = () =>
  new LinkShortClient({
    baseUrl: sandbox.baseUrl,
    apiKey: sandbox.userKey,
    rateLimit: { maxWaitMs: DEFAULT_MAX_WAIT_SECONDS * 1000, limiter: new RateLimiter() },
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      skippedMs += ms;
      await new Promise((resolve) => setImmediate(resolve));
    },
  });

/** The seconds an answer tells the model to wait: its retryAfterSeconds, or else a "retry after N s" in a link's reason. */
const waitAsked = (answer: BulkLinks) =>
  answer.retryAfterSeconds ?? Number(/retry after (\d+) s/.exec(answer.links.map((link) => link.reason ?? "").join(" "))?.[1] ?? 0);

test("100 links at 30 a minute with the shipped call deadline and max wait: all done in a call per window, the person asked once", async () => {
  const ids = addLinks(sandbox, LINKS, { from: Date.now() - 3_600_000, perSecond: 10, name: "realrate", title: (i) => `real ${i}` });
  const asked: string[] = [];
  const mcp = new Client(
    { name: "asks", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: { elicitation: { form: {} } } },
  );
  mcp.setRequestHandler("elicitation/create", (request) => {
    asked.push((request.params as { message: string }).message);
    return { action: "accept", content: { confirm: true } };
  });
  const connection = await connectInMemory(mcp, { client: shippedClient() });
  try {
    await mcp.callTool({ name: "find_links", arguments: { text: "realrate" } });
    const args = { search: { text: "realrate", limit: LINKS }, set: { metatitle: "Real rate" } };
    const requestsBefore = sandbox.requests.length;
    const progress: Array<{ progress: number; total?: number }> = [];
    let calls = 0;
    const callWith = async (confirmation?: string) => {
      const result = await mcp.callTool(
        { name: "update_links", arguments: confirmation === undefined ? args : { ...args, confirmation } },
        { onprogress: (report) => progress.push(report) },
      );
      expect(result.isError).toBeFalsy();
      calls += 1;
      const answer = result.structuredContent as unknown as BulkLinks;
      // The model waits as it is told before it calls again.
      if (answer.confirmation !== null) skippedMs += waitAsked(answer) * 1000;
      return answer;
    };
    // The preview reads every link (what the confirmed run compares), in as many calls as the rate allows.
    let answer = await callWith();
    while (answer.stage === "preview" && answer.confirmation?.startsWith("r") && calls < 10) answer = await callWith(answer.confirmation);
    expect(answer.summary).toMatch(/^100 links will change once confirmed/);
    expect(asked).toEqual([]);
    const confirmedFrom = progress.length;
    while (answer.confirmation !== null && calls < 20) answer = await callWith(answer.confirmation);
    const requests = sandbox.requests.length - requestsBefore;
    const updated = ids.filter((id) => sandbox.store.state.links.find((link) => link.id === id)!.metatitle === "Real rate");
    expect({ updated: updated.length, asked: asked.length }).toEqual({ updated: LINKS, asked: 1 });
    expect(calls).toBeLessThanOrEqual(Math.ceil(requests / LIMIT) + 1);
    expect(asked).toEqual([`Change ${LINKS} links: set metatitle to "Real rate"? Links changed since the preview are left alone.`]);
    expect(progress.at(-1)).toEqual(expect.objectContaining({ progress: LINKS, total: LINKS }));
    // (The SDK's client reports its own round of the question, without a total.)
    expect(
      progress
        .slice(confirmedFrom)
        .filter((report) => report.total !== undefined)
        .every((report) => report.total === LINKS),
    ).toBe(true);
  } finally {
    await connection.close();
  }
});
