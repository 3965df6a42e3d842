/**
 * get_link's clicks over time for a far year (issue 51): after an ordinary question, one day of hours in
 * the year 2426 held the server's event loop for seconds (the year 9999: a minute and a gigabyte),
 * because the process-wide zone clock filled every hour in between. Work is counted, never timed:
 * the host's Intl calls and the clock's steps while the question is answered.
 */
import { LinkShortClient, RateLimiter } from "@linkshort/client";
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { Client } from "@modelcontextprotocol/client";
import { fillLinks } from "../../client/test/fill-links";
import { countWork, INTL_CALLS_A_YEAR } from "../../client/test/clock-work";
import type { ClicksOverTime } from "../src/tools/outputs";
import { ServerLinkIndex } from "../src/account/server-index";
import { connectInMemory } from "./in-memory";

let sandbox: Sandbox;
let index: ServerLinkIndex;
let mcp: Client;
let close: () => Promise<void>;
let linkId: number;

beforeAll(async () => {
  sandbox = await startSandbox({ seed: "minimal", rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  fillLinks(sandbox, 2);
  linkId = sandbox.store.state.links.find((record) => record.alias === "fill1")!.id;
  const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter() } });
  index = new ServerLinkIndex(client, { minSyncIntervalMs: 0 });
  mcp = new Client({ name: "far-years-test", version: "1.0.0" });
  const connection = await connectInMemory(mcp, { client, linkIndex: index });
  close = async () => {
    await mcp.close();
    await connection.close();
    await index.stop();
  };
});
afterAll(async () => {
  await close();
  await sandbox.close();
});

async function clicks(args: Record<string, unknown>) {
  const result = await mcp.callTool({ name: "get_link", arguments: args });
  const text = (result.content as Array<{ text?: string }>).map((part) => part.text ?? "").join("\n");
  return { isError: result.isError === true, text, structured: result.structuredContent as unknown as ClicksOverTime };
}

test("a day of hours in 2426 after an ordinary day is answered with the work of its own 24 hours, a tools/list beside it answered too", async () => {
  const ordinary = await clicks({ id: linkId, period: "24h", granularity: "hour", timeZone: "America/Chicago" });
  expect(ordinary.isError).toBe(false);
  expect(ordinary.structured.links[0]!.buckets.length).toBeGreaterThanOrEqual(24);
  const far = await countWork(() =>
    Promise.all([
      clicks({ id: linkId, start: "2426-06-01T00:00:00-05:00", end: "2426-06-02T00:00:00-05:00", granularity: "hour", timeZone: "America/Chicago" }),
      mcp.listTools(),
    ]),
  );
  const [answer, listed] = far.result;
  expect(answer.isError).toBe(false);
  expect(answer.structured.links[0]!.buckets).toHaveLength(24);
  expect(answer.structured.links[0]!.buckets.every((bucket) => bucket.clicks === null && bucket.quality === "none")).toBe(true);
  expect(listed.tools.map((tool) => tool.name)).toContain("get_link");
  // Before: every hour from today to 2426 stepped through and kept (3.5 million), each year's offsets learnt (160,000 Intl calls).
  expect(far.steps).toBeLessThanOrEqual(2 * 25);
  expect(far.intlCalls).toBeLessThanOrEqual(3 * INTL_CALLS_A_YEAR);
});

test("the last hours of the year 9999 are answered with the work of their own hours", async () => {
  const last = await countWork(() => clicks({ id: linkId, start: "9999-12-31T00:00:00Z", end: "9999-12-31T23:59:59Z", granularity: "hour" }));
  expect(last.result.isError).toBe(false);
  expect(last.result.structured.links[0]!.buckets).toHaveLength(24);
  expect(last.steps).toBeLessThanOrEqual(2 * 25);
});

test("a time before 1970 or after 9999, or a period reaching before 1970, is an error naming the field, before any request", async () => {
  const before = sandbox.requests.length;
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ id: linkId, start: "1969-12-31T00:00:00Z", end: "1970-01-02T00:00:00Z" }, /must be a time from 1970 to the end of 9999.* at start/],
    [{ id: linkId, start: "9999-12-31T00:00:00Z", end: "9999-12-31T23:00:00-05:00" }, /must be a time from 1970 to the end of 9999.* at end/],
    [{ id: linkId, end: "1970-01-03T00:00:00Z", period: "7d" }, /reaches back before 1970 from end.* at period/],
  ];
  for (const [args, message] of cases) {
    const answer = await clicks(args);
    expect({ args, isError: answer.isError }).toEqual({ args, isError: true });
    expect(answer.text).toMatch(message);
  }
  expect(sandbox.requests.length).toBe(before);
});
