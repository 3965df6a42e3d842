/**
 * Reuse after a restart at the real rate (30 requests a minute), the row's link older than the newest
 * page of a 10,000-link account, other requests already spent in the key's minute: the record of the
 * links made finds the link's id itself, whatever the new index has read, and one GET confirms it.
 */
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { createLink, LinkIndex, LinkShortClient, MadeLinks, NOT_REUSED, RateLimiter } from "../src";
import { addLinks } from "./fill-links";

const RATE = 30;
let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox({ seed: "minimal", rateLimit: { limit: RATE, windowMs: 60_000 } });
});
afterEach(() => sandbox.close());

/** A new n8n process: a new client (its own limiter) and an empty link index. */
const restarted = () => ({
  client: new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter() } }),
  index: new LinkIndex({ minSyncIntervalMs: 0 }),
});
const apiRequests = (from: number) => sandbox.requests.slice(from).filter((request) => request.path.startsWith("/api/"));

/** The record as n8n hands it to an execution after a restart: parsed from the JSON it saved. */
function reloaded(record: MadeLinks): MadeLinks {
  const loaded = new MadeLinks();
  loaded.merge(JSON.parse(JSON.stringify(record.state())));
  return loaded;
}

describe(`reuse after a restart at ${RATE} requests a minute, the link below 9,999 newer ones`, () => {
  it.each([
    ["an alias", { url: "https://example.com/deep-row", custom: "deep-row" }],
    ["an alias and a password", { url: "https://example.com/deep-locked", custom: "deep-locked", password: "secret-deep" }],
    ["neither", { url: "https://example.com/deep-plain", metatitle: "Deep" }],
  ])("with %s, 5 other requests spent first: the record's link, reused with one GET beside the index's read, no create", async (_name, row) => {
    const record = new MadeLinks();
    const first = restarted();
    const made = await createLink(first.client, first.index, row, { reuse: true, record });
    addLinks(sandbox, 9_999, { from: Date.now() + 2_000, perSecond: 1, name: "later" });

    const { client, index } = restarted();
    for (let i = 0; i < 5; i += 1) await client.account.get();
    const reasons: string[] = [];
    const before = sandbox.requests.length;
    const again = await createLink(client, index, row, { reuse: true, record: reloaded(record), onNotReused: (reason) => reasons.push(reason) });
    expect(again).toEqual({ id: made.id, shorturl: made.shorturl, reused: true });
    expect(reasons).toEqual([]);
    const requests = apiRequests(before);
    expect(requests.filter((request) => request.method === "POST")).toHaveLength(0);
    expect(requests.filter((request) => request.path === `/api/url/${made.id}`)).toHaveLength(1);
    expect(index.freshness().complete).toBe(false);
  });

  it("a link changed elsewhere since it was made is not handed back, and the sentence names what differs", async () => {
    const row = { url: "https://example.com/deep-changed" };
    const record = new MadeLinks();
    const first = restarted();
    const made = await createLink(first.client, first.index, row, { reuse: true, record });
    sandbox.store.state.links.find((link) => link.id === made.id)!.metatitle = "Edited elsewhere";
    addLinks(sandbox, 9_999, { from: Date.now() + 2_000, perSecond: 1, name: "later" });

    const { client, index } = restarted();
    for (let i = 0; i < 5; i += 1) await client.account.get();
    const reasons: string[] = [];
    const again = await createLink(client, index, row, { reuse: true, record: reloaded(record), onNotReused: (reason) => reasons.push(reason) });
    expect(again.id).not.toBe(made.id);
    expect(reasons).toEqual([NOT_REUSED.differs(["metatitle"])]);
  });

  it("until the index has read every link, a long URL it has not met is not said to be on no link: the account is still being read", async () => {
    addLinks(sandbox, 10_000, { from: Date.now() - 20_000_000, perSecond: 1, name: "older" });
    const { client, index } = restarted();
    for (let i = 0; i < 5; i += 1) await client.account.get();
    const reasons: string[] = [];
    await createLink(
      client,
      index,
      { url: "https://example.com/never-shortened" },
      { reuse: true, record: new MadeLinks(), onNotReused: (reason) => reasons.push(reason) },
    );
    expect(index.freshness().complete).toBe(false);
    expect(reasons).toEqual([NOT_REUSED.stillReading]);
    expect(NOT_REUSED.stillReading).not.toContain(NOT_REUSED.noLink);
  });
});
