/**
 * The built server over stdio, driven by the MCP SDK's own client, against the sandbox in both modes:
 * every user tool, bad input, a deleted link, and the API key never in anything the server says.
 */
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { startSession, type Session } from "./helpers";

const USER_TOOLS = [
  "create_qr_code",
  "delete_links",
  "find_links",
  "get_account",
  "get_link",
  "get_qr_code",
  "list_domains",
  "list_qr_codes",
  "shorten_link",
  "shorten_links",
  "update_links",
];

describe.each(["deployed", "document"] as const)("linkshort-mcp over stdio, sandbox in %s mode", (mode) => {
  let sandbox: Sandbox;
  let session: Session;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, mode, rateLimit: { limit: 1000, windowMs: 60_000 } });
    session = await startSession({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey });
  });

  afterAll(async () => {
    const said = [...session.transcript, session.stderr()].join("\n");
    await session.close();
    await sandbox.close();
    // Checked after every test of the block has run: nothing the server said holds the key.
    expect(said).not.toContain(sandbox.userKey);
  });

  test("lists the user tools with descriptions, schemas from the client's and annotations; no admin tools", async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(USER_TOOLS);
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(40);
      expect(tool.outputSchema?.type).toBe("object");
      expect(tool.annotations).toHaveProperty("readOnlyHint");
    }
    const shorten = tools.find((tool) => tool.name === "shorten_link")!;
    expect(shorten.inputSchema.required).toEqual(["url"]);
    const properties = shorten.inputSchema.properties as Record<string, { description?: string; pattern?: string }>;
    expect(Object.keys(properties).sort()).toEqual(
      [
        "custom",
        "devicetarget",
        "domain",
        "expiry",
        "geotarget",
        "metadescription",
        "metatitle",
        "parameters",
        "password",
        "reuse",
        "type",
        "url",
        "utm",
      ].sort(),
    );
    expect(properties.custom?.pattern).toBe("^[A-Za-z0-9-]{3,50}$");
    expect(properties.url?.description).toMatch(/long URL/);
    expect(shorten.inputSchema).toHaveProperty("additionalProperties", false);
    expect(shorten.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(tools.find((tool) => tool.name === "delete_links")!.annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
    expect(tools.find((tool) => tool.name === "find_links")!.annotations).toMatchObject({ readOnlyHint: true });
  });

  test("shorten_link makes a short link that redirects; find, get, update and delete it", async () => {
    const alias = `mcp-${mode}`;
    const created = await session.call("shorten_link", { url: "https://example.com/launch", custom: alias, metatitle: "Launch day" });
    expect(created.isError).toBe(false);
    const { id, shorturl } = created.structured as { id: number; shorturl: string };
    expect(shorturl).toContain(alias);
    const visit = await fetch(shorturl, { redirect: "manual" });
    expect(visit.headers.get("location")).toBe("https://example.com/launch");

    const found = await session.call("find_links", { text: alias.toUpperCase() });
    expect(found.structured).toMatchObject({ matches: 1, links: [{ id, alias, longurl: "https://example.com/launch", title: "Launch day" }] });

    const got = await session.call("get_link", { id });
    expect(got.structured).toMatchObject({ details: { id, longurl: "https://example.com/launch" }, stats: { clicks: 1 } });

    const change = { ids: [id], set: { url: "https://example.com/launch-v2" } };
    const preview = await session.call("update_links", change);
    expect(preview.structured).toMatchObject({
      stage: "preview",
      links: [{ id, status: "will change", changes: [{ field: "url", from: "https://example.com/launch", to: "https://example.com/launch-v2" }] }],
    });
    expect((await fetch(shorturl, { redirect: "manual" })).headers.get("location")).toBe("https://example.com/launch");
    const updated = await session.call("update_links", { ...change, confirmation: (preview.structured as { confirmation: string }).confirmation });
    expect(updated.structured).toMatchObject({ stage: "confirmed", links: [{ id, status: "done" }] });
    expect((await fetch(shorturl, { redirect: "manual" })).headers.get("location")).toBe("https://example.com/launch-v2");

    const deletePreview = await session.call("delete_links", { ids: [String(id)] });
    expect(deletePreview.structured).toMatchObject({ stage: "preview", links: [{ id, status: "will delete" }] });
    const deleted = await session.call("delete_links", {
      ids: [String(id)],
      confirmation: (deletePreview.structured as { confirmation: string }).confirmation,
    });
    expect(deleted.structured).toMatchObject({ stage: "confirmed", links: [{ id, status: "done" }] });

    const afterDelete = await session.call("get_link", { id });
    expect(afterDelete.isError).toBe(true);
    expect(afterDelete.text).toMatch(/^Not found: .*find_links/);
    const deletedAgain = await session.call("delete_links", { ids: [id] });
    expect(deletedAgain.structured).toMatchObject({ links: [{ id, status: "refused", reason: expect.stringMatching(/^not found/) }], confirmation: null });
    const updateDeleted = await session.call("update_links", { ids: [id], set: { url: "https://example.com/x" } });
    expect(updateDeleted.structured).toMatchObject({ links: [{ id, status: "refused", reason: expect.stringMatching(/^not found/) }], confirmation: null });
  });

  test("find_links searches the whole index: lists without text, orders by clicks, finds the oldest links, stops at its limit", async () => {
    const made: number[] = [];
    for (let index = 0; index < 105; index += 1) {
      const answer = await session.call("shorten_link", { url: `https://example.com/bulk/${index}`, metatitle: `bulk ${mode} ${index}` });
      made.push((answer.structured as { id: number }).id);
    }
    // 105 matches: the best 100 are answered, and how many there were.
    const all = await session.call("find_links", { text: `bulk ${mode}`, limit: 100 });
    expect(all.structured).toMatchObject({ matches: 105 });
    expect((all.structured as { links: unknown[] }).links).toHaveLength(100);
    const few = await session.call("find_links", { text: `bulk ${mode} 10` });
    expect((few.structured as { links: Array<{ title: string }> }).links.map((link) => link.title).sort()).toEqual(
      [`bulk ${mode} 10`, ...Array.from({ length: 5 }, (_, index) => `bulk ${mode} ${100 + index}`)].sort(),
    );
    expect(few.structured).toMatchObject({ matches: 6 });
    // The seeded demo links are the oldest, on the second page of 100: the first sync has read them.
    const old = await session.call("find_links", { text: "node-docs" });
    expect(old.structured).toMatchObject({ links: [{ alias: "node-docs" }], index: { complete: true } });
    expect((old.structured as { index: { summary: string } }).index.summary).toMatch(/^\d+ links, all checked at /);
    const newest = await session.call("find_links", { limit: 3 });
    for (const link of (newest.structured as { links: Array<{ id: number }> }).links) expect(made).toContain(link.id);
    const popular = await session.call("find_links", { order: "click", limit: 1 });
    const clicks = (popular.structured as { links: Array<{ clicks: number }> }).links[0]!.clicks;
    expect(clicks).toBeGreaterThan(0);
  });

  test("bad input is refused with the fields named, before any request", async () => {
    const before = sandbox.requests.length;
    const bad = await session.call("shorten_link", { url: "not a url", custom: "a" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/url/);
    expect(bad.text).toMatch(/must be a valid http or https URL/);
    expect(bad.text).toMatch(/custom/);
    expect(bad.text).toMatch(/3 to 50 letters, digits or hyphens/);

    const missing = await session.call("shorten_link", {});
    expect(missing.text).toMatch(/is required at url|url: is required/);
    const unknown = await session.call("shorten_link", { url: "https://example.com", alias: "x" });
    expect(unknown.text).toMatch(/alias/);
    const badId = await session.call("get_link", { id: "twelve" });
    expect(badId.text).toMatch(/must be a positive whole number at id|id: must be a positive whole number/);
    const noChange = await session.call("update_links", { ids: [1], set: {} });
    expect(noChange.text).toMatch(/must name at least one field to change at set/);
    const badExpiry = await session.call("update_links", { ids: [1], set: { expiry: "tomorrow" } });
    expect(badExpiry.text).toMatch(/at set\.expiry/);
    expect(badExpiry.text).toMatch(/YYYY-MM-DD HH:MM:SS/);
    const badQr = await session.call("create_qr_code", { type: "email", data: { subject: "hi" } });
    expect(badQr.isError).toBe(true);
    expect(badQr.text).toBe("Invalid arguments for create_qr_code: data.email: is required. Correct these fields and call create_qr_code again.");
    const badLimit = await session.call("find_links", { limit: 1000 });
    expect(badLimit.text).toMatch(/must be at most 100 at limit/);
    const badPage = await session.call("list_qr_codes", { page: 0 });
    expect(badPage.text).toMatch(/must be positive at page/);
    expect(sandbox.requests.length).toBe(before);
  });

  test("create_qr_code and list_qr_codes", async () => {
    const created = await session.call("create_qr_code", { type: "link", data: "https://example.com/menu", name: `menu ${mode}` });
    expect(created.isError).toBe(false);
    const { id, link } = created.structured as { id: number; link: string };
    expect((await fetch(`${link}.svg`)).headers.get("content-type")).toMatch(/svg/);
    const wifi = await session.call("create_qr_code", { type: "wifi", data: { ssid: "Guests", encryption: "WPA", password: "welcome1" } });
    expect(wifi.isError).toBe(false);

    const listed = await session.call("list_qr_codes", { limit: 100 });
    expect(listed.structured).toMatchObject({ currentpage: 1, maxpage: 1, morePages: false });
    // Deployed servers send a nextpage past the end; morePages follows the client's rule instead.
    const first = await session.call("list_qr_codes", { limit: 1 });
    expect(first.structured).toMatchObject({ currentpage: 1, morePages: true });
    const total = (listed.structured as { qrCodes: unknown[] }).qrCodes.length;
    const last = await session.call("list_qr_codes", { limit: 1, page: total });
    expect(last.structured).toMatchObject({ currentpage: total, morePages: false });
    expect((listed.structured as { qrCodes: Array<{ id: number; name: string }> }).qrCodes).toContainEqual(
      expect.objectContaining({ id, name: `menu ${mode}` }),
    );
  });

  test("list_domains and get_account", async () => {
    const domains = await session.call("list_domains");
    expect((domains.structured as { domains: Array<{ domain: string }> }).domains.map((domain) => domain.domain)).toContain("https://go.demo.example");
    const account = await session.call("get_account");
    expect(account.structured).toMatchObject({ username: expect.any(String), email: expect.stringContaining("@") });
    expect(account.structured).not.toHaveProperty("apikey");
  });

  test("admin tools are not callable without --admin, and an unknown name is a protocol error (-32602), not a tool result", async () => {
    await expect(session.call("list_users")).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/list_users not found/) });
    await expect(session.call("no_such_tool")).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/no_such_tool not found: list the tools/),
    });
  });
});
