import { request } from "undici";
import { LinkShortClient } from "@linkshort/client";
import { startSandbox, type Sandbox } from "@linkshort/sandbox";

const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const FIREFOX_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0";

async function visit(url: string, headers: Record<string, string> = {}, init: { method?: "GET" | "POST"; body?: string } = {}) {
  const response = await request(url, { method: init.method ?? "GET", headers, body: init.body });
  return {
    status: response.statusCode,
    location: response.headers.location as string | undefined,
    text: await response.body.text(),
    type: String(response.headers["content-type"]),
  };
}

describe("short links, QR codes and SSO links, as visitors meet them", () => {
  let sandbox: Sandbox;
  let client: LinkShortClient;
  let admin: LinkShortClient;
  let clock = Date.now();

  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimit: { limit: 10_000, windowMs: 60_000 }, now: () => clock });
    client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey });
    admin = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.adminKey });
  });
  afterAll(() => sandbox.close());

  it("a direct link redirects with 302 and each visit is counted in statistics and lists", async () => {
    const { id, shorturl } = await client.links.create({ url: "https://example.com/landing", custom: "flow-direct" });
    const first = await visit(shorturl, {
      "user-agent": FIREFOX_LINUX,
      referer: "https://twitter.com/someone",
      "cf-ipcountry": "DE",
      "x-forwarded-for": "10.0.0.1",
    });
    expect(first).toMatchObject({ status: 302, location: "https://example.com/landing" });
    await visit(shorturl, { "user-agent": FIREFOX_LINUX, "cf-ipcountry": "DE", "x-forwarded-for": "10.0.0.1" });
    await visit(shorturl, { "user-agent": IPHONE, "cf-ipcountry": "FR", "x-forwarded-for": "10.0.0.2" });
    const { stats } = await client.links.get(id);
    expect(stats).toEqual({
      clicks: 3,
      uniqueClicks: 2,
      topCountries: { Germany: 2, France: 1 },
      topReferrers: { Direct: 2, "twitter.com": 1 },
      topBrowsers: { Firefox: 2, "Mobile Safari": 1 },
      topOs: { Linux: 2, iOS: 1 },
      socialCount: { facebook: 0, twitter: 1, google: 0 },
    });
    const listed = (await client.links.list({ order: "date" })).items.find((link) => link.id === id);
    expect(listed?.clicks).toBe(3);
  });

  it("geo-targeting, device targeting and parameters pick the destination", async () => {
    const { shorturl } = await client.links.create({
      url: "https://example.com/default",
      custom: "flow-targets",
      geotarget: [{ location: "Canada", link: "https://example.ca/" }],
      devicetarget: [{ device: "iPhone", link: "https://apple.example.com/" }],
      parameters: [{ name: "utm_source", value: "linkshort" }],
    });
    expect((await visit(shorturl, { "cf-ipcountry": "CA" })).location).toBe("https://example.ca/?utm_source=linkshort");
    expect((await visit(shorturl, { "user-agent": IPHONE })).location).toBe("https://apple.example.com/?utm_source=linkshort");
    expect((await visit(shorturl, { "user-agent": FIREFOX_LINUX, "cf-ipcountry": "US" })).location).toBe("https://example.com/default?utm_source=linkshort");
  });

  it("a password-protected link shows a form and redirects only with the right password", async () => {
    const { id, shorturl } = await client.links.create({ url: "https://example.com/secret", custom: "flow-password", password: "open-sesame" });
    const form = await visit(shorturl);
    expect(form.status).toBe(200);
    expect(form.text).toContain('<form method="post">');
    const wrong = await visit(shorturl, { "content-type": "application/x-www-form-urlencoded" }, { method: "POST", body: "password=nope" });
    expect(wrong.status).toBe(401);
    const right = await visit(shorturl, { "content-type": "application/x-www-form-urlencoded" }, { method: "POST", body: "password=open-sesame" });
    expect(right).toMatchObject({ status: 302, location: "https://example.com/secret" });
    expect((await client.links.get(id)).stats.clicks).toBe(1);
  });

  it("an expired link no longer redirects", async () => {
    const { shorturl } = await client.links.create({ url: "https://example.com/soon", custom: "flow-expiry", expiry: "2099-12-31 23:59:59" });
    expect((await visit(shorturl)).status).toBe(302);
    const saved = clock;
    clock = Date.UTC(2100, 0, 1);
    try {
      expect((await visit(shorturl)).status).toBe(410);
    } finally {
      clock = saved;
    }
  });

  it("frame, splash, custom splash and overlay links show pages that lead to the destination", async () => {
    const [splash] = (await client.splashPages.list()).items;
    const [overlay] = (await client.overlays.list()).items;
    const cases: Array<[string | number, string]> = [
      ["frame", "<iframe"],
      ["splash", "You are being redirected"],
      [splash!.id, "demo promo splash"],
      [`overlay-${overlay!.id}`, overlay!.name],
    ];
    for (const [type, marker] of cases) {
      const { shorturl } = await client.links.create({ url: `https://example.com/${String(type)}`, type });
      const page = await visit(shorturl);
      expect(page.status).toBe(200);
      expect(page.text).toContain(marker);
      expect(page.text).toContain(`https://example.com/${String(type)}`);
    }
  });

  it("a QR scan is counted and redirects (link type) or shows the content", async () => {
    const link = await client.qrCodes.create({ type: "link", data: "https://example.com/menu" });
    const text = await client.qrCodes.create({ type: "text", data: "Table 7" });
    expect(await visit(link.link, { "cf-ipcountry": "JP" })).toMatchObject({ status: 302, location: "https://example.com/menu" });
    await visit(link.link);
    const shown = await visit(text.link);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain("Table 7");
    const { details, stats } = await client.qrCodes.get(link.id);
    expect(details.scans).toBe(2);
    expect(stats.topCountries).toMatchObject({ Japan: 1 });
    expect((await client.qrCodes.list({ limit: 100 })).items.find((qr) => qr.id === link.id)?.scans).toBe(2);
  });

  it("QR images are generated as PNG and SVG", async () => {
    const { link } = await client.qrCodes.create({ type: "wifi", data: { ssid: "Cafe", password: "pw" }, foreground: "rgb(200,0,0)" });
    const png = await request(`${link}.png`);
    const bytes = Buffer.from(await png.body.arrayBuffer());
    expect(png.headers["content-type"]).toBe("image/png");
    expect(bytes.subarray(1, 4).toString()).toBe("PNG");
    const svg = await visit(`${link}.svg`);
    expect(svg.type).toBe("image/svg+xml");
    expect(svg.text).toContain("<svg");
    expect(svg.text.toLowerCase()).toContain("#c80000");
  });

  it("an SSO login link works once, within an hour", async () => {
    const { id } = await admin.users.create({ username: "ssouser", email: "sso@example.com", password: "secret" });
    const { url } = await admin.users.loginLink(id);
    expect((await visit(url)).status).toBe(200);
    expect((await visit(url)).status).toBe(403);

    const { url: late } = await admin.users.loginLink(id);
    const saved = clock;
    clock += 60 * 60 * 1000 + 1;
    try {
      expect((await visit(late)).status).toBe(403);
    } finally {
      clock = saved;
    }
  });

  it("unknown aliases and paths answer the HTML 404 page", async () => {
    const page = await visit(`${sandbox.baseUrl}/no-such-alias`);
    expect(page.status).toBe(404);
    expect(page.type).toContain("text/html");
  });
});
