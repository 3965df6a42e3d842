/** The MCP server's one bounded cache: least recently used let go past the bound (the evicted told), peek not a use, entries living their TTL. */
import { BoundedCache } from "../src/auth/bounded-cache";

test("past max the least recently used goes (a get or a set is a use, a peek is not), and onEvict is told of it alone", () => {
  const evicted: Array<[string, number]> = [];
  const cache = new BoundedCache<string, number>({ max: 3, onEvict: (value, key) => evicted.push([key, value]) });
  cache.set("a", 1).set("b", 2).set("c", 3);
  expect(cache.get("a")).toBe(1);
  expect(cache.peek("b")).toBe(2);
  cache.set("d", 4);
  expect([cache.has("a"), cache.has("b"), cache.has("c"), cache.has("d")]).toEqual([true, false, true, true]);
  cache.set("c", 30);
  cache.delete("a");
  cache.set("e", 5).set("f", 6);
  expect(cache.size).toBe(3);
  expect(evicted).toEqual([
    ["b", 2],
    ["d", 4],
  ]);
});

test("with ttlMs an entry lives that long after it was set, on the clock given, and goes when looked at after", () => {
  let now = 1_000;
  const cache = new BoundedCache<string, string>({ max: 10, ttlMs: 500, now: () => now });
  cache.set("key", "value");
  now += 499;
  expect(cache.get("key")).toBe("value");
  now += 1;
  expect(cache.peek("key")).toBeUndefined();
  expect(cache.size).toBe(0);
  cache.set("key", "again");
  now += 300;
  cache.set("key", "renewed");
  now += 400;
  expect(cache.has("key")).toBe(true);
});
