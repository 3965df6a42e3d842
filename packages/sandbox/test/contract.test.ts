import { LinkShortClient, NotFoundError, PermissionError, ApiError, ValidationError } from "@linkshort/client";
import { startSandbox, type Mode, type Sandbox } from "@linkshort/sandbox";

const modes: Mode[] = ["deployed", "document"];

describe.each(modes)("the client against the sandbox in %s mode", (mode) => {
  let sandbox: Sandbox;
  let user: LinkShortClient;
  let admin: LinkShortClient;

  beforeAll(async () => {
    sandbox = await startSandbox({ mode, rateLimit: { limit: 10_000, windowMs: 60_000 } });
    user = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey });
    admin = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.adminKey });
  });
  afterAll(() => sandbox.close());

  it("account: get and update", async () => {
    const account = await user.account.get();
    expect(account).toMatchObject({ username: "demo", email: "demo@example.com", status: "pro" });
    await expect(user.account.update({ email: "demo2@example.com", password: "secret99" })).resolves.toEqual({ message: expect.any(String) });
    expect((await user.account.get()).email).toBe("demo2@example.com");
    await user.account.update({ email: "demo@example.com" });
  });

  it("domains: list, create, update, delete", async () => {
    const before = await user.domains.list();
    expect(before.items.map((d) => d.domain)).toContain("https://go.demo.example");
    const { id } = await user.domains.create({ domain: `https://${mode}.brand.example`, redirectroot: "https://brand.example" });
    await user.domains.update(id, { redirect404: "https://brand.example/404" });
    const created = (await user.domains.list()).items.find((d) => d.id === id);
    expect(created).toEqual({ id, domain: `https://${mode}.brand.example`, redirectroot: "https://brand.example", redirect404: "https://brand.example/404" });
    await user.domains.delete(id);
    expect((await user.domains.list()).items.some((d) => d.id === id)).toBe(false);
    await expect(user.domains.create({ domain: "https://go.demo.example" })).rejects.toThrow("This domain has already been added.");
  });

  it("splash pages and CTA overlays list", async () => {
    const splash = await user.splashPages.list();
    expect(splash.items).toEqual([{ id: expect.any(Number), name: "demo promo splash", date: expect.any(String) }]);
    const overlays = await user.overlays.list({ limit: 1 });
    expect(overlays).toMatchObject({ result: 1, perpage: 1, currentpage: 1, maxpage: 2 });
    expect(await user.overlays.list().toArray()).toHaveLength(2);
  });

  it("links: create with every option, get with stats, update, list both orders, delete", async () => {
    const [splash] = (await user.splashPages.list()).items;
    const created = await user.links.create({
      url: "https://example.com/contract",
      custom: `contract-${mode}`,
      type: splash!.id,
      password: "pw",
      expiry: "2099-01-01 00:00:00",
      geotarget: [{ location: "Canada", link: "https://ca.example.com" }],
      devicetarget: [{ device: "iPhone", link: "https://apple.example.com" }],
      parameters: [{ name: "utm_source", value: "contract" }],
      metatitle: "Contract",
      metadescription: "A contract test",
    });
    expect(created).toEqual({ id: expect.any(Number), shorturl: `${sandbox.baseUrl}/contract-${mode}` });
    const { details, stats } = await user.links.get(created.id);
    expect(details).toEqual({
      id: created.id,
      shorturl: created.shorturl,
      longurl: "https://example.com/contract",
      title: "Contract",
      description: "A contract test",
      location: { canada: "https://ca.example.com" },
      device: { iphone: "https://apple.example.com" },
      expiry: "2099-01-01 00:00:00",
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    });
    expect(stats).toEqual({
      clicks: 0,
      uniqueClicks: 0,
      topCountries: {},
      topReferrers: {},
      topBrowsers: {},
      topOs: {},
      socialCount: { facebook: 0, twitter: 0, google: 0 },
    });

    const updated = await user.links.update(created.id, { url: "https://example.com/changed", type: "direct", custom: `changed-${mode}` });
    expect(updated).toEqual({ id: created.id, shorturl: `${sandbox.baseUrl}/changed-${mode}` });
    expect((await user.links.get(created.id)).details.longurl).toBe("https://example.com/changed");

    const byDate = await user.links.list({ order: "date" });
    expect(byDate.items[0]!.id).toBe(created.id);
    const byClicks = await user.links.list({ order: "click" });
    expect(byClicks.items.map((l) => l.clicks)).toEqual([...byClicks.items.map((l) => l.clicks)].sort((a, b) => b - a));
    expect(byClicks.items[0]).toMatchObject({ alias: "n8n", clicks: 120 });

    await user.links.delete(created.id);
    await expect(user.links.get(created.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("links: deployed behaviour for duplicates, taken aliases and slug-cleaning", async () => {
    const first = await user.links.create({ url: `https://example.com/dup-${mode}` });
    const again = await user.links.create({ url: `https://example.com/dup-${mode}` });
    expect(again).toEqual(first);
    expect(first.shorturl).toMatch(new RegExp(`^${sandbox.baseUrl}/[a-zA-Z]{5}$`));
    await expect(user.links.create({ url: "https://example.com/x", custom: "n8n" })).rejects.toThrow("That alias is taken. Please choose another one.");
    await expect(user.links.create({ url: "https://example.com/x", expiry: "2001-01-01 00:00:00" })).rejects.toThrow(
      "The expiry date must be later than today.",
    );
  });

  it("pixels: list, create, update, delete", async () => {
    const { id } = await user.pixels.create({ type: "linkedinpixel", name: "LinkedIn", tag: "LI-1" });
    await user.pixels.update(id, { name: "LinkedIn Insight", tag: "LI-2" });
    const pixel = (await user.pixels.list().toArray()).find((p) => p.id === id);
    expect(pixel).toEqual({ id, type: "linkedinpixel", name: "LinkedIn Insight", tag: "LI-2", date: expect.any(String) });
    await user.pixels.delete(id);
    await expect(user.pixels.delete(id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("QR codes: list, create each type, get, update, delete", async () => {
    const seeded = await user.qrCodes.list({ limit: 100 });
    expect(seeded.items.find((q) => q.name === "Menu")).toMatchObject({ scans: 12, link: `${sandbox.baseUrl}/qr/a1b2c3` });
    const created = await user.qrCodes.create({
      type: "vcard",
      data: { firstname: "Ada", lastname: "Lovelace", email: "ada@example.com" },
      foreground: "rgb(10,20,30)",
    });
    expect(created.link).toMatch(new RegExp(`^${sandbox.baseUrl}/qr/[a-f0-9]{6}$`));
    const { details, stats } = await user.qrCodes.get(created.id);
    expect(details).toMatchObject({ id: created.id, link: created.link, scans: 0 });
    expect(stats).toMatchObject({ clicks: 0, uniqueClicks: 0, topCountries: {}, socialCount: { facebook: 0, twitter: 0, instagram: 0 } });
    await user.qrCodes.update(created.id, { type: "text", data: "Hello" });
    await user.qrCodes.delete(created.id);
    await expect(user.qrCodes.get(created.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("plans: list and subscribe (admin)", async () => {
    const plans = (await admin.plans.list()).items;
    expect(plans.map((p) => p.name)).toEqual(["Free", "Pro"]);
    expect(plans[0]).toMatchObject({ free: true, prices: null, limits: { api: { enabled: true }, pixels: { enabled: true, count: 2 } } });
    const created = await admin.users.create({ username: `sub${mode}`, email: `sub-${mode}@example.com`, password: "secret" });
    await admin.plans.subscribe(2, created.id, { type: "monthly" });
    expect(await admin.users.get(created.id)).toMatchObject({ planid: 2, status: "pro", expires: expect.stringMatching(/^\d{4}-/) });
    await admin.plans.subscribe(1, created.id, { type: "lifetime", expiration: "2030-01-01 00:00:00" });
    expect(await admin.users.get(created.id)).toMatchObject({ planid: 1, status: "free", expires: "2030-01-01 00:00:00" });
  });

  it("users: list, filter, search, create, get, login link, delete (admin)", async () => {
    const created = await admin.users.create({ username: `u${mode}`, email: `u-${mode}@example.com`, password: "secret", planid: 2 });
    expect(created.id).toEqual(expect.any(Number));
    if (mode === "document") expect(created).toMatchObject({ email: `u-${mode}@example.com`, username: `u${mode}` });
    const fetched = await admin.users.get(created.id);
    expect(fetched.apikey).toMatch(/^[a-f0-9]{32}$/);
    const own = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: fetched.apikey });
    await expect(own.account.get()).resolves.toMatchObject({ id: created.id });
    expect((await admin.users.list({ filter: "admin" })).items.map((u) => u.username)).toEqual(["admin"]);
    expect((await admin.users.list({ email: `u-${mode}@` })).items.map((u) => u.id)).toEqual([created.id]);
    const { url } = await admin.users.loginLink(created.id);
    expect(url).toMatch(new RegExp(`^${sandbox.baseUrl}/user/login/sso/[a-f0-9]+$`));
    await admin.users.delete(created.id);
    await expect(admin.users.get(created.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(admin.users.create({ username: "admin", email: "x@example.com", password: "secret" })).rejects.toBeInstanceOf(ApiError);
  });

  it("admin endpoints refuse a normal user with 403", async () => {
    await expect(user.plans.list()).rejects.toBeInstanceOf(PermissionError);
    await expect(user.users.list()).rejects.toMatchObject({ name: "PermissionError", status: 403 });
  });

  it("the client stops bad input before the server sees it", async () => {
    const before = sandbox.requests.length;
    await expect(user.links.create({ url: "not a url" })).rejects.toBeInstanceOf(ValidationError);
    expect(sandbox.requests.length).toBe(before);
  });
});
