import { createHash } from "node:crypto";
import { noteVisitTime } from "./visit-times";
import type { Visitor } from "./visitor";

/** A map of counts keyed by what visitors send (referrers...): no prototype, so `constructor` or `__proto__` is a key like any other. */
export function countMap(entries: Iterable<[string, number]> = []): Record<string, number> {
  const map = Object.create(null) as Record<string, number>;
  for (const [key, count] of entries) map[key] = count;
  return map;
}

/** Aggregated visits of a link or scans of a QR code. The maps have no prototype: their keys come from visitors. */
export interface Stats {
  clicks: number;
  visitors: string[];
  countries: Record<string, number>;
  referrers: Record<string, number>;
  browsers: Record<string, number>;
  os: Record<string, number>;
  social: Record<string, number>;
  /** Every visitor id hashed into a bitmap (base64), for the unique count once `visitors` is full. */
  sketch?: string;
  /** When the visits happened (`visit-times.ts`); absent in data files of earlier versions and for links pushed whole by tests. */
  times?: number[];
}

export function emptyStats(): Stats {
  return { clicks: 0, visitors: [], countries: countMap(), referrers: countMap(), browsers: countMap(), os: countMap(), social: countMap() };
}

const SOCIAL: Record<string, string[]> = {
  facebook: ["facebook.com", "fb.com", "m.facebook.com"],
  twitter: ["twitter.com", "t.co", "x.com"],
  google: ["google.com", "www.google.com"],
  instagram: ["instagram.com", "www.instagram.com"],
};

/**
 * Bounds of a link's statistics, as a real server keeps top lists rather than every value ever
 * seen: each count map keeps at most MAX_KEYS keys (a new key replaces the least counted one), keys
 * are cut to MAX_KEY_LENGTH, and unique visitors are exact up to MAX_VISITORS ids, then estimated
 * from a fixed bitmap of every visitor's hash (linear counting).
 */
export const MAX_KEYS = 100;
export const MAX_KEY_LENGTH = 200;
export const MAX_VISITORS = 1000;
const SKETCH_BITS = 16_384;

function bump(map: Record<string, number>, rawKey: string): void {
  const key = rawKey.length > MAX_KEY_LENGTH ? rawKey.slice(0, MAX_KEY_LENGTH) : rawKey;
  if (map[key] === undefined) {
    let size = 0;
    let least: string | undefined;
    for (const other in map) {
      size += 1;
      if (least === undefined || map[other]! < map[least]!) least = other;
    }
    if (size >= MAX_KEYS && least !== undefined) delete map[least];
  }
  map[key] = (map[key] ?? 0) + 1;
}

function sketchBit(id: string): number {
  return Number.parseInt(createHash("sha256").update(id).digest("hex").slice(0, 8), 16) % SKETCH_BITS;
}

function addToSketch(stats: Stats, id: string): void {
  const bits = stats.sketch ? Buffer.from(stats.sketch, "base64") : Buffer.alloc(SKETCH_BITS / 8);
  if (!stats.sketch) for (const known of stats.visitors) setBit(bits, sketchBit(known));
  setBit(bits, sketchBit(id));
  stats.sketch = bits.toString("base64");
}

function setBit(bits: Buffer, bit: number): void {
  bits[bit >> 3]! |= 1 << (bit & 7);
}

/** Unique visitors: exact while the id list has room, then the bitmap's estimate. */
export function uniqueVisitors(stats: Stats): number {
  if (stats.visitors.length < MAX_VISITORS || !stats.sketch) return stats.visitors.length;
  const bits = Buffer.from(stats.sketch, "base64");
  let zeros = 0;
  for (const byte of bits) for (let bit = 0; bit < 8; bit += 1) if (!(byte & (1 << bit))) zeros += 1;
  const estimate = zeros === 0 ? SKETCH_BITS * Math.log(SKETCH_BITS) : -SKETCH_BITS * Math.log(zeros / SKETCH_BITS);
  return Math.max(stats.visitors.length, Math.round(estimate));
}

export function recordVisit(stats: Stats, visitor: Visitor, now: number): void {
  stats.clicks += 1;
  stats.times = noteVisitTime(stats.times, now);
  if (stats.visitors.length < MAX_VISITORS) {
    if (!stats.visitors.includes(visitor.id)) {
      stats.visitors.push(visitor.id);
      if (stats.sketch || stats.visitors.length === MAX_VISITORS) addToSketch(stats, visitor.id);
    }
  } else addToSketch(stats, visitor.id);
  bump(stats.countries, visitor.country ?? "Unknown");
  bump(stats.referrers, visitor.referrer);
  bump(stats.browsers, visitor.browser);
  bump(stats.os, visitor.os);
  for (const [network, hosts] of Object.entries(SOCIAL)) {
    if (hosts.includes(visitor.referrer.toLowerCase())) bump(stats.social, network);
  }
}
