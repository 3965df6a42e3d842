import { request } from "undici";
import { AuthenticationError, LinkShortClient, NotFoundError, PermissionError } from "@linkshort/client";
import { startSandbox, type Sandbox } from "@linkshort/sandbox";

async function raw(url: string, init: { method?: "GET" | "POST" | "PUT" | "DELETE"; headers?: Record<string, string>; body?: string } = {}) {
  const response = await request(url, { method: init.method ?? "GET", headers: init.headers, body: init.body });
  return { status: response.statusCode, text: await response.body.text(), type: String(response.headers["content-type"]) };
}

describe("sandbox security", () => {
  let sandbox: Sandbox;
  let alice: LinkShortClient;
  let mallory: LinkShortClient;
  let admin: LinkShortClient;
  const owned: Record<string, number> = {};

  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimit: { limit: 10_000, windowMs: 60_000 } });
    admin = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.adminKey });
    alice = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey });
    const { id } = await admin.users.create({ username: "mallory", email: "mallory@example.com", password: "secret" });
    mallory = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: (await admin.users.get(id)).apikey });
    owned.domain = (await alice.domains.create({ domain: "https://alice.example" })).id;
    owned.link = (await alice.links.create({ url: "https://example.com/alice", custom: "alice-link" })).id;
    owned.pixel = (await alice.pixels.create({ type: "gapixel", name: "GA", tag: "G-1" })).id;
    owned.qr = (await alice.qrCodes.create({ type: "text", data: "alice" })).id;
  });
  afterAll(() => sandbox.close());

  it("a missing or wrong key gets the deployed 403", async () => {
    for (const headers of [
      {} as Record<string, string>,
      { authorization: "Bearer nope" },
      { authorization: `Bearer ${sandbox.userKey}x` },
      { authorization: sandbox.userKey },
    ]) {
      const answer = await raw(`${sandbox.baseUrl}/api/account`, { headers });
      expect(answer.status).toBe(403);
      expect(JSON.parse(answer.text)).toEqual({ error: 1, message: "A valid API key is required to use this service." });
    }
    const wrongKey = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: "0".repeat(32) });
    await expect(wrongKey.account.get()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it("keys are compared in constant time (digests through timingSafeEqual)", () => {
    const crypto = jest.requireActual<typeof import("node:crypto")>("node:crypto");
    const spy = jest.spyOn(crypto, "timingSafeEqual");
    expect(sandbox.store.userByKey(sandbox.userKey)?.username).toBe("demo");
    expect(spy).toHaveBeenCalled();
    const [a, b] = spy.mock.calls[0]!;
    expect((a as Buffer).length).toBe(32);
    expect((b as Buffer).length).toBe(32);
    spy.mockRestore();
    expect(sandbox.store.userByKey(sandbox.userKey.slice(0, -1))).toBeUndefined();
    expect(sandbox.store.userByKey("")).toBeUndefined();
  });

  it("a user key on every admin endpoint gets 403", async () => {
    const calls = [
      () => alice.plans.list(),
      () => alice.plans.subscribe(1, 2, { type: "monthly" }),
      () => alice.users.list(),
      () => alice.users.get(1),
      () => alice.users.create({ username: "eve", email: "eve@example.com", password: "secret" }),
      () => alice.users.delete(1),
      () => alice.users.loginLink(1),
    ];
    for (const call of calls) await expect(Promise.resolve(call())).rejects.toBeInstanceOf(PermissionError);
  });

  it("another user can neither see, change nor delete what is not theirs", async () => {
    const attempts: Array<[string, () => Promise<unknown>]> = [
      ["domains.update", () => mallory.domains.update(owned.domain!, { redirectroot: "https://evil.example" })],
      ["domains.delete", () => mallory.domains.delete(owned.domain!)],
      ["links.get", () => mallory.links.get(owned.link!)],
      ["links.update", () => mallory.links.update(owned.link!, { url: "https://evil.example" })],
      ["links.delete", () => mallory.links.delete(owned.link!)],
      ["pixels.update", () => mallory.pixels.update(owned.pixel!, { tag: "evil" })],
      ["pixels.delete", () => mallory.pixels.delete(owned.pixel!)],
      ["qrCodes.get", () => mallory.qrCodes.get(owned.qr!)],
      ["qrCodes.update", () => mallory.qrCodes.update(owned.qr!, { type: "text", data: "evil" })],
      ["qrCodes.delete", () => mallory.qrCodes.delete(owned.qr!)],
    ];
    for (const [name, attempt] of attempts) {
      const error = await attempt().catch((e: unknown) => e);
      expect([name, error]).toEqual([name, expect.any(NotFoundError)]);
    }
    expect((await mallory.domains.list()).items).toEqual([]);
    expect((await mallory.links.list()).items).toEqual([]);
    expect((await mallory.pixels.list()).items).toEqual([]);
    expect((await mallory.qrCodes.list()).items).toEqual([]);
    expect((await mallory.splashPages.list()).items).toEqual([]);
    expect((await alice.links.get(owned.link!)).details.longurl).toBe("https://example.com/alice");
    expect((await alice.domains.list()).items.find((d) => d.id === owned.domain)?.redirectroot).toBe("");
  });

  it("oversized bodies, deep nesting, malformed JSON, traversal and non-numeric ids get clear answers, and the server keeps serving", async () => {
    const headers = { authorization: `Bearer ${sandbox.userKey}`, "content-type": "application/json" };
    const big = await raw(`${sandbox.baseUrl}/api/url/add`, {
      method: "POST",
      headers,
      body: JSON.stringify({ url: `https://example.com/${"a".repeat(2 * 1024 * 1024)}` }),
    }).catch(() => ({ status: 413, text: "" }));
    expect(big.status).toBe(413);
    const deep = await raw(`${sandbox.baseUrl}/api/url/add`, { method: "POST", headers, body: `${"[".repeat(100_000)}${"]".repeat(100_000)}` });
    expect(JSON.parse(deep.text)).toMatchObject({ error: 1 });
    const malformed = await raw(`${sandbox.baseUrl}/api/url/add`, { method: "POST", headers, body: "{nope" });
    expect(JSON.parse(malformed.text)).toEqual({ error: 1, message: "The request body is not valid JSON." });
    const traversal = await raw(`${sandbox.baseUrl}/api/url/add`, {
      method: "POST",
      headers,
      body: JSON.stringify({ url: "https://example.com", custom: "../../etc/passwd" }),
    });
    expect(JSON.parse(traversal.text)).toMatchObject({ error: 1 });
    expect((await raw(`${sandbox.baseUrl}/..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);
    const nonNumeric = await raw(`${sandbox.baseUrl}/api/url/abc`, { headers });
    expect(nonNumeric.status).toBe(404);
    expect(nonNumeric.type).toContain("text/html");
    await expect(alice.account.get()).resolves.toMatchObject({ username: "demo" });
  });
});
