/** The rules around the index that every front end takes from the client: account identity, the registry, click order, the freshness sentence. */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import {
  freshnessSentence,
  LinkIndex,
  LinkIndexRegistry,
  LinkShortClient,
  type IndexFreshness,
  type IndexMeta,
  type LinkIndexStore,
  type StoredLink,
} from "../src";

const client = (baseUrl: string, apiKey = "key-one-0123456789") =>
  new LinkShortClient({ baseUrl, apiKey, transport: () => Promise.reject(new Error("no requests here")) });

describe("the per-account registry of indexes", () => {
  it("one index for https://X/ and https://x, another for another key; at most its bound, the least recently used let go", () => {
    const registry = new LinkIndexRegistry(2);
    const first = registry.indexFor(client("https://Short.example/"));
    expect(registry.indexFor(client("https://short.example"))).toBe(first);
    expect(registry.indexFor(client("https://short.example/api"))).toBe(first);
    const other = registry.indexFor(client("https://short.example", "key-two-0123456789"));
    expect(other).not.toBe(first);
    registry.indexFor(client("https://short.example")); // used again: the other key is now the oldest
    registry.indexFor(client("https://third.example"));
    expect(registry.size).toBe(2);
    expect(registry.indexFor(client("https://short.example"))).toBe(first);
    expect(registry.indexFor(client("https://short.example", "key-two-0123456789"))).not.toBe(other);
  });
});

describe("the registry holds no client", () => {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;

  it("a client given to indexFor is collected once its caller is done with it (n8n makes one an execution)", async () => {
    const registry = new LinkIndexRegistry();
    // What an execution leaves behind: weak references to its client and the client's parts.
    const execute = (): Array<WeakRef<object>> => {
      const perExecution = client("https://short.example");
      registry.indexFor(perExecution);
      return [new WeakRef(perExecution), new WeakRef(perExecution.links)];
    };
    const refs = Array.from({ length: 50 }, execute).flat();
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    expect(refs.filter((ref) => ref.deref() !== undefined).length).toBe(0);
  });

  it("an index let go takes no more changes from the clients that watched it; the one in its place does", async () => {
    const creating = new LinkShortClient({
      baseUrl: "https://short.example",
      apiKey: "key-one-0123456789",
      rateLimit: false,
      transport: () =>
        Promise.resolve({
          status: 200,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ error: 0, id: 7, shorturl: "https://short.example/made" }),
        }),
    });
    const registry = new LinkIndexRegistry(1);
    const first = registry.indexFor(creating);
    registry.indexFor(client("https://other.example")); // the first is let go
    const second = registry.indexFor(creating);
    expect(second).not.toBe(first);
    await creating.links.create({ url: "https://example.com/made" });
    expect(first.freshness().known).toBe(0);
    expect(second.freshness().known).toBe(1);
  });
});

describe("click order and the freshness sentence", () => {
  const links: StoredLink[] = [1, 2, 3, 4].map((id) => ({
    id,
    alias: `link${id}`,
    shorturl: `https://s.example/link${id}`,
    longurl: `https://example.com/${id}`,
    title: id === 4 ? "Other" : "Spring sale",
    description: "",
    date: null,
    clicks: id === 1 ? 50 : 10,
    seen: 1,
  }));
  const meta: IndexMeta = {
    version: 1,
    account: "a",
    frontierId: 4,
    sweep: null,
    generation: 1,
    lastFullSweepAt: 1,
    lastSyncAt: 1,
    serverCount: 4,
    serverCountExact: true,
  };
  const store: LinkIndexStore = { load: () => Promise.resolve({ meta, links }), save: () => Promise.resolve() };

  it("orders by clicks, newest first among equal counts, with or without text", async () => {
    const index = new LinkIndex({ store, account: "a" });
    await index.load();
    expect(index.search("", 10, "clicks").links.map((link) => link.id)).toEqual([1, 4, 3, 2]);
    const sale = index.search("spring", 2, "clicks");
    expect(sale.links.map((link) => link.id)).toEqual([1, 3]);
    expect(sale.matches).toBe(3);
  });

  it('says "about" only while the count is an estimate', () => {
    const base: IndexFreshness = {
      known: 3200,
      serverCount: 10_000,
      serverCountExact: false,
      complete: false,
      lastFullSweepAt: null,
      lastSyncAt: null,
      sweep: null,
    };
    expect(freshnessSentence(base)).toBe("Indexed 3,200 of about 10,000 links");
    expect(freshnessSentence({ ...base, serverCountExact: true })).toBe("Indexed 3,200 of 10,000 links");
    expect(freshnessSentence({ ...base, serverCount: null })).toBe("Indexing the account's links");
    const now = Date.UTC(2026, 0, 1, 12);
    const complete = { ...base, known: 10_000, complete: true, lastFullSweepAt: now - 5 * 60_000, lastSyncAt: now };
    expect(freshnessSentence(complete, { now })).toBe("10,000 links, all checked 5 min ago; new links read just now");
    expect(freshnessSentence(complete, { now, times: "iso" })).toBe(
      "10,000 links, all checked at 2026-01-01T11:55:00.000Z; new links read at 2026-01-01T12:00:00.000Z",
    );
  });
});
