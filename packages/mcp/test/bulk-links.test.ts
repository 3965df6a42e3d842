/**
 * update_links and delete_links (issue 53): a first call previews and changes nothing; only a second
 * call passing the preview's confirmation back with the same arguments makes the change, link by
 * link; a confirmation of another preview is refused before any request, and a link changed since
 * the preview is left alone. In memory, served as over stdio, against the sandbox.
 */
import { LinkShortClient, RateLimiter } from "@linkshort/client";
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { Client } from "@modelcontextprotocol/client";
import { addLinks } from "../../client/test/fill-links";
import type { BulkLinks } from "../src/tools/bulk-outputs";
import { connectInMemory } from "./in-memory";

let sandbox: Sandbox;
let mcp: Client;
let close: () => Promise<void>;
/** Links the searches find: there before the server's index first reads the account. */
let searched: number[];
let hundred: number[];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: { limit: 10_000, windowMs: 60_000 } });
  searched = fresh("searched", 4);
  hundred = fresh("hundred", 100);
  const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter() } });
  mcp = new Client({ name: "bulk-test", version: "1.0.0" });
  const connection = await connectInMemory(mcp, { client });
  close = () => connection.close();
});

afterAll(async () => {
  await close();
  await sandbox.close();
});

interface Answer {
  isError: boolean;
  text: string;
  structured: BulkLinks;
}

async function call(name: string, args: Record<string, unknown>, onprogress?: (progress: { progress: number; total?: number }) => void): Promise<Answer> {
  const result = await mcp.callTool({ name, arguments: args }, onprogress ? { onprogress } : undefined);
  const text = (result.content as Array<{ type: string; text?: string }>).find((part) => part.type === "text")?.text ?? "";
  expect(text).not.toContain(sandbox.userKey);
  return { isError: result.isError === true, text, structured: result.structuredContent as unknown as BulkLinks };
}

/** Requests that change links: updates and deletes. */
const writes = () => sandbox.requests.filter((request) => request.method === "PUT" || request.method === "DELETE").length;
const stored = (id: number) => sandbox.store.state.links.find((link) => link.id === id);
const fresh = (name: string, count: number) => addLinks(sandbox, count, { from: Date.now() - 60_000, perSecond: 50, name, title: (i) => `${name} ${i}` });

test("a preview changes nothing; its confirmation with the same arguments makes the change, link by link", async () => {
  const ids = fresh("previewed", 3);
  const before = writes();
  const args = { ids, set: { metatitle: "Spring sale", utm: { source: "newsletter" } } };
  const preview = await call("update_links", args);
  expect(preview.isError).toBe(false);
  expect(preview.structured).toMatchObject({ stage: "preview", counts: { "will change": 3 }, confirmation: expect.any(String) });
  expect(preview.structured.links.map((link) => link.id)).toEqual(ids);
  expect(preview.structured.links[0]!.changes).toHaveLength(2);
  expect(preview.structured.links[0]!.changes).toEqual(
    expect.arrayContaining([
      { field: "metatitle", from: "previewed 0", to: "Spring sale" },
      { field: "parameters", from: null, to: "utm_source=newsletter" },
    ]),
  );
  expect(preview.structured.notes.join(" ")).toMatch(/utm fields are written into parameters/);
  // 0 changed without a confirmation.
  expect(writes()).toBe(before);
  expect(ids.map((id) => stored(id)!.metatitle)).toEqual(["previewed 0", "previewed 1", "previewed 2"]);

  const done = await call("update_links", { ...args, confirmation: preview.structured.confirmation });
  expect(done.structured).toMatchObject({ stage: "confirmed", counts: { done: 3 }, confirmation: null });
  expect(writes()).toBe(before + 3);
  for (const id of ids) {
    expect(stored(id)).toMatchObject({
      metatitle: "Spring sale",
      parameters: [{ name: "utm_source", value: "newsletter" }],
      url: `https://example.com/previewed/${id}`,
    });
  }
  // Confirmed again, the links are no longer what the preview saw: nothing is written twice.
  const again = await call("update_links", { ...args, confirmation: preview.structured.confirmation });
  expect(again.structured.counts).toEqual({ skipped: 3 });
  expect(writes()).toBe(before + 3);
});

test("links chosen by a search are the ones find_links finds; unchanged links are left out", async () => {
  const ids = searched;
  const found = await mcp.callTool({ name: "find_links", arguments: { text: "searched", limit: 100 } });
  const foundIds = (found.structuredContent as { links: Array<{ id: number }> }).links.map((link) => link.id);
  // One link changed first through this server (a single link is one id): the index holds its new title.
  const one = { ids: [ids[1]], set: { metatitle: "Same" } };
  const single = await call("update_links", { ...one, confirmation: (await call("update_links", one)).structured.confirmation });
  expect(single.structured.counts).toEqual({ done: 1 });
  const preview = await call("update_links", { search: { text: "searched" }, set: { metatitle: "Same" } });
  expect(preview.structured.links.map((link) => link.id).sort()).toEqual([...foundIds].sort());
  expect(preview.structured.counts["will change"]).toBe(foundIds.length - 1);
  expect(preview.structured.links.find((link) => link.id === ids[1])).toMatchObject({ status: "unchanged" });
});

test("a confirmation of another preview (other links, other changes, the other tool, altered, another kind) is refused before any request", async () => {
  const ids = fresh("bound", 3);
  const args = { ids: ids.slice(0, 2), set: { metadescription: "Bound" } };
  const { confirmation } = (await call("update_links", args)).structured;
  const deletePreview = (await call("delete_links", { ids: ids.slice(0, 2) })).structured.confirmation!;
  const requests = sandbox.requests.length;
  const attempts = [
    { ...args, ids, confirmation },
    { ...args, set: { metadescription: "Other" }, confirmation },
    { ...args, confirmation: deletePreview },
    { ...args, confirmation: `${confirmation!.slice(0, -4)}AAAA` },
    // A preview's confirmation dressed as a run's "go on" (which the person is not asked about).
    { ...args, confirmation: confirmation!.replace(/^p/, "g") },
    { ...args, confirmation: "made-up" },
  ];
  for (const attempt of attempts) {
    const answer = await call("update_links", attempt);
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/^Invalid arguments for update_links: confirmation: .*Nothing was changed/);
  }
  expect(sandbox.requests.length).toBe(requests);
  expect(ids.map((id) => stored(id)!.metadescription)).toEqual(["", "", ""]);
});

test("a confirmation holds for the account whose preview it is: another key's server refuses it before any request", async () => {
  const ids = fresh("accounted", 2);
  const args = { ids, set: { metadescription: "Theirs" } };
  const { confirmation } = (await call("update_links", args)).structured;
  const adminClient = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.adminKey, rateLimit: { limiter: new RateLimiter() } });
  const otherAccount = new Client({ name: "bulk-other-account", version: "1.0.0" });
  const connection = await connectInMemory(otherAccount, { client: adminClient });
  try {
    const requests = sandbox.requests.length;
    const answer = await otherAccount.callTool({ name: "update_links", arguments: { ...args, confirmation } });
    expect(answer.isError).toBe(true);
    expect(JSON.stringify(answer.content)).toMatch(/confirmation: was made for another preview/);
    expect(sandbox.requests.length).toBe(requests);
  } finally {
    await connection.close();
  }
});

test("a link changed elsewhere between the preview and the confirmation is skipped, saying why; the others are done", async () => {
  const ids = fresh("raced", 3);
  const args = { ids, set: { url: "https://example.com/moved" } };
  const { confirmation } = (await call("update_links", args)).structured;
  // Someone else re-points the middle link, and deletes the last one.
  const elsewhere = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey });
  await elsewhere.links.update(ids[1]!, { url: "https://example.com/theirs" });
  await elsewhere.links.delete(ids[2]!);
  const done = await call("update_links", { ...args, confirmation });
  expect(done.structured.links.map((link) => link.status)).toEqual(["done", "skipped", "skipped"]);
  expect(done.structured.links[1]!.reason).toMatch(/changed since the preview.*now https:\/\/example\.com\/theirs.*not touched/);
  expect(done.structured.links[2]!.reason).toMatch(/no longer exists/);
  expect(stored(ids[0]!)!.url).toBe("https://example.com/moved");
  expect(stored(ids[1]!)!.url).toBe("https://example.com/theirs");
});

test("a link whose expiry, geotargeting or device targeting changed elsewhere since the preview is skipped; a password, which the service never shows, cannot be compared (the tool says so)", async () => {
  const ids = fresh("unseen", 4);
  const args = { ids, set: { metadescription: "Probe" } };
  const { confirmation } = (await call("update_links", args)).structured;
  const elsewhere = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey });
  const keep = async (id: number) => {
    const { details } = await elsewhere.links.get(id);
    return { url: details.longurl, metatitle: details.title };
  };
  await elsewhere.links.update(ids[0]!, { ...(await keep(ids[0]!)), expiry: `${new Date().getUTCFullYear() + 2}-01-01 00:00:00` });
  await elsewhere.links.update(ids[1]!, { ...(await keep(ids[1]!)), geotarget: [{ location: "Canada", link: "https://example.com/ca" }] });
  await elsewhere.links.update(ids[2]!, { ...(await keep(ids[2]!)), devicetarget: [{ device: "iPhone", link: "https://example.com/ios" }] });
  await elsewhere.links.update(ids[3]!, { ...(await keep(ids[3]!)), password: "secret1" });
  const done = await call("update_links", { ...args, confirmation });
  expect(done.structured.links.map((link) => link.status)).toEqual(["skipped", "skipped", "skipped", "done"]);
  expect(done.structured.links[0]!.reason).toMatch(
    /changed since the preview \(its short URL, long URL, title, description, expiry, geotargeting and device targeting/,
  );
  expect(ids.map((id) => stored(id)!.metadescription)).toEqual(["", "", "", "Probe"]);
  const listed = (await mcp.listTools()).tools.find((tool) => tool.name === "update_links")!;
  expect(listed.description).toContain(
    "Compared with the preview before each write: short URL, long URL, title, description, expiry, geotargeting and device targeting (a link changed in one is left alone); password, redirect type and parameters (so UTM fields too) cannot be",
  );
});

test("101 links are refused by name before any request", async () => {
  const requests = sandbox.requests.length;
  const ids = Array.from({ length: 101 }, (_, i) => i + 1);
  for (const tool of ["update_links", "delete_links"]) {
    const answer = await call(tool, tool === "update_links" ? { ids, set: { metatitle: "x" } } : { ids });
    expect(answer.isError).toBe(true);
    expect(answer.text).toBe(
      `Input validation error: Invalid arguments for tool ${tool}: must name at most 100 links: split them over several ${tool} calls at ids`,
    );
  }
  const searched = await call("delete_links", { search: { text: "fill", limit: 101 } });
  expect(searched.text).toMatch(/must be at most 100 at search\.limit/);
  expect(sandbox.requests.length).toBe(requests);
});

test("bad fields are named as the user gave them, before any request", async () => {
  const requests = sandbox.requests.length;
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ ids: [1, 2], set: { expiry: "tomorrow" } }, /must be a date and time formatted YYYY-MM-DD HH:MM:SS at set\.expiry/],
    [{ ids: [1, 2], set: { url: "ftp://example.com" } }, /must be a valid http or https URL at set\.url/],
    [{ ids: [1, 2], set: { custom: "one-alias" } }, /an alias names one link.* at set\.custom/],
    [{ ids: [1, 2], set: { utm: { source: " " } } }, /must not be empty at set\.utm\.source/],
    [{ ids: [1, 2], set: {} }, /must name at least one field to change at set/],
    [{ ids: [1, 1], set: { metatitle: "x" } }, /must not name a link twice \(1 is named twice\) at ids/],
    [{ ids: [1], search: { text: "x" }, set: { metatitle: "x" } }, /give either ids or search/],
  ];
  for (const [args, why] of cases) {
    const answer = await call("update_links", args);
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(why);
  }
  expect(sandbox.requests.length).toBe(requests);
});

test("a domain the account does not have is refused in the preview, with nothing to confirm", async () => {
  const ids = fresh("domained", 2);
  const preview = await call("update_links", { ids, set: { domain: "https://not-ours.example" } });
  expect(preview.structured.confirmation).toBeNull();
  expect(preview.structured.notes[0]).toMatch(/^set\.domain is refused: not a domain of this account/);
});

test("delete_links deletes 100 links found by a search, after its preview, reporting progress", async () => {
  const ids = hundred;
  const before = writes();
  const preview = await call("delete_links", { search: { text: "hundred" } });
  expect(preview.structured.counts).toEqual({ "will delete": 100 });
  expect(writes()).toBe(before);
  const seen: Array<{ progress: number; total?: number }> = [];
  const done = await call("delete_links", { search: { text: "hundred" }, confirmation: preview.structured.confirmation }, (progress) => seen.push(progress));
  expect(done.structured.counts).toEqual({ done: 100 });
  expect(ids.filter((id) => stored(id) !== undefined)).toEqual([]);
  expect(writes()).toBe(before + 100);
  expect(seen.length).toBeGreaterThanOrEqual(99);
  expect(seen.every((report, at) => report.total === 100 && (at === 0 || report.progress > seen[at - 1]!.progress))).toBe(true);
});

test("a confirmed run that reaches the call's deadline skips the links left and answers the confirmation that binds exactly them", async () => {
  // Its own sandbox and server: 2 requests a second (a link a second: its re-read and its write), and a
  // call deadline of 1.5 s, which spans at most three windows (6 requests) wherever in a window it starts.
  const slow = await startSandbox({ port: 0, rateLimit: { limit: 2, windowMs: 1_000 } });
  const ids = addLinks(slow, 6, { from: Date.now() - 60_000, perSecond: 10, name: "deadline", title: (i) => `deadline ${i}` });
  const client = new LinkShortClient({ baseUrl: slow.baseUrl, apiKey: slow.userKey, rateLimit: { limiter: new RateLimiter() } });
  const other = new Client({ name: "bulk-deadline-test", version: "1.0.0" });
  const connection = await connectInMemory(other, { client, callDeadlineMs: 1_500 });
  try {
    const ask = async (args: Record<string, unknown>) =>
      (await other.callTool({ name: "update_links", arguments: args })).structuredContent as unknown as BulkLinks;
    const args = { ids, set: { metadescription: "In parts" } };
    // The preview reads each link too (a request each): in parts, each call going on with the links left to read.
    let answer = await ask(args);
    for (let calls = 0; answer.stage === "preview" && answer.counts.skipped !== undefined && calls < 6; calls += 1) {
      answer = await ask({ ...args, confirmation: answer.confirmation });
    }
    expect(answer).toMatchObject({ stage: "preview", confirmation: expect.stringMatching(/^p6~/) });
    const statuses: string[][] = [];
    for (let calls = 0; answer.confirmation !== null && calls < 6; calls += 1) {
      answer = await ask({ ...args, confirmation: answer.confirmation });
      statuses.push(answer.links.map((link) => link.status));
      if (calls === 0 && answer.confirmation !== null) {
        // The "go on" for the links left binds them and these arguments, as the preview's did.
        const otherChange = await other.callTool({
          name: "update_links",
          arguments: { ...args, set: { metadescription: "Other" }, confirmation: answer.confirmation },
        });
        expect(otherChange.isError).toBe(true);
        expect(JSON.stringify(otherChange.content)).toMatch(/confirmation: was made for another preview/);
      }
    }
    // The first confirmed call could not do all six; each later one went on with the links left, none twice.
    expect(statuses.length).toBeGreaterThan(1);
    expect(statuses[0]).toContain("skipped");
    expect(statuses.flat().filter((status) => status === "done")).toHaveLength(6);
    expect(answer.confirmation).toBeNull();
    expect(ids.map((id) => slow.store.state.links.find((link) => link.id === id)!.metadescription)).toEqual(Array(6).fill("In parts"));
    expect(slow.requests.filter((request) => request.method === "PUT")).toHaveLength(6);
  } finally {
    await connection.close();
    await slow.close();
  }
});
