import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { LinkShortClient, ValidationError } from "../src";
import { withUtm } from "../src/resources/links/utm";

describe("UTM fields", () => {
  let sandbox: Sandbox;
  let client: LinkShortClient;
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: "minimal" });
    client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey });
  });
  afterAll(() => sandbox.close());

  it("reach the server's parameters on create and update, replacing parameters of the same name", async () => {
    const created = await client.links.create({
      url: "https://example.com/spring",
      parameters: [
        { name: "ref", value: "mail" },
        { name: "utm_source", value: "old" },
      ],
      utm: { source: "newsletter", medium: "email", campaign: "spring sale" },
    });
    const stored = () => sandbox.store.state.links.find((link) => link.id === created.id)!;
    expect(stored().parameters).toEqual([
      { name: "ref", value: "mail" },
      { name: "utm_source", value: "newsletter" },
      { name: "utm_medium", value: "email" },
      { name: "utm_campaign", value: "spring sale" },
    ]);
    await client.links.update(created.id, { url: "https://example.com/spring", utm: { term: "shoes", content: "banner" } });
    expect(stored().parameters).toEqual([
      { name: "utm_term", value: "shoes" },
      { name: "utm_content", value: "banner" },
    ]);
  });

  it("are checked like every field, named as the caller wrote them, before any request", async () => {
    const before = sandbox.requests.length;
    const attempt = client.links.create({ url: "https://example.com/x", utm: { source: "  ", medium: "m".repeat(1_000_000), campain: "typo" } as never });
    await expect(attempt).rejects.toBeInstanceOf(ValidationError);
    await expect(attempt).rejects.toThrow(/utm\.source: must not be empty.*utm\.medium: must be at most 500 characters.*utm\.campain: is not a field/);
    expect(sandbox.requests.length).toBe(before);
  });

  it("leave a body without them as it was", () => {
    const body = { url: "https://example.com", parameters: [{ name: "a", value: "b" }] };
    expect(withUtm(body)).toEqual(body);
    expect(withUtm({ url: "https://example.com", utm: {} })).toEqual({ url: "https://example.com" });
  });
});
