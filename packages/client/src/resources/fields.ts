/**
 * The building blocks of every resource's schemas: the checks inputs are made of, and the leaves
 * answers are read with. Internal: each resource composes its own inputs and answers from these.
 */
import * as z from "zod/v4";

import { isHttpUrl } from "../addresses";
import { isPlainObject, normaliser, Rejected } from "../internal/readers";

export const TIMESTAMP_PATTERN = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const DATE_ONLY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
export const RGB_PATTERN = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/;
/** The longest e-mail address SMTP carries (RFC 5321: a 256-octet path, less its angle brackets). */
export const MAX_EMAIL_LENGTH = 254;
const PHONE_PATTERN = /^\+?[0-9][0-9 ().-]{2,30}$/;
const IMAGE_PATTERN = /\.(png|jpe?g)$/i;

/** How a timestamp input is described to those who fill it in (a model, a form). */
export const TIMESTAMP_DESCRIPTION = "a date and time formatted YYYY-MM-DD HH:MM:SS, in the server's time zone";

/**
 * `local@domain.tld`: one `@` with text before it, no white space, and a dot inside the domain
 * with text on both sides. One pass over the value: the pattern this replaces
 * (/^[^\s@]+@[^\s@]+\.[^\s@]+$/) backtracked quadratically over a domain of dots.
 */
export function isEmail(value: string): boolean {
  if (value.length > MAX_EMAIL_LENGTH || /\s/.test(value)) return false;
  const at = value.indexOf("@");
  if (at < 1 || value.indexOf("@", at + 1) !== -1) return false;
  const domain = value.slice(at + 1);
  const dot = domain.indexOf(".", 1);
  return dot !== -1 && dot < domain.length - 1;
}

/** The API's `YYYY-MM-DD HH:MM:SS` read as its numbers (month 1 to 12), or null when written otherwise. */
export function timestampParts(value: string): [year: number, month: number, day: number, hour: number, minute: number, second: number] | null {
  const match = TIMESTAMP_PATTERN.exec(value);
  return match ? (match.slice(1).map(Number) as [number, number, number, number, number, number]) : null;
}

export function isTimestamp(value: string): boolean {
  const parts = timestampParts(value);
  if (!parts) return false;
  const [year, month, day, hour, minute, second] = parts;
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second
  );
}

export function isRgbColour(value: string): boolean {
  const match = RGB_PATTERN.exec(value);
  return match !== null && match.slice(1).every((part) => Number(part) <= 255);
}

/** Formats a date as the API's `YYYY-MM-DD HH:MM:SS`, as wall-clock time in `timeZone` (UTC by default). */
export function formatTimestamp(date: Date, timeZone = "UTC"): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    })
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/**
 * The API's `YYYY-MM-DD HH:MM:SS`, read as wall-clock time in `timeZone`, as ISO 8601 with that
 * zone's offset at that moment (`2026-11-16T02:35:10+01:00`); a date alone (some servers keep only
 * that) as `YYYY-MM-DD`. Null for anything else. In a time skipped by a clock change, the offset
 * in force just before it.
 */
export function timestampIso(value: string, timeZone = "UTC"): string | null {
  if (DATE_ONLY_PATTERN.test(value)) return value;
  if (!isTimestamp(value)) return null;
  const [year, month, day, hour, minute, second] = timestampParts(value)!;
  const wallClock = Date.UTC(year, month - 1, day, hour, minute, second);
  const offsetAt = (instant: number) => {
    const [y, mo, d, h, mi, s] = timestampParts(formatTimestamp(new Date(instant), timeZone))!;
    return Date.UTC(y, mo - 1, d, h, mi, s) - instant;
  };
  // The offset at the wall-clock time read as UTC, then once more at the instant that gives: right
  // on both sides of a clock change.
  const offset = offsetAt(wallClock - offsetAt(wallClock));
  const minutes = Math.round(Math.abs(offset) / 60_000);
  const sign = offset < 0 ? "-" : "+";
  return `${value.replace(" ", "T")}${sign}${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

export const required = (what = "is required") => ({ error: (issue: { input: unknown }) => (issue.input === undefined ? "is required" : what) });

export const httpUrl = z.string(required("must be a text URL")).refine(isHttpUrl, "must be a valid http or https URL");
export const timestampInput = z.string(required()).refine(isTimestamp, "must be a date and time formatted YYYY-MM-DD HH:MM:SS");
export const nonEmpty = z.string(required("must be text")).min(1, "must not be empty");
export const optionalText = z.string("must be text").optional();
export const colour = z.string("must be text").refine(isRgbColour, "must be a colour written rgb(r,g,b) with each value from 0 to 255");
export const logo = z
  .string("must be text")
  .refine((value) => IMAGE_PATTERN.test(value.split(/[?#]/)[0] ?? ""), "must be the URL or path of a .png or .jpg image");
// The length is checked first, and alone: a longer value is refused before any other check reads it.
export const email = z
  .string(required("must be text"))
  .max(MAX_EMAIL_LENGTH, { message: `must be at most ${MAX_EMAIL_LENGTH} characters`, abort: true })
  .refine(isEmail, "must be a valid e-mail address");
export const phone = z.string(required("must be text")).regex(PHONE_PATTERN, "must be a phone number (digits, spaces, + ( ) . -)");
export const password = z.string(required("must be text")).min(5, "must be at least 5 characters");
export const positiveInteger = z.number(required("must be a number")).int("must be a whole number").positive("must be positive");

// Ids past Number.MAX_SAFE_INTEGER cannot be held exactly: "9007199254740993" would be sent as ...992.
export const IdSchema = z.union(
  [
    z.number().int().positive(),
    z
      .string()
      .regex(/^[1-9]\d*$/)
      .transform(Number)
      .refine(Number.isSafeInteger),
  ],
  {
    error: (issue) => (issue.input === undefined ? "is required" : "must be a positive whole number"),
  },
);

/**
 * Whether `value` is a decimal such as `12`, `-3` or `4.50` (what `/^-?\d+(\.\d+)?$/` matches).
 * Spelled out because statistics arrive as dozens of numeric strings per answer and this is
 * twice as fast as the regular expression.
 */
export function isDecimalString(value: string): boolean {
  const length = value.length;
  let index = value.charCodeAt(0) === 45 /* - */ ? 1 : 0;
  const integerStart = index;
  while (index < length && isDigit(value.charCodeAt(index))) index += 1;
  if (index === integerStart) return false;
  if (index === length) return true;
  if (value.charCodeAt(index) !== 46 /* . */) return false;
  const fractionStart = (index += 1);
  while (index < length && isDigit(value.charCodeAt(index))) index += 1;
  return index === length && index > fractionStart;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/*
 * Each leaf is one plain function rather than a union of alternatives: every answer runs through
 * them, and `normaliser` lets the client read answers without zod's per-field machinery (readers.ts).
 */

export function readCount(value: unknown): number | Rejected {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (value === null || value === undefined) return 0;
  if (typeof value === "string" && isDecimalString(value)) return Number(value);
  return new Rejected("expected a number");
}

export function readIdentifier(value: unknown): number | Rejected {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string" && /^\d+$/.test(value)) return Number(value);
  return new Rejected("expected a numeric id");
}

/** A number that may arrive as a numeric string; null and absent become 0. */
export const count = normaliser(readCount);

/** A numeric identifier that may arrive as a string. */
export const identifier = normaliser(readIdentifier);

/** A string that may be null or absent; becomes "". */
export const text = normaliser((value): string | Rejected => {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return String(value);
  return new Rejected("expected text");
});

/** A timestamp `YYYY-MM-DD HH:MM:SS` (or only its date part), kept as the string the server sent, or null. */
export const timestamp = normaliser((value): string | null | Rejected => {
  if (typeof value === "string") return value || null;
  if (value === null || value === undefined) return null;
  return new Rejected("expected a timestamp");
});

/** PHP sends an empty map as `0`, `"0"`, `[]`, `false` or null. */
export function isEmptyMap(value: unknown): boolean {
  return value === 0 || value === "0" || value === false || value === null || value === undefined || (Array.isArray(value) && value.length === 0);
}

/** A statistics map (name to count) whose counts may be numeric strings and which is `0` when empty. */
export const countMap = normaliser((value): Record<string, number> | Rejected => {
  if (isEmptyMap(value)) return {};
  if (!isPlainObject(value)) return new Rejected("expected a map of counts");
  const counts: Record<string, number> = {};
  // for-in is the fastest walk over the keys, and a parsed JSON object inherits none.
  for (const name in value) {
    const raw = value[name];
    if (typeof raw === "number" && Number.isFinite(raw)) counts[name] = raw;
    else if (typeof raw === "string" && isDecimalString(raw)) counts[name] = Number(raw);
    else return new Rejected(`expected a count for "${name}"`);
  }
  return counts;
});

/** A targeting map (lower-case location or device name to URL); empty may arrive as `[]` or `0`. */
export const targetMap = normaliser((value): Record<string, string> | Rejected => {
  if (isEmptyMap(value)) return {};
  if (!isPlainObject(value)) return new Rejected("expected a map of URLs");
  for (const name of Object.keys(value)) if (typeof value[name] !== "string") return new Rejected(`expected a URL for "${name}"`);
  return value as Record<string, string>;
});

/** `0`, `"0"` and `false` mean off; `1`, `"1"` and `true` mean on. */
export const flag = normaliser((value): boolean | Rejected => {
  if (value === true || value === 1 || value === "1") return true;
  if (value === false || value === 0 || value === "0" || value === "" || value === null || value === undefined) return false;
  return new Rejected("expected 0 or 1");
});
