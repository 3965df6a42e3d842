/**
 * Reuse answers only with the link that was asked for: every option is compared (or the link is
 * made), and the candidate is confirmed with the server just before the answer.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import {
  checkLinkCreate,
  createLink,
  FileIndexStore,
  MadeLinks,
  LinkIndex,
  LinkShortClient,
  RateLimiter,
  undiciTransport,
  ValidationError,
  type CheckedLinkCreate,
  type CreateLinkOptions,
  type LinkCreateInput,
} from "../src";

/** `createLink` with reuse on, as every call here asks. */
const createReusing = (client: LinkShortClient, index: LinkIndex, input: LinkCreateInput, options: CreateLinkOptions = {}) =>
  createLink(client, index, input, { ...options, reuse: true });

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
    const answer = await createReusing(client, index, { url });
    expect(answer.id).not.toBe(protectedLink.id);
    expect(recordOf(answer.id).password).toBeNull();
  });

  it("never hands the unprotected link to a request with a password", async () => {
    const url = fresh();
    const plain = await createReusing(client, index, { url });
    const answer = await createReusing(client, index, { url, password: "secret-2" });
    expect(answer.id).not.toBe(plain.id);
    expect(answer.reused).toBe(false);
    expect(recordOf(answer.id).password).toBe("secret-2");
  });

  it("tells UTM fields apart: utm_source=twitter is not the newsletter link", async () => {
    const url = fresh();
    const newsletter = await createReusing(client, index, { url, utm: { source: "newsletter" } });
    const twitter = await createReusing(client, index, { url, utm: { source: "twitter" } });
    expect(twitter.id).not.toBe(newsletter.id);
    expect(recordOf(twitter.id).parameters).toEqual([{ name: "utm_source", value: "twitter" }]);
    const again = await createReusing(client, index, { url, utm: { source: "twitter" } });
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
    const plain = await createReusing(client, index, { url });
    const withOption = await createReusing(client, index, { url, ...option });
    expect(withOption.id).not.toBe(plain.id);
    expect(read(recordOf(withOption.id))).toEqual(expected);
    const plainAgain = await createReusing(client, index, { url });
    expect(plainAgain).toEqual({ ...plain, reused: true });
  });

  it("costs one GET beyond the lookup when it reuses, and the same link comes back", async () => {
    const url = fresh();
    const first = await createReusing(client, index, { url, utm: { campaign: "spring" } });
    const before = sandbox.requests.length;
    const second = await createReusing(client, index, { url, utm: { campaign: "spring" } });
    expect(second).toEqual({ ...first, reused: true });
    const sent = apiRequests(before).map((request) => `${request.method} ${request.path}`);
    expect(sent.filter((line) => line !== "GET /api/urls")).toEqual([`GET /api/url/${first.id}`]);
  });
});

describe("reuse confirms the link with the server before answering", () => {
  it("does not hand back a link another process deleted, and drops it from the index", async () => {
    const url = fresh();
    const first = await createReusing(client, index, { url });
    await other.links.delete(first.id);
    const answer = await createReusing(client, index, { url });
    expect(answer.id).not.toBe(first.id);
    expect(answer.reused).toBe(false);
    expect(index.get(first.id)).toBeUndefined();
  });

  it("does not hand back a link another process re-pointed elsewhere, and the index learns where it points", async () => {
    index = new LinkIndex({ minSyncIntervalMs: 0, pageSize: 5 });
    index.watch(client);
    const url = fresh();
    const first = await createReusing(client, index, { url });
    // Newer links fill the first page: the newest-first read does not reach this link again.
    for (let i = 0; i < 6; i += 1) await createReusing(client, index, { url: fresh() });
    await other.links.update(first.id, { url: "https://elsewhere.example/" });
    const answer = await createReusing(client, index, { url });
    expect(answer.id).not.toBe(first.id);
    expect(recordOf(answer.id).url).toBe(url);
    expect(index.get(first.id)?.longurl).toBe("https://elsewhere.example/");
  });

  it("does not hand back a link that has expired since", async () => {
    const url = fresh();
    const first = await createReusing(client, index, { url });
    recordOf(first.id).expiry = "2020-01-01 00:00:00";
    const answer = await createReusing(client, index, { url });
    expect(answer.id).not.toBe(first.id);
    expect(recordOf(answer.id).expiry).toBeNull();
  });
});

describe("an index file names its account", () => {
  const folder = () => join(mkdtempSync(join(tmpdir(), "linkshort-account-")), "made-here");

  it("serves another key none of the first account's links, not even before its first sync, and never holds a key", async () => {
    const path = join(folder(), "index.json");
    const url = "https://example.com/private?token=abc123";
    const first = await createReusing(client, index, { url });
    const storeA = new FileIndexStore(path);
    const indexA = new LinkIndex({ store: storeA, account: client.accountId, minSyncIntervalMs: 0 });
    await indexA.sync(client);
    expect(indexA.findByLongUrl(url)?.id).toBe(first.id);
    await storeA.release();

    const admin = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.adminKey, rateLimit: { limiter: new RateLimiter() } });
    const indexB = new LinkIndex({ store: new FileIndexStore(path), account: admin.accountId, minSyncIntervalMs: 0 });
    await indexB.load();
    expect(indexB.freshness().known).toBe(0);
    expect(indexB.search("token").matches).toBe(0);
    await indexB.sync(admin);
    expect(indexB.findByLongUrl(url)).toBeUndefined();
    const reused = await createReusing(admin, indexB, { url });
    expect(reused.id).not.toBe(first.id);

    const written = readdirSync(dirname(path))
      .map((name) => readFileSync(join(dirname(path), name), "utf8"))
      .join("\n");
    expect(written).not.toContain(sandbox.userKey);
    expect(written).not.toContain(sandbox.adminKey);
    expect(written).not.toContain("token=abc123");
  });

  it("an index that learns its account from the client (no account given) also starts over for another key", async () => {
    const path = join(folder(), "index.json");
    await createReusing(client, index, { url: "https://example.com/of-a" });
    const storeA = new FileIndexStore(path);
    await new LinkIndex({ store: storeA, minSyncIntervalMs: 0 }).sync(client);
    await storeA.release();
    const admin = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.adminKey, rateLimit: { limiter: new RateLimiter() } });
    const indexB = new LinkIndex({ store: new FileIndexStore(path), minSyncIntervalMs: 0 });
    await indexB.sync(admin);
    expect(indexB.findByLongUrl("https://example.com/of-a")).toBeUndefined();
  });

  it("writes its files for their owner only, in a folder it makes for its owner only", async () => {
    const path = join(folder(), "index.json");
    await createReusing(client, index, { url: fresh() });
    const store = new FileIndexStore(path);
    const fileIndex = new LinkIndex({ store, account: client.accountId, minSyncIntervalMs: 0 });
    fileIndex.watch(client);
    await fileIndex.sync(client);
    await createReusing(client, fileIndex, { url: fresh() });
    await fileIndex.sync(client, { force: true });
    const mode = (file: string) => statSync(file).mode & 0o777;
    expect(mode(dirname(path))).toBe(0o700);
    expect(mode(path)).toBe(0o600);
    expect(mode(`${path}.journal`)).toBe(0o600);
    expect(mode(`${path}.lock`)).toBe(0o600);
    await store.release();
  });

  it("one account for https://X/ and https://x: one limiter and one index", () => {
    const upper = new LinkShortClient({ baseUrl: `${sandbox.baseUrl.replace("127.0.0.1", "LOCALHOST")}/`, apiKey: sandbox.userKey });
    const lower = new LinkShortClient({ baseUrl: sandbox.baseUrl.replace("127.0.0.1", "localhost"), apiKey: sandbox.userKey });
    expect(upper.accountId).toBe(lower.accountId);
    expect(upper.accountId).not.toContain(sandbox.userKey);
    expect(new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.adminKey }).accountId).not.toBe(client.accountId);
  });
});

describe("why a link was not reused: one sentence, handed over before the create", () => {
  const reasonFor = async (input: LinkCreateInput) => {
    const reasons: string[] = [];
    const answer = await createReusing(client, index, input, { onNotReused: (reason) => reasons.push(reason) });
    return { answer, reasons };
  };

  it("a reused link gives no reason; a new URL says no link has it", async () => {
    const url = fresh();
    expect((await reasonFor({ url })).reasons).toEqual(["no link of this account has this long URL"]);
    const again = await reasonFor({ url });
    expect(again).toMatchObject({ answer: { reused: true }, reasons: [] });
  });

  it("names the password, the fields that differ, and options it cannot see or that differ", async () => {
    const url = fresh();
    await createReusing(client, index, { url, metatitle: "Spring", utm: { source: "newsletter" } });
    expect((await reasonFor({ url, password: "secret-7" })).reasons).toEqual([
      "a password-protected link is never reused, as the service never shows a link's password to compare",
    ]);
    expect((await reasonFor({ url, metatitle: "Autumn", metadescription: "Leaves", utm: { source: "newsletter" } })).reasons).toEqual([
      "the link with this long URL has another title and description",
    ]);
    const otherUrl = fresh();
    await createReusing(client, index, { url: otherUrl, utm: { source: "newsletter" } });
    expect((await reasonFor({ url: otherUrl, utm: { source: "twitter" } })).reasons).toEqual([
      "the link with this long URL was made with another password, redirect type or parameters (UTM fields included)",
    ]);
  });

  it("a link made elsewhere: its hidden options cannot be checked, and the create that follows gets that reason first", async () => {
    const url = fresh();
    const alias = `made-else-${serial}`;
    await other.links.create({ url, custom: alias });
    const reasons: string[] = [];
    await expect(createReusing(client, index, { url, custom: alias }, { onNotReused: (reason) => reasons.push(reason) })).rejects.toThrow(/alias is taken/);
    expect(reasons).toEqual([
      "the link with this long URL was not made by this program since it started, so its password, redirect type and parameters cannot be checked",
    ]);
  });

  it("a link made elsewhere while this index read the service (a queue-mode worker beside another): the alias the service says is taken is looked up again, and the reason is that link's", async () => {
    // The index's list request is answered only after the other process made its link: the sync
    // under way when the create is asked for misses it, and the create that follows fails.
    let letListThrough: () => void = () => undefined;
    const listHeld = new Promise<void>((resolve) => (letListThrough = resolve));
    let holdNextList = false;
    const plain = undiciTransport();
    const held = new LinkShortClient({
      baseUrl: sandbox.baseUrl,
      apiKey: sandbox.userKey,
      rateLimit: false,
      transport: async (request) => {
        if (holdNextList && request.method === "GET" && new URL(request.url).pathname.endsWith("/urls")) {
          holdNextList = false;
          await listHeld;
        }
        return plain(request);
      },
    });
    const heldIndex = new LinkIndex({ minSyncIntervalMs: 0 });
    heldIndex.watch(held);
    await heldIndex.sync(held);
    const url = fresh();
    const alias = `made-meanwhile-${serial}`;
    holdNextList = true;
    const syncUnderWay = heldIndex.sync(held);
    await other.links.create({ url, custom: alias });
    const reasons: string[] = [];
    const creating = createLink(held, heldIndex, { url, custom: alias }, { reuse: true, onNotReused: (reason) => reasons.push(reason) });
    letListThrough();
    await expect(creating).rejects.toThrow(/alias is taken/);
    await syncUnderWay;
    expect(reasons.at(-1)).toBe(
      "the link with this long URL was not made by this program since it started, so its password, redirect type and parameters cannot be checked",
    );
  });

  it("a link changed on the server since the index read it: the reason names what changed", async () => {
    const url = fresh();
    const made = await createReusing(client, index, { url });
    await other.links.update(made.id, { url, expiry: "2031-01-01 00:00:00" });
    const { answer, reasons } = await reasonFor({ url });
    expect(answer.id).not.toBe(made.id);
    expect(reasons).toEqual(["the link with this long URL has another expiry"]);
  });
});

describe("reuse after a restart, the key's window in use", () => {
  it("a new index finds the link its record proves with one page, though the sweep's share of the window is spent", async () => {
    // The real limit: 30 a minute. A restart is a new client, an empty index and the record read back.
    const limited = await startSandbox({ seed: "minimal", rateLimit: { limit: 30, windowMs: 60_000 } });
    try {
      const before = new LinkShortClient({ baseUrl: limited.baseUrl, apiKey: limited.userKey });
      const beforeIndex = new LinkIndex({});
      beforeIndex.watch(before);
      const record = new MadeLinks();
      const input = { url: fresh(), custom: `after-restart-${serial}` };
      const made = await createLink(before, beforeIndex, input, { reuse: true, record });
      const saved = JSON.parse(JSON.stringify(record.state())) as unknown;
      // Other workflows of the account use the window meanwhile: the sweep's share of it is gone.
      for (let call = 0; call < 5; call += 1) await before.account.get();
      const after = new LinkShortClient({ baseUrl: limited.baseUrl, apiKey: limited.userKey });
      const afterIndex = new LinkIndex({});
      afterIndex.watch(after);
      const readBack = new MadeLinks();
      readBack.merge(saved);
      const from = limited.requests.length;
      const again = await createLink(after, afterIndex, input, { reuse: true, record: readBack });
      expect(again).toMatchObject({ id: made.id, reused: true });
      expect(limited.requests.slice(from).map((request) => `${request.method} ${request.path}`)).toEqual(["GET /api/urls", `GET /api/url/${made.id}`]);
    } finally {
      await limited.close();
    }
  });
});

describe("createLink, the one way front ends make a link", () => {
  it("without reuse it still keeps what the link was made with, so a later reuse costs one GET, not a create", async () => {
    const url = fresh();
    const made = await createLink(client, index, { url, type: "frame", utm: { campaign: "spring" } });
    expect(made.reused).toBe(false);
    const before = sandbox.requests.length;
    await expect(createReusing(client, index, { url, type: "frame", utm: { campaign: "spring" } })).resolves.toEqual({ ...made, reused: true });
    expect(apiRequests(before).map((request) => `${request.method} ${request.path}`)).toEqual([`GET /api/urls`, `GET /api/url/${made.id}`]);
  });

  it("puts a link on the default domain when its input names none, trimmed; a blank one is the service's own; checked as the domain", async () => {
    const demo = sandbox.store.state.users.find((user) => user.username === "demo")!;
    sandbox.store.state.domains.push({
      id: 9_001,
      userId: demo.id,
      domain: "https://go.demo.example",
      redirectroot: "https://demo.example",
      redirect404: "https://demo.example/404",
    });
    const onDefault = await createLink(client, index, { url: fresh() }, { defaultDomain: " https://go.demo.example " });
    expect(recordOf(onDefault.id).domain).toBe("https://go.demo.example");
    const ownDomain = await createLink(client, index, { url: fresh(), domain: sandbox.baseUrl }, { defaultDomain: "https://go.demo.example" });
    expect(ownDomain.shorturl.startsWith(`${sandbox.baseUrl}/`)).toBe(true);
    const blank = await createLink(client, index, { url: fresh() }, { defaultDomain: "  " });
    expect(blank.shorturl.startsWith(`${sandbox.baseUrl}/`)).toBe(true);
    const before = sandbox.requests.length;
    await expect(createLink(client, index, { url: fresh() }, { defaultDomain: "go.demo.example" })).rejects.toThrow(
      "domain: must be a valid http or https URL",
    );
    expect(sandbox.requests.length).toBe(before);
  });

  it("checks a create once: a body the check made is sent as it stands, one shaped like it is checked", async () => {
    const checked = checkLinkCreate({ url: fresh(), utm: { source: "mail" } });
    expect(checked).toEqual({ url: checked.url, parameters: [{ name: "utm_source", value: "mail" }] });
    expect(Object.isFrozen(checked)).toBe(true);
    expect(checkLinkCreate(checked)).toBe(checked);
    const lookalike = { ...checked, url: "not a url" } as unknown as CheckedLinkCreate;
    const before = sandbox.requests.length;
    await expect(client.links.create(lookalike)).rejects.toBeInstanceOf(ValidationError);
    await expect(createLink(client, index, lookalike)).rejects.toThrow("url: must be a valid http or https URL");
    expect(sandbox.requests.length).toBe(before);
  });
});
