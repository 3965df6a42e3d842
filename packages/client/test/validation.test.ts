import { LinkShortClient, ValidationError } from "../src/core";
import { formatTimestamp } from "../src/values";
import { scripted } from "./helpers";

type Call = (client: LinkShortClient) => PromiseLike<unknown>;

const invalid: Array<[string, Call, string[]]> = [
  ["links.create without url", (c) => c.links.create({} as never), ["url"]],
  ["links.create with a non-http URL", (c) => c.links.create({ url: "ftp://example.com" }), ["url"]],
  ["links.create with a URL containing spaces", (c) => c.links.create({ url: "https://exa mple.com" }), ["url"]],
  ["links.create with a short alias", (c) => c.links.create({ url: "https://a.io", custom: "ab" }), ["custom"]],
  ["links.create with a slash in the alias", (c) => c.links.create({ url: "https://a.io", custom: "a/b/c" }), ["custom"]],
  ["links.create with an unknown type", (c) => c.links.create({ url: "https://a.io", type: "popup" as never }), ["type"]],
  ["links.create with a bad expiry", (c) => c.links.create({ url: "https://a.io", expiry: "2026-02-30 10:00:00" }), ["expiry"]],
  ["links.create with an ISO expiry", (c) => c.links.create({ url: "https://a.io", expiry: "2026-12-01T10:00:00Z" }), ["expiry"]],
  [
    "links.create with a bad geotarget link",
    (c) => c.links.create({ url: "https://a.io", geotarget: [{ location: "Canada", link: "nope" }] }),
    ["geotarget.0.link"],
  ],
  ["links.create with an unknown field", (c) => c.links.create({ url: "https://a.io", alias: "abc" } as never), ["alias"]],
  ["links.create with several bad fields", (c) => c.links.create({ url: "x", custom: "a", domain: "y" }), ["url", "custom", "domain"]],
  ["links.update with an overlay type", (c) => c.links.update(1, { url: "https://a.io", type: "overlay-3" as never }), ["type"]],
  ["links.update with a bad id", (c) => c.links.update(0, { url: "https://a.io" }), ["id"]],
  ["links.get with a non-numeric id", (c) => c.links.get("../etc" as never), ["id"]],
  ["links.delete with a fractional id", (c) => c.links.delete(1.5), ["id"]],
  ["links.list with a bad order", (c) => c.links.list({ order: "clicks" as never }), ["order"]],
  ["links.list with a zero limit", (c) => c.links.list({ limit: 0 }), ["limit"]],
  ["domains.create without scheme", (c) => c.domains.create({ domain: "go.brand.com" }), ["domain"]],
  ["domains.update with a bad redirect", (c) => c.domains.update(1, { redirectroot: "brand" }), ["redirectroot"]],
  ["pixels.create with an unknown type", (c) => c.pixels.create({ type: "tiktok" as never, name: "x", tag: "y" }), ["type"]],
  ["pixels.create without a tag", (c) => c.pixels.create({ type: "gapixel", name: "x" } as never), ["tag"]],
  ["pixels.update without a tag", (c) => c.pixels.update(1, { name: "x" } as never), ["tag"]],
  ["qrCodes.create with an unknown type", (c) => c.qrCodes.create({ type: "pdf", data: "x" } as never), ["type"]],
  ["qrCodes.create link with a bad URL", (c) => c.qrCodes.create({ type: "link", data: "not a url" }), ["data"]],
  ["qrCodes.create wifi without ssid", (c) => c.qrCodes.create({ type: "wifi", data: { password: "x" } } as never), ["data.ssid"]],
  ["qrCodes.create vcard without a name", (c) => c.qrCodes.create({ type: "vcard", data: { phone: "+1 555 0100" } }), ["data.firstname"]],
  ["qrCodes.create sms with a bad phone", (c) => c.qrCodes.create({ type: "sms", data: { phone: "call me" } }), ["data.phone"]],
  ["qrCodes.create email with a bad address", (c) => c.qrCodes.create({ type: "email", data: { email: "nope" } }), ["data.email"]],
  ["qrCodes.create with a hex colour", (c) => c.qrCodes.create({ type: "text", data: "hi", background: "#ffffff" }), ["background"]],
  ["qrCodes.create with an out-of-range colour", (c) => c.qrCodes.create({ type: "text", data: "hi", foreground: "rgb(0,0,256)" }), ["foreground"]],
  ["qrCodes.create with a gif logo", (c) => c.qrCodes.create({ type: "text", data: "hi", logo: "https://x.io/a.gif" }), ["logo"]],
  ["qrCodes.update with empty text", (c) => c.qrCodes.update(1, { type: "text", data: "" }), ["data"]],
  ["plans.subscribe without type", (c) => c.plans.subscribe(1, 2, {} as never), ["type"]],
  ["plans.subscribe with a bad type and ids", (c) => c.plans.subscribe(-1, "x" as never, { type: "weekly" as never }), ["planId", "userId", "type"]],
  ["users.list with a bad filter", (c) => c.users.list({ filter: "banned" as never }), ["filter"]],
  ["users.create with bad fields", (c) => c.users.create({ username: "a b", email: "x@", password: "1234" }), ["username", "email", "password"]],
  [
    "users.create with a bad expiration",
    (c) => c.users.create({ username: "abc", email: "a@b.co", password: "12345", expiration: "tomorrow" }),
    ["expiration"],
  ],
  ["account.update with nothing", (c) => c.account.update({}), ["email"]],
  ["account.update with a short password", (c) => c.account.update({ password: "123" }), ["password"]],
];

describe("input validation", () => {
  it.each(invalid)("%s is rejected naming the fields, before any request", async (_name, call, fields) => {
    const { client, sent } = scripted(() => ({ json: { error: 0 } }));
    const error = await Promise.resolve(call(client)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fields).toEqual(fields);
    for (const field of fields) expect((error as ValidationError).message).toContain(field);
    expect(sent).toHaveLength(0);
  });

  it("explains each field in the message", async () => {
    const { client } = scripted([]);
    await expect(client.links.create({ url: "x", custom: "a" })).rejects.toThrow(
      "links.create: invalid input: url: must be a valid http or https URL; custom: must be 3 to 50 letters, digits or hyphens",
    );
  });

  it("rejects a bad client configuration naming the fields", () => {
    expect(
      () =>
        new LinkShortClient({ baseUrl: "short.example", apiKey: "", transport: async () => ({ status: 200, headers: {}, body: "" }), sleep: async () => {} }),
    ).toThrow(/baseUrl: must be a valid http or https URL; apiKey: is required/);
  });

  it("accepts splash page ids and overlays as create types, and numeric-string ids", async () => {
    const { client, sent } = scripted(() => ({ json: { error: 0, id: 1, shorturl: "https://s.io/a" } }));
    await client.links.create({ url: "https://a.io", type: 4 });
    await client.links.create({ url: "https://a.io", type: "overlay-2" });
    await client.links.get("12" as never).catch(() => undefined);
    expect(sent.map((r) => r.json ?? r.path)).toEqual([{ url: "https://a.io", type: 4 }, { url: "https://a.io", type: "overlay-2" }, "/api/url/12"]);
  });

  it("accepts every QR type with its data", async () => {
    const { client, sent } = scripted(() => ({ json: { error: 0, id: 1, link: "https://s.io/qr/abcdef" } }));
    const inputs = [
      { type: "text", data: "Hello" },
      { type: "link", data: "https://example.com" },
      { type: "phone", data: "+1 (555) 010-0100" },
      { type: "email", data: { email: "a@b.co", subject: "Hi", body: "There" } },
      { type: "sms", data: { phone: "+15550100", message: "Hi" } },
      { type: "wifi", data: { ssid: "Cafe", password: "pw", encryption: "WEP" } },
      { type: "vcard", data: { firstname: "Ada", lastname: "Lovelace", email: "ada@x.io", site: "https://ada.io", phone: "+44 20 7946 0000" } },
    ] as const;
    for (const input of inputs) await client.qrCodes.create(input);
    expect(sent.map((r) => r.json)).toEqual(inputs);
  });

  it("formats dates in the API's timestamp format", () => {
    const date = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
    expect(formatTimestamp(date)).toBe("2026-01-02 03:04:05");
    expect(formatTimestamp(date, "America/New_York")).toBe("2026-01-01 22:04:05");
  });
});
