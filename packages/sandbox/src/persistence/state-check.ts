import { isRecord } from "../values";
import { countMap, type Stats } from "../visits/stats";
import { isVisitTimes } from "../visits/visit-times";
import type { State } from "./state";

/**
 * The check of a data file's state before the sandbox uses it: every collection an array of
 * records with the fields the routes rely on, every statistic a number, so that a file edited by
 * hand or by another version is refused at start with a message naming what is wrong.
 */

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  return typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value)?.slice(0, 40)}`;
}

/** What is wrong with a data file's state, naming the first thing found. */
export class ShapeError extends Error {}

function expectType(value: unknown, path: string, type: "string" | "number" | "boolean" | "object" | "array"): void {
  const ok =
    type === "array" ? Array.isArray(value) : type === "object" ? isRecord(value) : typeof value === type && (type !== "number" || Number.isFinite(value));
  if (!ok) throw new ShapeError(`${path} must be ${type === "array" || type === "object" ? "an" : "a"} ${type} (found ${describeValue(value)})`);
}

const COUNT_MAPS = ["countries", "referrers", "browsers", "os", "social"] as const;

function checkStats(value: unknown, path: string): Stats {
  expectType(value, path, "object");
  const stats = value as Record<string, unknown>;
  expectType(stats.clicks, `${path}.clicks`, "number");
  expectType(stats.visitors, `${path}.visitors`, "array");
  const checked = { clicks: stats.clicks as number, visitors: stats.visitors as string[] } as Stats;
  if (stats.sketch !== undefined) {
    expectType(stats.sketch, `${path}.sketch`, "string");
    checked.sketch = stats.sketch as string;
  }
  if (stats.times !== undefined) {
    if (!isVisitTimes(stats.times))
      throw new ShapeError(`${path}.times must be pairs of whole numbers [second, visits], seconds rising (found ${describeValue(stats.times)})`);
    checked.times = stats.times;
  }
  for (const name of COUNT_MAPS) {
    expectType(stats[name], `${path}.${name}`, "object");
    const entries = Object.entries(stats[name] as Record<string, unknown>);
    for (const [key, count] of entries) expectType(count, `${path}.${name}.${key}`, "number");
    checked[name] = countMap(entries as Array<[string, number]>);
  }
  return checked;
}

/** What each collection's entries must have, beyond an integer `id`. */
const REQUIRED: Record<string, Record<string, "string" | "number" | "boolean" | "array">> = {
  users: { username: "string", apiKey: "string", admin: "boolean" },
  domains: { userId: "number", domain: "string" },
  splash: { userId: "number", name: "string" },
  overlays: { userId: "number", name: "string" },
  links: { userId: "number", alias: "string", url: "string", type: "string", geotarget: "array", devicetarget: "array", parameters: "array" },
  pixels: { userId: "number", type: "string" },
  qrs: { userId: "number", code: "string", type: "string" },
  plans: { name: "string" },
  sso: { token: "string", userId: "number" },
};

/** The state a data file's text holds, checked, with its count maps made prototype-free; a ShapeError names the first thing that is wrong. */
export function readState(text: string): Partial<State> {
  return checkState(JSON.parse(text));
}

/** Checks parsed state in place (count maps made prototype-free, the snapshot's generation dropped). */
export function checkState(value: unknown): Partial<State> {
  if (!isRecord(value)) throw new ShapeError(`it must hold a JSON object (found ${describeValue(value)})`);
  if (value.nextId !== undefined) {
    expectType(value.nextId, '"nextId"', "object");
    for (const [kind, id] of Object.entries(value.nextId as Record<string, unknown>)) expectType(id, `nextId.${kind}`, "number");
  }
  for (const [collection, fields] of Object.entries(REQUIRED)) {
    const items = value[collection];
    if (items === undefined) continue;
    if (!Array.isArray(items)) throw new ShapeError(`"${collection}" must be an array (found ${describeValue(items)})`);
    items.forEach((item: unknown, index) => {
      const path = `${collection}[${index}]`;
      expectType(item, path, "object");
      const record = item as Record<string, unknown>;
      if (!Number.isInteger(record.id)) throw new ShapeError(`${path}.id must be a whole number (found ${describeValue(record.id)})`);
      for (const [field, type] of Object.entries(fields)) expectType(record[field], `${path}.${field}`, type);
      if (collection === "links" || collection === "qrs") record.stats = checkStats(record.stats, `${path}.stats`);
    });
  }
  delete value.generation;
  return value;
}
