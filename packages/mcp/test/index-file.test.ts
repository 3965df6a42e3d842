/**
 * The built server with --index-file: the first sync runs from start in the background, the index
 * is kept in the file, and after a restart find_links answers from it at once, the sync after the
 * restart costing one request.
 */
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fillLinks } from "../../client/test/fill-links";
import { startSession, type Session } from "./helpers";

let sandbox: Sandbox;
const file = join(mkdtempSync(join(tmpdir(), "linkshort-mcp-index-")), "links.json");
const apiRequests = () => sandbox.requests.filter((request) => request.path.startsWith("/api/")).length;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: "minimal", rateLimit: { limit: 1000, windowMs: 60_000 } });
  fillLinks(sandbox, 1000);
});
afterAll(() => sandbox.close());

async function untilComplete(session: Session): Promise<Record<string, unknown>> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const answer = await session.call("find_links", { text: "aardvark" });
    const index = (answer.structured as { index: { complete: boolean } }).index;
    if (index.complete) return answer.structured!;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the first sync did not finish");
}

test("the index is synced from start, kept in the file, and answers after a restart for one request", async () => {
  const first = await startSession({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey }, ["--index-file", file]);
  try {
    const found = await untilComplete(first);
    expect(found).toMatchObject({ links: [{ alias: "fill0" }], index: { complete: true } });
    expect(first.stderr()).toContain(`kept in ${file}`);
  } finally {
    await first.close();
  }
  expect(existsSync(file)).toBe(true);
  // The clicks the first sync sampled, beside the index, for its owner only, naming the account.
  const history = `${file}.clicks.json`;
  expect(statSync(history).mode & 0o777).toBe(0o600);
  const kept = JSON.parse(readFileSync(history, "utf8")) as { account: string; lastSampleAt: number; links: Record<string, string> };
  expect(Object.keys(kept.links)).toHaveLength(1000);

  const before = apiRequests();
  const second = await startSession({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey }, ["--index-file", file]);
  try {
    const answer = await second.call("find_links", { text: "fill0" });
    expect(answer.structured).toMatchObject({ links: [{ alias: "fill0" }], index: { complete: true } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(apiRequests() - before).toBeLessThanOrEqual(1);
    // Over stdio the answer says how far the history reaches: to the first session's sample, kept in the file.
    const clicks = await second.call("get_link", { period: "24h" });
    expect(clicks.isError).toBe(false);
    const firstSample = (clicks.structured as { history: { firstSampleAt: string | null; sampledLinks: number } }).history;
    expect(firstSample.sampledLinks).toBe(1000);
    expect(Date.parse(firstSample.firstSampleAt ?? "")).toBeLessThanOrEqual(kept.lastSampleAt * 1000);
  } finally {
    await second.close();
  }
});

test("after the key changes, the file's links are not served: the other account starts an empty index", async () => {
  // `file` holds the user's 1,000 links from the test above; the admin key is another account on the same service.
  const other = await startSession({ baseUrl: sandbox.baseUrl, apiKey: sandbox.adminKey }, ["--index-file", file]);
  try {
    const answer = await other.call("find_links", { text: "fill0" });
    expect((answer.structured as { links: unknown[] }).links).toEqual([]);
    const shortened = await other.call("shorten_link", { url: "https://example.com/fill/0", metatitle: "The aardvark page", reuse: true });
    const id = (shortened.structured as { id: number }).id;
    expect(sandbox.store.state.links.find((link) => link.id === id)!.userId).not.toBe(2);
  } finally {
    await other.close();
  }
  expect(readFileSync(file, "utf8")).not.toContain(sandbox.adminKey);
  expect(statSync(file).mode & 0o777).toBe(0o600);
});
