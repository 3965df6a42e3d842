/** The client's one "keep N, let the oldest go": set order, a set moving an entry up, the evicted told. */
import { BoundedMap } from "../src/internal/bounded-map";

test("past its bound the entry set longest ago goes, and onEvict is told of it", () => {
  const evicted: Array<[string, number]> = [];
  const map = new BoundedMap<string, number>(3, (value, key) => evicted.push([key, value]));
  for (const [key, value] of [
    ["a", 1],
    ["b", 2],
    ["c", 3],
    ["d", 4],
  ] as const)
    map.set(key, value);
  expect(map.size).toBe(3);
  expect(map.has("a")).toBe(false);
  expect([...map.values()]).toEqual([2, 3, 4]);
  expect(evicted).toEqual([["a", 1]]);
});

test("setting a kept entry again makes it the newest; reading it does not", () => {
  const map = new BoundedMap<string, number>(2);
  map.set("a", 1).set("b", 2);
  expect(map.get("a")).toBe(1);
  map.set("c", 3);
  expect(map.has("a")).toBe(false);
  map.set("b", 20).set("d", 4);
  expect([...map.values()]).toEqual([20, 4]);
  expect(map.delete("b")).toBe(true);
  expect(map.size).toBe(1);
});
