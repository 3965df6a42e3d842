/**
 * A stored link may lack fields (written by an earlier sandbox, or pushed by a test): every rule
 * reads a missing field as its default, and an update writes the defaults in.
 */
import { LinkShortClient } from "@linkshort/client";
import { emptyStats, startSandbox, type Sandbox } from "@linkshort/sandbox";
import type { LinkRecord } from "../src/model/link-record";

let sandbox: Sandbox;
let client: LinkShortClient;

beforeEach(async () => {
  sandbox = await startSandbox({ seed: "minimal", rateLimit: { limit: 10_000, windowMs: 60_000 } });
  client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey });
});
afterEach(() => sandbox.close());

/** A link as an earlier sandbox wrote it: no password, expiry, title or description. */
function pushLinkWithoutOptionalFields(url: string): number {
  const id = sandbox.store.nextId("links");
  const link = {
    id,
    userId: 2,
    alias: `old${id}`,
    domain: null,
    url,
    type: "direct",
    geotarget: [],
    devicetarget: [],
    parameters: [],
    date: "2026-01-01 00:00:00",
    stats: emptyStats(),
  };
  sandbox.store.state.links.push(link as unknown as LinkRecord);
  return id;
}

test("an update of such a link writes the defaults in: its details have a title, a description and an expiry", async () => {
  const id = pushLinkWithoutOptionalFields("https://example.com/old");
  await client.links.update(id, { url: "https://example.com/old-moved" });
  const { details } = await client.links.get(id);
  expect(details).toMatchObject({ longurl: "https://example.com/old-moved", title: "", description: "", expiry: null });
  expect(sandbox.store.state.links.find((link) => link.id === id)).toMatchObject({ password: null, expiry: null, metatitle: "", metadescription: "" });
});

test("a create with such a link's URL and no options hands that link back, as deployed servers do with the same URL and options", async () => {
  const id = pushLinkWithoutOptionalFields("https://example.com/same");
  expect((await client.links.create({ url: "https://example.com/same" })).id).toBe(id);
  expect((await client.links.create({ url: "https://example.com/same", metatitle: "Another" })).id).not.toBe(id);
});
