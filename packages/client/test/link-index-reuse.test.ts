/**
 * Reuse answers only with the link that was asked for: every option is compared (or the link is
 * made), and the candidate is confirmed with the server just before the answer.
 */
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { createOrReuse, LinkIndex, LinkShortClient, RateLimiter, type LinkCreateInput } from "../src";

let sandbox: Sandbox;
let client: LinkShortClient;
/** Another process on the same account: its changes reach the index only through the server. */
let other: LinkShortClient;
let index: LinkIndex;
let serial = 0;

beforeEach(async () => {
  sandbox = await startSandbox({ seed: "minimal", rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  const limiter = new RateLimiter();
  client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter } });
  other = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter } });
  index = new LinkIndex({ minSyncIntervalMs: 0 });
  index.watch(client);
});
afterEach(() => sandbox.close());

const fresh = () => `https://example.com/page-${(serial += 1)}`;
const recordOf = (id: number) => sandbox.store.state.links.find((link) => link.id === id)!;
const apiRequests = (from: number) => sandbox.requests.slice(from).filter((request) => request.path.startsWith("/api/"));

describe("reuse compares every option", () => {
  it("never hands a link with a password to a request without one (made elsewhere: its password cannot be seen)", async () => {
    const url = fresh();
    const protectedLink = await other.links.create({ url, password: "secret-1" });
    const answer = await createOrReuse(client, index, { url });
    expect(answer.id).not.toBe(protectedLink.id);
    expect(recordOf(answer.id).password).toBeNull();
  });

  it("never hands the unprotected link to a request with a password", async () => {
    const url = fresh();
    const plain = await createOrReuse(client, index, { url });
    const answer = await createOrReuse(client, index, { url, password: "secret-2" });
    expect(answer.id).not.toBe(plain.id);
    expect(answer.reused).toBe(false);
    expect(recordOf(answer.id).password).toBe("secret-2");
  });

  it("tells UTM fields apart: utm_source=twitter is not the newsletter link", async () => {
    const url = fresh();
    const newsletter = await createOrReuse(client, index, { url, utm: { source: "newsletter" } });
    const twitter = await createOrReuse(client, index, { url, utm: { source: "twitter" } });
    expect(twitter.id).not.toBe(newsletter.id);
    expect(recordOf(twitter.id).parameters).toEqual([{ name: "utm_source", value: "twitter" }]);
    const again = await createOrReuse(client, index, { url, utm: { source: "twitter" } });
    expect(again).toEqual({ ...twitter, reused: true });
  });

  const options: Array<[string, Partial<LinkCreateInput>, (record: ReturnType<typeof recordOf>) => unknown, unknown]> = [
    ["parameters", { parameters: [{ name: "ref", value: "a" }] }, (record) => record.parameters, [{ name: "ref", value: "a" }]],
    ["expiry", { expiry: "2099-01-01 00:00:00" }, (record) => record.expiry, "2099-01-01 00:00:00"],
    ["geotarget", { geotarget: [{ location: "Canada", link: "https://example.ca/" }] }, (record) => record.geotarget.length, 1],
    ["devicetarget", { devicetarget: [{ device: "iPhone", link: "https://example.com/ios" }] }, (record) => record.devicetarget.length, 1],
    ["type: frame", { type: "frame" }, (record) => record.type, "frame"],
    ["metatitle", { metatitle: "Spring sale" }, (record) => record.metatitle, "Spring sale"],
  ];
  it.each(options)("a request with %s is not answered with the link made without it, nor the other way round", async (_name, option, read, expected) => {
    const url = fresh();
    const plain = await createOrReuse(client, index, { url });
    const withOption = await createOrReuse(client, index, { url, ...option });
    expect(withOption.id).not.toBe(plain.id);
    expect(read(recordOf(withOption.id))).toEqual(expected);
    const plainAgain = await createOrReuse(client, index, { url });
    expect(plainAgain).toEqual({ ...plain, reused: true });
  });

  it("costs one GET beyond the lookup when it reuses, and the same link comes back", async () => {
    const url = fresh();
    const first = await createOrReuse(client, index, { url, utm: { campaign: "spring" } });
    const before = sandbox.requests.length;
    const second = await createOrReuse(client, index, { url, utm: { campaign: "spring" } });
    expect(second).toEqual({ ...first, reused: true });
    const sent = apiRequests(before).map((request) => `${request.method} ${request.path}`);
    expect(sent.filter((line) => line !== "GET /api/urls")).toEqual([`GET /api/url/${first.id}`]);
  });
});

describe("reuse confirms the link with the server before answering", () => {
  it("does not hand back a link another process deleted, and drops it from the index", async () => {
    const url = fresh();
    const first = await createOrReuse(client, index, { url });
    await other.links.delete(first.id);
    const answer = await createOrReuse(client, index, { url });
    expect(answer.id).not.toBe(first.id);
    expect(answer.reused).toBe(false);
    expect(index.get(first.id)).toBeUndefined();
  });

  it("does not hand back a link another process re-pointed elsewhere, and the index learns where it points", async () => {
    index = new LinkIndex({ minSyncIntervalMs: 0, pageSize: 5 });
    index.watch(client);
    const url = fresh();
    const first = await createOrReuse(client, index, { url });
    // Newer links fill the first page: the newest-first read does not reach this link again.
    for (let i = 0; i < 6; i += 1) await createOrReuse(client, index, { url: fresh() });
    await other.links.update(first.id, { url: "https://elsewhere.example/" });
    const answer = await createOrReuse(client, index, { url });
    expect(answer.id).not.toBe(first.id);
    expect(recordOf(answer.id).url).toBe(url);
    expect(index.get(first.id)?.longurl).toBe("https://elsewhere.example/");
  });

  it("does not hand back a link that has expired since", async () => {
    const url = fresh();
    const first = await createOrReuse(client, index, { url });
    recordOf(first.id).expiry = "2020-01-01 00:00:00";
    const answer = await createOrReuse(client, index, { url });
    expect(answer.id).not.toBe(first.id);
    expect(recordOf(answer.id).expiry).toBeNull();
  });
});
