/**
 * shorten_link checks its link once: the tool's arguments go through the client's own check
 * (`checkLinkCreate`), and the checked link is what `createLink` and `links.create` send, not
 * checked again; shorten_links checks each of its links once. Counted on the fields every check
 * of such an input runs.
 */
import { LinkCreateSchema, LinkShortClient, RateLimiter } from "@linkshort/client";
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { Client } from "@modelcontextprotocol/client";
import { ServerLinkIndex } from "../src/account/server-index";
import { connectInMemory } from "./in-memory";

let sandbox: Sandbox;
let index: ServerLinkIndex;
let mcp: Client;
let connection: { close(): Promise<void> };

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 1000, windowMs: 60_000 } });
  const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter() } });
  index = new ServerLinkIndex(client, { minSyncIntervalMs: 0 });
  mcp = new Client({ name: "create-once-test", version: "1.0.0" });
  connection = await connectInMemory(mcp, { client, linkIndex: index });
});

afterAll(async () => {
  await mcp.close();
  await connection.close();
  await index.stop();
  await sandbox.close();
});

/** How many times the `field` of a create input is checked while `work` runs. */
async function checksDuring(work: () => Promise<unknown>, field: "url" | "utm" = "url"): Promise<number> {
  const check = jest.spyOn(LinkCreateSchema.shape[field]._zod, "run");
  try {
    await work();
    return check.mock.calls.length;
  } finally {
    check.mockRestore();
  }
}
const urlChecksDuring = (work: () => Promise<unknown>) => checksDuring(work, "url");

const shorten = async (args: Record<string, unknown>) => {
  const result = await mcp.callTool({ name: "shorten_link", arguments: args });
  expect(result.isError).not.toBe(true);
  return result.structuredContent as { id: number; shorturl: string; reused: boolean };
};

test("a shorten_link call checks its link once, with reuse or without", async () => {
  let made: { id: number } | undefined;
  expect(await urlChecksDuring(async () => (made = await shorten({ url: "https://example.com/checked-once", metatitle: "Once" })))).toBe(1);
  let again: { id: number; reused: boolean } | undefined;
  expect(await urlChecksDuring(async () => (again = await shorten({ url: "https://example.com/checked-once", metatitle: "Once", reuse: true })))).toBe(1);
  expect(again).toMatchObject({ id: made!.id, reused: true });
});

test("the client's check still names each bad field as the call's invalid arguments, before any request", async () => {
  const before = sandbox.requests.length;
  const result = await mcp.callTool({ name: "shorten_link", arguments: { url: "not a url", utm: { source: "  " }, alias: "x", reuse: true } });
  expect(result.isError).toBe(true);
  const text = (result.content as Array<{ text?: string }>).map((part) => part.text ?? "").join("\n");
  expect(text).toMatch(/must be a valid http or https URL at url/);
  expect(text).toMatch(/at utm\.source/);
  expect(text).toMatch(/at alias/);
  expect(sandbox.requests.length).toBe(before);
});

test("a shorten_links call checks each link once, its shared UTM fields included", async () => {
  const urls = ["https://example.com/bulk-once/a", "not a url", "https://example.com/bulk-once/c"];
  let answer: { structuredContent?: unknown } | undefined;
  const run = async () => (answer = await mcp.callTool({ name: "shorten_links", arguments: { urls, utm: { campaign: "once" }, reuse: true } }));
  const utmChecks = await checksDuring(async () => {
    expect(await urlChecksDuring(run)).toBe(3);
  }, "utm");
  expect(utmChecks).toBe(3);
  expect(answer!.structuredContent).toMatchObject({
    created: 2,
    failed: 1,
    results: [{ status: "created" }, { status: "failed", error: "url: must be a valid http or https URL" }, { status: "created" }],
  });
});

test("a shared field the client refuses refuses the whole shorten_links call, naming it, before any request", async () => {
  const before = sandbox.requests.length;
  const result = await mcp.callTool({
    name: "shorten_links",
    arguments: { urls: ["https://example.com/a", "https://example.com/b"], domain: "go.example.com", utm: { medium: "" } },
  });
  expect(result.isError).toBe(true);
  const text = (result.content as Array<{ text?: string }>).map((part) => part.text ?? "").join("\n");
  expect(text).toMatch(/must be a valid http or https URL at domain/);
  expect(text).toMatch(/at utm\.medium/);
  expect(sandbox.requests.length).toBe(before);
});
