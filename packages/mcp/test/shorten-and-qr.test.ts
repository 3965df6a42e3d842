/**
 * Issue 30 through the built server and the SDK client: shorten_link's reuse, the bulk
 * shorten_links (a result per URL, bounded, stopping at its deadline), UTM fields reaching the
 * server's parameters, and QR codes answered with their image as MCP image content.
 */
import { LinkShortClient } from "@linkshort/client";
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { qrImageUrl } from "../src/tools/qr-image";
import { startSession, type Session } from "./helpers";

let sandbox: Sandbox;
let session: Session;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: { limit: 1000, windowMs: 60_000 } });
  session = await startSession({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey });
});

afterAll(async () => {
  const said = [...session.transcript, session.stderr()].join("\n");
  await session.close();
  await sandbox.close();
  expect(said).not.toContain(sandbox.userKey);
});

const creates = () => sandbox.requests.filter((request) => request.method === "POST" && request.path === "/api/url/add").length;

describe("shorten_link reuse", () => {
  test("a second shorten of the same URL with reuse gives the same link back, saying so, without a create", async () => {
    const first = await session.call("shorten_link", { url: "https://example.com/form-twice" });
    expect(first.structured).toMatchObject({ reused: false });
    const before = creates();
    const second = await session.call("shorten_link", { url: "https://example.com/form-twice", reuse: true });
    expect(second.structured).toEqual({
      id: (first.structured as { id: number }).id,
      shorturl: (first.structured as { shorturl: string }).shorturl,
      reused: true,
    });
    expect(creates()).toBe(before);
    // Without reuse (the default), the server is asked to create; this one hands back its existing link, and the answer says so.
    const third = await session.call("shorten_link", { url: "https://example.com/form-twice" });
    expect(third.structured).toMatchObject({ id: (first.structured as { id: number }).id, reused: true });
    expect(creates()).toBe(before + 1);
    // An alias that differs is a different link.
    const aliased = await session.call("shorten_link", { url: "https://example.com/form-twice", custom: "form-twice-b", reuse: true });
    expect(aliased.structured).toMatchObject({ reused: false, shorturl: expect.stringContaining("form-twice-b") });
  });

  test("the reuse argument is described for the model", async () => {
    const { tools } = await session.client.listTools();
    const properties = tools.find((tool) => tool.name === "shorten_link")!.inputSchema.properties as Record<string, { type?: string; description?: string }>;
    expect(properties.reuse).toMatchObject({ type: "boolean", description: expect.stringMatching(/exactly the one asked for.*password.*Default false/) });
  });

  test("with reuse, a password-protected link made elsewhere is never handed to a request without a password", async () => {
    const made = await new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey }).links.create({
      url: "https://example.com/protected-elsewhere",
      password: "secret-9",
    });
    const answer = await session.call("shorten_link", { url: "https://example.com/protected-elsewhere", reuse: true });
    const id = (answer.structured as { id: number }).id;
    expect(id).not.toBe(made.id);
    expect(sandbox.store.state.links.find((link) => link.id === id)!.password).toBeNull();
  });
});

describe("UTM fields", () => {
  test("utm on shorten_link and update_links reaches the server's parameters", async () => {
    const made = await session.call("shorten_link", { url: "https://example.com/utm", utm: { source: "newsletter", medium: "email", campaign: "launch" } });
    expect(made.isError).toBe(false);
    const id = (made.structured as { id: number }).id;
    const stored = () => sandbox.store.state.links.find((link) => link.id === id)!.parameters;
    expect(stored()).toEqual([
      { name: "utm_source", value: "newsletter" },
      { name: "utm_medium", value: "email" },
      { name: "utm_campaign", value: "launch" },
    ]);
    const change = { ids: [id], set: { utm: { source: "social", content: "banner" } } };
    const preview = await session.call("update_links", change);
    await session.call("update_links", { ...change, confirmation: (preview.structured as { confirmation: string }).confirmation });
    expect(stored()).toEqual([
      { name: "utm_source", value: "social" },
      { name: "utm_content", value: "banner" },
    ]);
    const bad = await session.call("shorten_link", { url: "https://example.com/utm", utm: { source: "  " } });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/utm\.source/);
  });

  test("the utm field is described in the link tools", async () => {
    const { tools } = await session.client.listTools();
    for (const name of ["shorten_link", "update_links", "shorten_links"]) {
      const listed = tools.find((tool) => tool.name === name)!.inputSchema.properties as Record<
        string,
        { description?: string; properties?: Record<string, unknown> }
      >;
      // update_links takes the link's fields under set.
      const properties = (name === "update_links" ? listed.set?.properties : listed) as Record<string, { description?: string; properties?: object }>;
      expect(properties.utm?.description).toMatch(/utm_source/);
      expect(Object.keys(properties.utm?.properties ?? {}).sort()).toEqual(["campaign", "content", "medium", "source", "term"]);
    }
  });
});

describe("shorten_links", () => {
  test("counts what the server made: repeats of a URL are reused, not created", async () => {
    const before = creates();
    const links = () => sandbox.store.state.links.filter((link) => link.url.startsWith("https://example.com/repeat-")).length;
    const urls = [
      "https://example.com/repeat-a",
      "https://example.com/repeat-b",
      "https://example.com/repeat-a",
      "https://example.com/repeat-c",
      "https://example.com/repeat-b",
    ];
    const answer = await session.call("shorten_links", { urls });
    expect(links()).toBe(3);
    expect(answer.structured).toMatchObject({ created: 3, reused: 2, failed: 0, skipped: 0 });
    const { results } = answer.structured as { results: Array<{ status: string; id: number }> };
    expect(results.map((result) => result.status)).toEqual(["created", "created", "reused", "created", "reused"]);
    expect(results[2]!.id).toBe(results[0]!.id);
    expect(creates() - before).toBe(5);
  });

  const urls = Array.from({ length: 20 }, (_, index) => (index === 7 ? "not a url" : `https://example.com/bulk-mcp/${index}`));

  test("20 URLs give a result each, in order, the bad one failed with its field; again with reuse, all reused", async () => {
    const before = creates();
    const answer = await session.call("shorten_links", { urls, utm: { campaign: "bulk" } });
    expect(answer.isError).toBe(false);
    const { results, ...tally } = answer.structured as { results: Array<{ url: string; status: string; error?: string; shorturl?: string }> };
    expect(tally).toEqual({ created: 19, reused: 0, failed: 1, skipped: 0 });
    expect(results.map((result) => result.url)).toEqual(urls);
    expect(results[7]).toEqual({ url: "not a url", status: "failed", error: "url: must be a valid http or https URL" });
    expect(creates() - before).toBe(19);
    expect(
      sandbox.store.state.links.filter(
        (link) => link.url.startsWith("https://example.com/bulk-mcp/") && link.parameters.some((p) => p.name === "utm_campaign"),
      ),
    ).toHaveLength(19);

    const again = await session.call("shorten_links", { urls: urls.filter((url) => url !== "not a url"), utm: { campaign: "bulk" }, reuse: true });
    expect(again.structured).toMatchObject({ created: 0, reused: 19, failed: 0, skipped: 0 });
    expect(creates() - before).toBe(19);
  });

  test("more than 50 URLs are refused before any request, saying how to proceed", async () => {
    const before = sandbox.requests.length;
    const answer = await session.call("shorten_links", { urls: Array.from({ length: 51 }, (_, index) => `https://example.com/${index}`) });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/must hold at most 50 URLs: split the list and call shorten_links once per part at urls/);
    expect(sandbox.requests.length).toBe(before);
  });
});

test("shorten_links past its deadline answers with what it did and the URLs skipped", async () => {
  const slow = await startSandbox({ port: 0, rateLimit: { limit: 1000, windowMs: 60_000 } });
  const quick = await startSession({ baseUrl: slow.baseUrl, apiKey: slow.userKey }, ["--deadline", "1"]);
  try {
    slow.faults.set([{ kind: "delay", route: "^POST /api/url/add", delayMs: 400 }]);
    const started = Date.now();
    const answer = await quick.call("shorten_links", { urls: Array.from({ length: 10 }, (_, index) => `https://example.com/slow/${index}`) });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(answer.isError).toBe(false);
    const { results, created, skipped } = answer.structured as { results: Array<{ status: string; error?: string }>; created: number; skipped: number };
    expect(created).toBeGreaterThanOrEqual(1);
    expect(created + skipped).toBe(10);
    expect(results.at(-1)).toMatchObject({ status: "skipped", error: expect.stringMatching(/deadline; call shorten_links again/) });
    expect(slow.store.state.links.filter((link) => link.url.startsWith("https://example.com/slow/"))).toHaveLength(created);
  } finally {
    await quick.close();
    await slow.close();
  }
}, 30_000);

describe("QR codes with their image", () => {
  type Content = Array<{ type: string; data?: string; mimeType?: string }>;

  async function imageOf(name: string, args: Record<string, unknown>) {
    const result = await session.client.callTool({ name, arguments: args });
    expect(result.isError).toBeFalsy();
    const image = (result.content as Content).find((part) => part.type === "image");
    return { structured: result.structuredContent as Record<string, unknown> & { image: { bytes?: number; unavailable?: string } }, image };
  }

  test("create_qr_code and get_qr_code answer with the service's PNG as image content, next to the structured data", async () => {
    const created = await imageOf("create_qr_code", { type: "email", data: { email: "team@example.com", subject: "Hello" }, name: "mail" });
    const { id, link } = created.structured as unknown as { id: number; link: string };
    const png = Buffer.from(await (await fetch(`${link}.png`)).arrayBuffer());
    expect(created.image).toMatchObject({ mimeType: "image/png" });
    expect(Buffer.from(created.image!.data!, "base64").equals(png)).toBe(true);
    expect(created.structured.image).toEqual({ url: `${link}.png`, bytes: png.length });

    const got = await imageOf("get_qr_code", { id });
    expect(got.structured).toMatchObject({ details: { id, link, name: "mail" }, stats: { clicks: expect.any(Number) } });
    expect(Buffer.from(got.image!.data!, "base64").equals(png)).toBe(true);
  });

  test("a form-based client's JSON text for an e-mail code is read as the object (n8n's MCP Client in manual mode sends text)", async () => {
    const created = await imageOf("create_qr_code", { type: "email", data: ' {"email": "desk@example.com", "subject": "Hi"} ', name: "typed" });
    const { id } = created.structured as unknown as { id: number };
    expect(sandbox.store.state.qrs.find((qr) => qr.id === id)?.data).toMatchObject({ email: "desk@example.com", subject: "Hi" });
    const before = sandbox.requests.length;
    const broken = await session.call("create_qr_code", { type: "email", data: '{"email": "desk@example.com"' });
    expect(broken.isError).toBe(true);
    expect(broken.text).toMatch(/data/);
    const text = await session.call("create_qr_code", { type: "text", data: '{"kept": "as text"}' });
    expect(text.isError).toBeFalsy();
    expect(sandbox.requests.slice(before).filter((request) => request.method === "POST")).toHaveLength(1);
  });

  test("an unknown QR code is Not found", async () => {
    const missing = await session.call("get_qr_code", { id: 999_999 });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/^Not found/);
  });
});

test("a QR image is read only from the base URL's host, over http or https, without credentials in the address", () => {
  expect(qrImageUrl("https://short.example.com/qr/abc123", "https://short.example.com")).toEqual({ url: "https://short.example.com/qr/abc123.png" });
  expect(qrImageUrl("https://user:pw@short.example.com/qr/abc123", "https://short.example.com")).toEqual({ url: "https://short.example.com/qr/abc123.png" });
  expect(qrImageUrl("http://169.254.169.254/latest", "https://short.example.com")).toEqual({
    reason: expect.stringMatching(/served from 169\.254\.169\.254, not from the host of LINKSHORT_BASE_URL/),
  });
  expect(qrImageUrl("file:///etc/passwd", "https://short.example.com")).toEqual({ reason: expect.stringMatching(/not an http or https address/) });
});
