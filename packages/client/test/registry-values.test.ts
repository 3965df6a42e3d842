import { AccountRegistry } from "../src";

test("a registry's values are what it keeps now, least recently used first: an evicted value is gone from them", () => {
  const evicted: string[] = [];
  const registry = new AccountRegistry<string>(2, (value) => evicted.push(value));
  registry.get("a", () => "A");
  registry.get("b", () => "B");
  registry.get("a", () => "unused");
  registry.get("c", () => "C");
  expect(evicted).toEqual(["B"]);
  expect([...registry.values()]).toEqual(["A", "C"]);
});
