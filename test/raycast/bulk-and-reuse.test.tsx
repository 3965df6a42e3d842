import { startSandbox } from "@linkshort/sandbox";
import { bulkUrls, MAX_BULK_TEXT_CHARS, MAX_BULK_URLS } from "../../raycast-extension/src/values/bulk-urls";
import { shortenLink } from "../../raycast-extension/src/shorten-link";
import { shortenInBulk } from "../../raycast-extension/src/shorten-links-in-bulk";
import { apiCall, mock, useSandbox } from "./helpers";

// A tight limit: 20 URLs take more than one window, so the client must pace them.
const sandbox = useSandbox({ start: () => startSandbox({ seed: "minimal", rateLimit: { limit: 8, windowMs: 1_000 } }) });

const creates = () => sandbox.requests.filter((request) => request.path === "/api/url/add").length;
const clipboardOnly = { selection: async () => undefined, clipboard: async () => mock.clipboard };

describe("Shorten Links in Bulk", () => {
  it("shortens 20 URLs from the clipboard within the rate limit, naming the bad one, and copies the short URLs", async () => {
    const good = Array.from({ length: 19 }, (_, i) => `https://example.com/bulk/${i}`);
    mock.clipboard = [...good.slice(0, 7), "htp://not-a-url", ...good.slice(7)].join("\n");
    const before = creates();
    const result = await shortenInBulk(clipboardOnly);

    expect(result!.shortUrls).toHaveLength(19);
    expect(result!.failed).toEqual([{ url: "htp://not-a-url", reason: expect.stringContaining("url: must be a valid http or https URL") }]);
    expect(creates() - before).toBe(19); // the bad URL never reached the service
    const stored = sandbox.store.state.links.filter((link) => link.url.startsWith("https://example.com/bulk/"));
    expect(stored.map((link) => link.url).sort()).toEqual([...good].sort());
    expect(mock.clipboard!.split("\n")).toEqual(good.map((url) => `${sandbox.baseUrl}/${stored.find((link) => link.url === url)!.alias}`));
    expect(mock.toastTitles).toContain("Shortening 8 of 20");
    expect(mock.toasts.at(-1)).toMatchObject({
      style: "FAILURE",
      title: "Copied 19 of 20 short links; 1 failed",
      message: expect.stringContaining("htp://not-a-url: "),
    });
  }, 30_000);

  it("stops at a failure every later URL would share (the service down), sending nothing more, and counts the rest as not tried", async () => {
    mock.clipboard = ["https://example.com/down/1", "https://example.com/down/2", "https://example.com/down/3"].join("\n");
    sandbox.faults.set([{ kind: "5xx", route: "^POST /api/url/add$" }]);
    const before = creates();
    try {
      const result = await shortenInBulk(clipboardOnly);
      expect(creates() - before).toBe(1);
      expect(result!.failed).toEqual([{ url: "https://example.com/down/1", reason: expect.stringContaining("HTTP 503") }]);
      expect(result!.notTried).toEqual(["https://example.com/down/2", "https://example.com/down/3"]);
      expect(mock.toasts.at(-1)).toMatchObject({ style: "FAILURE", title: "Copied 0 of 3 short links; 1 failed, 2 not tried" });
    } finally {
      sandbox.faults.clear();
    }
  });

  it("finds URLs in prose, pastes per the preference, and refuses too many before any request", async () => {
    mock.preferences.primaryAction = "paste";
    mock.clipboard = "Launch notes: see (https://example.com/prose/a), and https://example.com/prose/b. Thanks!";
    const result = await shortenInBulk(clipboardOnly);
    expect(result!.failed).toEqual([]);
    expect(mock.pasted).toHaveLength(1);
    expect(mock.pasted[0]!.split("\n")).toHaveLength(2);
    expect(mock.huds).toEqual(["Pasted 2 short links"]);

    const before = sandbox.requests.length;
    mock.clipboard = Array.from({ length: MAX_BULK_URLS + 1 }, (_, i) => `https://example.com/many/${i}`).join("\n");
    expect(await shortenInBulk(clipboardOnly)).toBeUndefined();
    expect(mock.toasts.at(-1)).toMatchObject({
      style: "FAILURE",
      message: `Found ${MAX_BULK_URLS + 1} URLs; at most ${MAX_BULK_URLS} at a time: select fewer lines`,
    });
    expect(sandbox.requests.length).toBe(before);
  });

  it("reads text in linear time and caps it before looking at it", () => {
    expect(bulkUrls("x".repeat(MAX_BULK_TEXT_CHARS + 1))).toEqual({ error: expect.stringContaining("at most 100,000 at a time") });
    const crafted = `${"https://".repeat(8_000)} ${"(".repeat(30_000)}${" ".repeat(5_000)}x`;
    expect(crafted.length).toBeLessThanOrEqual(MAX_BULK_TEXT_CHARS);
    expect(bulkUrls(crafted)).toEqual({ urls: ["https://".repeat(8_000)] });
    expect(bulkUrls("https://en.wikipedia.org/wiki/Link_(disambiguation)\nhttps://example.com/a\nhttps://example.com/a")).toEqual({
      urls: ["https://en.wikipedia.org/wiki/Link_(disambiguation)", "https://example.com/a"],
    });
  });
});

describe("Shorten Link: reuse an existing link for the same URL", () => {
  it("gives the same short link for the same URL when the preference is on, and says it was reused", async () => {
    mock.preferences.reuseExisting = false;
    const first = await shortenLink("https://example.com/twice");
    mock.preferences.reuseExisting = true;
    const before = creates();
    const second = await shortenLink("https://example.com/twice");
    expect(second).toBe(first);
    expect(creates()).toBe(before);
    expect(mock.huds.at(-1)).toBe(`Copied ${first} (your existing link)`);
  });

  it("never hands back a link made elsewhere with options of its own (an alias, a title, a password)", async () => {
    const made = await apiCall(sandbox, "POST", "/api/url/add", {
      url: "https://example.com/elsewhere",
      custom: "elsewhere-first",
      metatitle: "Elsewhere",
      password: "secret-3",
    });
    mock.preferences.reuseExisting = true;
    const answer = await shortenLink("https://example.com/elsewhere");
    expect(answer).not.toBe(String(made.shorturl));
    const record = sandbox.store.state.links.find((link) => answer?.endsWith(`/${link.alias}`))!;
    expect(record).toMatchObject({ url: "https://example.com/elsewhere", password: null, metatitle: "" });
  });
});
