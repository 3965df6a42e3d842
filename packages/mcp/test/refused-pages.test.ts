/**
 * find_links on a server that refuses a large page with the deployed servers' error envelope
 * ("The limit must be between 1 and 100.", issue 43): the index's sync falls back to a size the
 * server gives, so a link that exists is found.
 */
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { fillLinks } from "../../client/test/fill-links";
import { startSession, type Session } from "./helpers";

let sandbox: Sandbox;
let session: Session;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: "minimal", rateLimit: { limit: 1_000_000, windowMs: 60_000 }, maxPageSize: 100, oversizedPages: "refuse" });
  fillLinks(sandbox, 50);
  session = await startSession({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey });
});
afterAll(async () => {
  await session.close();
  await sandbox.close();
});

test("find_links finds the one link titled aardvark among 50", async () => {
  const aardvark = sandbox.store.state.links.find((link) => link.alias === "fill0")!;
  const found = await session.call("find_links", { text: "aardvark" });
  expect(found.isError).toBe(false);
  expect(found.structured).toMatchObject({ matches: 1, links: [{ id: aardvark.id, alias: "fill0" }] });
}, 30_000);
