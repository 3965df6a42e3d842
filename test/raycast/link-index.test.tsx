import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { LinkIndex, LinkShortClient, RateLimiter } from "@linkshort/client";
import type { ReactTestInstance } from "react-test-renderer";
import { CacheIndexStore, indexNamespace } from "../../raycast-extension/src/api/index-store";
import { LinkForm } from "../../raycast-extension/src/components/LinkForm";
import SearchLinks from "../../raycast-extension/src/search-links";
import { Cache, cacheEntries } from "./raycast-api-mock";
import { byType, field, mock, press, render, submit, useSandbox, waitFor } from "./helpers";

const apiRequests = (sandbox: Sandbox, from: number) => sandbox.requests.slice(from).filter((request) => request.path.startsWith("/api/"));
const items = (root: ReactTestInstance) => byType(root, "List.Item");
const list = (root: ReactTestInstance) => byType(root, "List")[0]!;
const progressLine = (root: ReactTestInstance) => String(byType(root, "List.Section")[0]?.props.subtitle ?? "");

describe("Search Links over a 10,000-link account", () => {
  const count = 10_000;
  const sandbox = useSandbox({ start: () => startSandbox({ seed: { links: count }, rateLimit: { limit: 1_000_000, windowMs: 60_000 } }) });

  const userLinks = () => sandbox.store.state.links.filter((link) => link.userId === 2);

  it("shows a progress line during the first sync, then finds the oldest link by its alias as it is typed, with no request per keystroke", async () => {
    const view = await render(<SearchLinks />);
    const progress: string[] = [];
    await waitFor(
      () => {
        progress.push(progressLine(view.root));
        return list(view.root).props.isLoading === false;
      },
      "the first sync",
      60_000,
    );
    // "100 of 3,400 · Indexed 3,400 of 10,100 links": the section shows the newest 100 of the links indexed so far ("about" until the last page is counted).
    const during = progress.filter((line) => /Indexed [\d,]+ of (about )?[\d,]+ links$/.test(line));
    expect(during.length).toBeGreaterThan(0);
    const [, indexed, total] = /Indexed ([\d,]+) of (?:about )?([\d,]+) links$/.exec(during.at(-1)!)!;
    // At most all of them: the sweep reads the last page (to count) before it walks, so the walk's last step may begin with every link known.
    expect(Number(indexed!.replace(/,/g, ""))).toBeLessThanOrEqual(Number(total!.replace(/,/g, "")));
    expect(progressLine(view.root)).toMatch(
      new RegExp(`^100 of ${userLinks().length.toLocaleString("en-US")} · ${userLinks().length.toLocaleString("en-US")} links, all checked just now`),
    );

    const oldest = userLinks().reduce((a, b) => (a.id < b.id ? a : b));
    const before = sandbox.requests.length;
    for (let typed = 1; typed <= oldest.alias.length; typed += 1) {
      await press(list(view.root).props.onSearchTextChange, oldest.alias.slice(0, typed));
    }
    expect(items(view.root)[0]!.props.id).toBe(String(oldest.id));
    expect(byType(view.root, "List.Section")[0]!.props.title).toBe("Best Matches");
    expect(apiRequests(sandbox, before)).toEqual([]);
    view.unmount();
  }, 90_000);

  it("shows a link made in the extension at once, without reading the account again", async () => {
    const view = await render(<SearchLinks />);
    await waitFor(() => list(view.root).props.isLoading === false, "the sync on opening");
    const form = await render(<LinkForm initialUrl="https://example.com/made-in-raycast" />);
    await press(field(form.root, "Custom Alias").props.onChange, "made-in-raycast");
    const before = sandbox.requests.length;
    await submit(form.root);
    await waitFor(() => mock.pushed.length === 1, "the link made");
    await press(list(view.root).props.onSearchTextChange, "made-in-raycast");
    expect(items(view.root)[0]!.props.title).toBe(`${sandbox.baseUrl.replace(/^https?:\/\//, "")}/made-in-raycast`);
    expect(apiRequests(sandbox, before).filter((request) => request.method === "GET" && request.path.startsWith("/api/urls"))).toEqual([]);
    form.unmount();
    view.unmount();
  });

  it("keeps the index in Raycast's cache under a digest of the account, never the key, and a save rewrites only what changed", async () => {
    const namespace = indexNamespace(new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey }).accountId);
    const entries = cacheEntries();
    expect(entries.some(([key]) => key.startsWith(`${namespace}:links-`))).toBe(false); // mock.reset cleared it: fill it again
    const cache = new Cache({ namespace });
    const written: string[] = [];
    const recording = { get: cache.get, remove: cache.remove, set: (key: string, value: string) => (written.push(key), cache.set(key, value)) };
    const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter() } });
    const index = new LinkIndex({ store: new CacheIndexStore(recording) });
    index.watch(client);
    await index.sync(client);
    expect(index.freshness().known).toBe(userLinks().length);
    for (const [key, value] of cacheEntries()) {
      expect(key).not.toContain(sandbox.userKey);
      expect(value).not.toContain(sandbox.userKey);
    }

    written.length = 0;
    await client.links.create({ url: "https://example.com/one-more" });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(written.sort()).toEqual([expect.stringMatching(/^links-\d+$/), "meta"]);

    // Another process (the next command) loads it from the cache: a sync with nothing new costs one request.
    const reloaded = new LinkIndex({ store: new CacheIndexStore(cache) });
    const oldest = userLinks().reduce((a, b) => (a.id < b.id ? a : b));
    await reloaded.load();
    expect(reloaded.search(oldest.alias, 1).links[0]!.id).toBe(oldest.id);
    const before = sandbox.requests.length;
    await reloaded.sync(client, { force: true });
    expect(apiRequests(sandbox, before)).toHaveLength(1);
  }, 60_000);

  it("starts over when the cache lost part of the index (Raycast evicts past its capacity)", async () => {
    const cache = new Cache({ namespace: "evicted" });
    const client = new LinkShortClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey, rateLimit: { limiter: new RateLimiter() } });
    await new LinkIndex({ store: new CacheIndexStore(cache) }).sync(client);
    const bucket = cacheEntries()
      .find(([key]) => key.startsWith("evicted:links-"))![0]
      .slice("evicted:".length);
    cache.remove(bucket);
    expect(await new CacheIndexStore(cache).load()).toBeUndefined();
  }, 60_000);
});

describe("Search Links while the rate limit is spent", () => {
  // A server that caps pages at 100: the first sync's 30 pages span several windows.
  const sandbox = useSandbox({ start: () => startSandbox({ seed: { links: 3_000 }, maxPageSize: 100, rateLimit: { limit: 6, windowMs: 1_000 } }) });

  it("waits for the next window during the first sync, and stops reading when the command closes", async () => {
    const view = await render(<SearchLinks />);
    await waitFor(() => /Indexed [\d,]+ of (about )?3,\d{3} links$/.test(progressLine(view.root)), "the progress line", 10_000);
    // Past the first window: the sync waited for the next one rather than stopping.
    await waitFor(() => apiRequests(sandbox, 0).length > 8, "a second window's pages", 10_000);
    expect(list(view.root).props.isLoading).toBe(true);
    view.unmount();
    await new Promise((resolve) => setTimeout(resolve, 200)); // a request already sent may finish
    const after = sandbox.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(sandbox.requests.length).toBe(after);
  }, 30_000);
});
