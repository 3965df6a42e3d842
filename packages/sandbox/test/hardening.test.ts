import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { LinkShortClient } from "@linkshort/client";
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { RateWindows } from "../src/http/rate-windows";

const temporaryFolder = () => mkdtempSync(join(tmpdir(), "linkshort-hardening-"));

async function raw(url: string, init: { method?: "GET" | "POST" | "PUT" | "DELETE"; headers?: Record<string, string>; body?: string } = {}) {
  const response = await request(url, { method: init.method ?? "GET", headers: init.headers, body: init.body });
  return { status: response.statusCode, text: await response.body.text(), location: response.headers.location as string | undefined };
}

describe("the fault-injection endpoint", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowMs: 60_000 } });
  });
  afterEach(() => sandbox.faults.clear());
  afterAll(() => sandbox.close());

  const post = (headers: Record<string, string>, body: unknown) =>
    raw(`${sandbox.baseUrl}/__sandbox/faults`, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
  const rules = { rules: [{ kind: "html", route: "^GET /api/account$" }] };
  const account = async () => (await raw(`${sandbox.baseUrl}/api/account`, { headers: { authorization: `Bearer ${sandbox.userKey}` } })).text;

  it("refuses a request without the admin key, and a user's key, and changes nothing", async () => {
    const attempts: Array<Record<string, string>> = [
      { "content-type": "application/json" },
      { "content-type": "application/json", authorization: `Bearer ${sandbox.userKey}` },
    ];
    for (const headers of attempts) {
      const answer = await post(headers, rules);
      expect(answer.status).toBe(403);
      expect(JSON.parse(answer.text)).toMatchObject({ error: 1, message: expect.stringMatching(/admin API key/) });
    }
    const deleted = await raw(`${sandbox.baseUrl}/__sandbox/faults`, { method: "DELETE" });
    expect(deleted.status).toBe(403);
    expect(await account()).toContain('"username":"demo"');
  });

  it("accepts only JSON, so a web page's form or text/plain post cannot set faults", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      const answer = await post({ "content-type": type, authorization: `Bearer ${sandbox.adminKey}` }, rules);
      expect([type, answer.status]).toEqual([type, 415]);
    }
    const missing = await post({ authorization: `Bearer ${sandbox.adminKey}` }, rules);
    expect(missing.status).toBe(415);
    expect(await account()).toContain('"username":"demo"');
  });

  it("with the admin key and JSON, sets faults", async () => {
    const answer = await post({ "content-type": "application/json; charset=utf-8", authorization: `Bearer ${sandbox.adminKey}` }, rules);
    expect(answer.status).toBe(200);
    expect(await account()).toContain("Whoops");
  });

  it("names what is wrong in a rule", async () => {
    const headers = { "content-type": "application/json", authorization: `Bearer ${sandbox.adminKey}` };
    const cases: Array<[unknown, RegExp]> = [
      ["{nope", /not valid JSON/],
      [{ rules: "5xx" }, /rules must be an array/],
      [{ rules: [{ kind: "teapot" }] }, /rules\[0\]\.kind/],
      [{ rules: [{ kind: "5xx", probability: 2 }] }, /rules\[0\]\.probability/],
      [{ rules: [{ kind: "5xx", times: -1 }] }, /rules\[0\]\.times/],
      [{ rules: [{ kind: "delay", delayMs: 1e9 }] }, /rules\[0\]\.delayMs/],
      [{ rules: [{ kind: "5xx", when: "later" }] }, /rules\[0\]\.when/],
    ];
    for (const [body, message] of cases) {
      const answer = await post(headers, body);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text).message).toMatch(message);
    }
  });

  it("takes no backtracking regular expression as a route: a pathological one is refused and nothing is set", async () => {
    const headers = { "content-type": "application/json", authorization: `Bearer ${sandbox.adminKey}` };
    const evil = { rules: [{ kind: "5xx", route: "^GET /(a|a)+(a|a)+(a|a)+$" }] };
    const answer = await post(headers, evil);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text).message).toMatch(/rules\[0\]\.route/);
    expect(() => sandbox.faults.set(evil.rules)).toThrow(/route/);
    // Nothing was set: the request the pattern would have held is answered as usual.
    expect((await raw(`${sandbox.baseUrl}/api/${"a".repeat(27)}!`, { headers: { authorization: `Bearer ${sandbox.userKey}` } })).status).toBe(404);
    expect(await raw(`${sandbox.baseUrl}/health`)).toMatchObject({ status: 200 });
  });

  it("routes match by method and path: exact with ^ and $, by prefix, and * for any run of characters", async () => {
    const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, maxRetries: 0 });
    sandbox.faults.set([{ kind: "html", route: "^GET /api/url/*$" }]);
    await expect(client.links.get(1)).rejects.toThrow(/HTML page/);
    await expect(client.links.list()).resolves.toMatchObject({ currentpage: 1 });
    sandbox.faults.set([{ kind: "html", route: "^GET /api/urls" }]);
    await expect(client.links.list()).rejects.toThrow(/HTML page/);
    await expect(client.links.get(1)).resolves.toMatchObject({ details: { id: 1 } });
  });
});

describe("statistics keyed by what visitors send", () => {
  it("a Referer of constructor or __proto__ is counted like any other, and the link still reads", async () => {
    const sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowMs: 60_000 } });
    try {
      const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey });
      const { id, shorturl } = await client.links.create({ url: "https://example.com/proto", custom: "proto-referrers" });
      for (const referer of ["http://constructor/", "http://__proto__/", "http://toString/", "http://hasOwnProperty/", "http://constructor/"]) {
        expect((await raw(shorturl, { headers: { referer } })).status).toBe(302);
      }
      const answer = JSON.parse((await raw(`${sandbox.baseUrl}/api/url/${id}`, { headers: { authorization: `Bearer ${sandbox.userKey}` } })).text);
      expect(Object.entries(answer.data.topReferrers as Record<string, string>).sort()).toEqual([
        ["__proto__", "1"],
        ["constructor", "2"],
        ["hasownproperty", "1"],
        ["tostring", "1"],
      ]);
      const { stats } = await client.links.get(id);
      expect(stats.clicks).toBe(5);
      expect(stats.topReferrers.constructor).toBe(2);
    } finally {
      await sandbox.close();
    }
  });
});

describe("memory stays bounded under a flood of unique requests", () => {
  it("the request log keeps the newest entries, in size and in age, with long fields cut", async () => {
    let clock = Date.now();
    const sandbox = await startSandbox({ requestLog: { maxEntries: 100, maxAgeMs: 60_000 }, now: () => clock });
    try {
      for (let i = 0; i < 250; i += 1) {
        await raw(`${sandbox.baseUrl}/api/account?${i}=${"q".repeat(6 * 1024)}`, { headers: { authorization: `Bearer ${"k".repeat(6 * 1024)}${i}` } });
      }
      expect(sandbox.requests.length).toBeLessThanOrEqual(100);
      expect(sandbox.requests.at(-1)?.query.startsWith("?249=")).toBe(true);
      expect(Math.max(...sandbox.requests.map((entry) => entry.query.length))).toBeLessThanOrEqual(1024);
      clock += 61_000;
      await raw(`${sandbox.baseUrl}/api/account?fresh`);
      expect(sandbox.requests.map((entry) => entry.query)).toEqual(["?fresh"]);
    } finally {
      await sandbox.close();
    }
  });

  it("the rate-window map holds at most its bound of keys, however many distinct keys arrive in one window", () => {
    const windows = new RateWindows(30, 60_000, 1000);
    const now = Date.now();
    for (let i = 0; i < 20_000; i += 1) windows.hit(`Bearer ${i}-${"k".repeat(64)}`, now);
    expect(windows.size).toBeLessThanOrEqual(1000);
    // A key still in the map keeps its count.
    const key = "Bearer steady";
    for (let i = 0; i < 31; i += 1) windows.hit(key, now);
    expect(windows.hit(key, now).exceeded).toBe(true);
  });
});

describe("URLs and QR codes beyond what their channels carry", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowMs: 60_000 } });
  });
  afterAll(() => sandbox.close());
  const headers = () => ({ authorization: `Bearer ${sandbox.userKey}`, "content-type": "application/json" });

  it("a long URL with characters beyond Latin-1 redirects with a valid percent-encoded Location", async () => {
    const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey });
    const cases: Array<[string, string]> = [
      ["https://example.com/straße/日本?q=€", "https://example.com/stra%C3%9Fe/%E6%97%A5%E6%9C%AC?q=%E2%82%AC"],
      ["https://bücher.example/ünïcode", "https://xn--bcher-kva.example/%C3%BCn%C3%AFcode"],
      [`https://example.com/${"long-".repeat(400)}✓`, `https://example.com/${"long-".repeat(400)}%E2%9C%93`],
    ];
    for (const [url, location] of cases) {
      const { shorturl } = await client.links.create({ url });
      const answer = await raw(shorturl);
      expect([url.slice(0, 30), answer.status, answer.location]).toEqual([url.slice(0, 30), 302, location]);
    }
    const qr = await client.qrCodes.create({ type: "link", data: "https://example.com/café" });
    const scan = await raw(qr.link ?? "");
    expect(scan).toMatchObject({ status: 302, location: "https://example.com/caf%C3%A9" });
  });

  it("QR data beyond a QR code's capacity is refused at create and update, naming the data", async () => {
    const tooLong = "x".repeat(3000);
    const created = JSON.parse(
      (await raw(`${sandbox.baseUrl}/api/qr/add`, { method: "POST", headers: headers(), body: JSON.stringify({ type: "text", data: tooLong }) })).text,
    );
    expect(created).toMatchObject({ error: 1, message: expect.stringMatching(/data.*too long for a QR code/i) });
    const vcard = { firstname: "Ada", lastname: "Lovelace", organization: "o".repeat(3000) };
    const card = JSON.parse(
      (await raw(`${sandbox.baseUrl}/api/qr/add`, { method: "POST", headers: headers(), body: JSON.stringify({ type: "vcard", data: vcard }) })).text,
    );
    expect(card).toMatchObject({ error: 1, message: expect.stringMatching(/data.*too long/i) });
    const fits = JSON.parse(
      (await raw(`${sandbox.baseUrl}/api/qr/add`, { method: "POST", headers: headers(), body: JSON.stringify({ type: "text", data: "y".repeat(2000) }) })).text,
    );
    expect(fits).toMatchObject({ error: 0, id: expect.any(Number) });
    const image = await raw(`${fits.link}.png`);
    expect(image.status).toBe(200);
    const updated = JSON.parse(
      (await raw(`${sandbox.baseUrl}/api/qr/${fits.id}/update`, { method: "PUT", headers: headers(), body: JSON.stringify({ data: tooLong }) })).text,
    );
    expect(updated).toMatchObject({ error: 1, message: expect.stringMatching(/data.*too long/i) });
  });
});

describe("the data file: folder, shape and a folder removed while running", () => {
  it("a data file in a folder that does not exist is refused at start, naming the folder", async () => {
    const folder = join(temporaryFolder(), "missing");
    await expect(startSandbox({ dataFile: join(folder, "state.json") })).rejects.toThrow(`folder "${folder}" does not exist`);
  });

  it.each([
    ["not JSON", "{nope", /is not valid JSON/],
    ["an array", "[]", /must hold a JSON object/],
    ["users as text", JSON.stringify({ users: "admin" }), /"users" must be an array/],
    ["a user without a key", JSON.stringify({ users: [{ id: 1, username: "a" }] }), /users\[0\]\.apiKey must be a string/],
    [
      "a link without stats",
      JSON.stringify({ links: [{ id: 1, userId: 1, alias: "abc", url: "https://e.com", type: "direct", geotarget: [], devicetarget: [], parameters: [] }] }),
      /links\[0\]\.stats must be an object/,
    ],
    [
      "visit times that are not pairs of seconds and visits",
      JSON.stringify({
        links: [
          {
            id: 1,
            userId: 1,
            alias: "abc",
            url: "https://e.com",
            type: "direct",
            geotarget: [],
            devicetarget: [],
            parameters: [],
            stats: { clicks: 1, visitors: [], countries: {}, referrers: {}, browsers: {}, os: {}, social: {}, times: [1793170800, 1, 1793170700] },
          },
        ],
      }),
      /links\[0\]\.stats\.times must be pairs of whole numbers/,
    ],
    [
      "counts that are not numbers",
      JSON.stringify({
        qrs: [
          {
            id: 1,
            userId: 1,
            code: "abcdef",
            type: "text",
            stats: { clicks: 1, visitors: [], countries: { Canada: "many" }, referrers: {}, browsers: {}, os: {}, social: {} },
          },
        ],
      }),
      /qrs\[0\]\.stats\.countries\.Canada must be a number/,
    ],
  ])("a data file holding %s is refused, naming what is wrong", async (_, content, message) => {
    const dataFile = join(temporaryFolder(), "state.json");
    writeFileSync(dataFile, content);
    const error = await startSandbox({ dataFile }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(dataFile);
    expect((error as Error).message).toMatch(message);
  });

  it("with its folder removed while running, a write is refused and rolled back, never acknowledged, visits still redirect, and the sandbox keeps serving", async () => {
    const folder = temporaryFolder();
    const sandbox = await startSandbox({ dataFile: join(folder, "state.json"), rateLimit: { limit: 100_000, windowMs: 60_000 } });
    const logged = jest.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, maxRetries: 0 });
      const { shorturl } = await client.links.create({ url: "https://example.com/before", custom: "before-removal" });
      const linksBefore = (await client.links.list({ limit: 100 })).items.length;
      rmSync(folder, { recursive: true, force: true });
      const answer = await raw(`${sandbox.baseUrl}/api/url/add`, {
        method: "POST",
        headers: { authorization: `Bearer ${sandbox.userKey}`, "content-type": "application/json" },
        body: JSON.stringify({ url: "https://example.com/lost" }),
      });
      expect(answer.status).toBe(503);
      expect(JSON.parse(answer.text)).toMatchObject({ error: 1, message: expect.stringMatching(/could not be saved/) });
      await expect(client.links.create({ url: "https://example.com/lost-too" })).rejects.toThrow();
      expect((await client.links.list({ limit: 100 })).items.length).toBe(linksBefore);
      // A visit still redirects: its click cannot be saved, which is logged, not shown to the visitor.
      const visit = await raw(shorturl);
      expect(visit).toMatchObject({ status: 302, location: "https://example.com/before" });
      await new Promise((resolve) => setTimeout(resolve, 200));
      await expect(client.account.get()).resolves.toMatchObject({ username: "demo" });
    } finally {
      await sandbox.close();
      logged.mockRestore();
    }
  });
});
