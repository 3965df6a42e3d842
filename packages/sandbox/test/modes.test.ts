import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { LinkShortClient } from "@linkshort/client";
import { startSandbox, type Mode, type Sandbox } from "@linkshort/sandbox";

async function rawJson(sandbox: Sandbox, key: string, path: string, init: { method?: "GET" | "POST" | "PUT"; body?: unknown } = {}) {
  const response = await request(`${sandbox.baseUrl}${path}`, {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  const text = await response.body.text();
  // The raw answers are probed field by field, in each mode's own shape.
  return {
    status: response.statusCode,
    text,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    json: text ? (JSON.parse(text) as Record<string, any>) : undefined,
    type: String(response.headers["content-type"]),
  };
}

describe("quirk modes: the raw answers", () => {
  const sandboxes = {} as Record<Mode, Sandbox>;
  beforeAll(async () => {
    sandboxes.deployed = await startSandbox({ mode: "deployed", rateLimit: { limit: 10_000, windowMs: 60_000 } });
    sandboxes.document = await startSandbox({ mode: "document", rateLimit: { limit: 10_000, windowMs: 60_000 } });
  });
  afterAll(async () => {
    await sandboxes.deployed.close();
    await sandboxes.document.close();
  });

  it('deployed: escaped slashes, error "0" in lists, the overlay array, shorturl on update, userid on user add, extra id, string stats, HTML 404', async () => {
    const s = sandboxes.deployed;
    const list = await rawJson(s, s.userKey, "/api/urls");
    expect(list.text).toContain("https:\\/\\/");
    expect(list.json!.error).toBe("0");
    expect(list.json!.data.urls[0].clicks).toEqual(expect.any(String));
    expect((await rawJson(s, s.userKey, "/api/overlay")).json!.data.overlay).toHaveLength(2);
    const created = (await rawJson(s, s.userKey, "/api/url/add", { method: "POST", body: { url: "https://example.com/m" } })).json!;
    const updated = (await rawJson(s, s.userKey, `/api/url/${created.id}/update`, { method: "PUT", body: { url: "https://example.com/n" } })).json!;
    expect(Object.keys(updated).sort()).toEqual(["error", "id", "shorturl"]);
    const single = (await rawJson(s, s.userKey, "/api/url/1")).json!;
    expect(single.id).toBe(1);
    expect(single.data.topCountries).toEqual(expect.objectContaining({ Canada: expect.any(String) }));
    const fresh = (await rawJson(s, s.userKey, `/api/url/${created.id}`)).json!;
    expect(fresh.data.topCountries).toBe(0);
    expect(fresh.details.location).toEqual([]);
    const user = (await rawJson(s, s.adminKey, "/api/user/add", { method: "POST", body: { username: "quirk", email: "q@example.com", password: "secret" } }))
      .json!;
    expect(Object.keys(user).sort()).toEqual(["error", "message", "userid"]);
    const unknown = await rawJson(s, s.userKey, "/api/nothing-here").catch(() => undefined);
    expect(unknown).toBeUndefined();
    const page = await request(`${s.baseUrl}/api/nothing-here`, { headers: { authorization: `Bearer ${s.userKey}` } });
    expect(page.statusCode).toBe(404);
    expect(await page.body.text()).toContain("<html>");
    const wrongMethod = await request(`${s.baseUrl}/api/urls`, { method: "DELETE", headers: { authorization: `Bearer ${s.userKey}` } });
    expect(wrongMethod.statusCode).toBe(405);
    await wrongMethod.body.dump();
  });

  it("document: shapes exactly as docs/api.md describes", async () => {
    const s = sandboxes.document;
    const list = await rawJson(s, s.userKey, "/api/urls");
    expect(list.text).not.toContain("\\/");
    expect(list.json!.error).toBe(0);
    expect((await rawJson(s, s.userKey, "/api/overlay")).json!.data.cta).toHaveLength(2);
    const created = (await rawJson(s, s.userKey, "/api/url/add", { method: "POST", body: { url: "https://example.com/m" } })).json!;
    expect(Object.keys(created).sort()).toEqual(["error", "id", "shorturl"]);
    const updated = (await rawJson(s, s.userKey, `/api/url/${created.id}/update`, { method: "PUT", body: { url: "https://example.com/n" } })).json!;
    expect(Object.keys(updated).sort()).toEqual(["error", "id", "short"]);
    const single = (await rawJson(s, s.userKey, "/api/url/1")).json!;
    expect(Object.keys(single).sort()).toEqual(["data", "details", "error"]);
    expect(single.data.clicks).toBe(120);
    expect(single.data.topCountries.Canada).toEqual(expect.any(Number));
    const qr = (await rawJson(s, s.userKey, "/api/qr/1")).json!;
    expect(qr.data.topCountries.Canada).toEqual(expect.any(String));
    const user = (await rawJson(s, s.adminKey, "/api/user/add", { method: "POST", body: { username: "quirk", email: "q@example.com", password: "secret" } }))
      .json!;
    expect(user).toEqual({ error: 0, message: "User has been registered.", data: { id: expect.any(Number), email: "q@example.com", username: "quirk" } });
    const unknown = await rawJson(s, s.userKey, "/api/nothing-here");
    expect(unknown).toMatchObject({ status: 404, json: { error: 1 } });
  });

  it.each(["deployed", "document"] as const)("%s: pagination defaults and edges (limit=0 and junk mean 15, page below 1 means 1)", async (mode) => {
    const s = sandboxes[mode];
    const client = new LinkShortClient({ baseUrl: s.baseUrl, apiKey: s.userKey });
    for (let i = 0; i < 20; i += 1) await client.links.create({ url: `https://example.com/page/${mode}/${i}` });
    const zero = (await rawJson(s, s.userKey, "/api/urls?limit=0")).json!.data;
    expect(zero).toMatchObject({ perpage: 15, currentpage: 1, result: 15 });
    expect((await rawJson(s, s.userKey, "/api/urls?limit=abc&page=-3")).json!.data).toMatchObject({ perpage: 15, currentpage: 1 });
    const last = (await rawJson(s, s.userKey, `/api/urls?limit=10&page=${zero.maxpage * 2}`)).json!.data;
    expect(last.urls).toEqual([]);
    const end = (await rawJson(s, s.userKey, `/api/urls?page=${zero.maxpage}`)).json!.data;
    expect(end.nextpage).toBe(mode === "deployed" ? zero.maxpage + 1 : zero.maxpage);
    const all = await client.links.list().toArray();
    expect(all).toHaveLength(s.store.state.links.filter((l) => l.userId === 2).length);
  });
});

describe("storage and the CLI", () => {
  it("--data keeps state across restarts", async () => {
    const dataFile = join(mkdtempSync(join(tmpdir(), "linkshort-data-")), "state.json");
    const first = await startSandbox({ dataFile });
    const client = new LinkShortClient({ baseUrl: first.baseUrl, apiKey: first.userKey });
    const { id } = await client.links.create({ url: "https://example.com/kept", custom: "kept-link" });
    const keys = { admin: first.adminKey, user: first.userKey };
    await first.close();
    const second = await startSandbox({ dataFile });
    expect({ admin: second.adminKey, user: second.userKey }).toEqual(keys);
    const again = new LinkShortClient({ baseUrl: second.baseUrl, apiKey: second.userKey });
    expect((await again.links.get(id)).details.longurl).toBe("https://example.com/kept");
    await second.close();
  });

  it("linkshort-sandbox prints its URL and keys and serves", async () => {
    const cli = spawn(process.execPath, [join(__dirname, "../dist/cli.js"), "--port", "0", "--seed", "demo", "--json"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        cli.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString()));
        cli.once("exit", (code) => reject(new Error(`exited ${code}`)));
      });
      const { baseUrl, adminKey, userKey } = JSON.parse(line) as Record<string, string>;
      expect(adminKey).toMatch(/^[a-f0-9]{32}$/);
      const client = new LinkShortClient({ baseUrl: baseUrl!, apiKey: userKey! });
      expect((await client.links.list()).items.length).toBeGreaterThan(0);
    } finally {
      cli.kill("SIGTERM");
    }
  });
});
