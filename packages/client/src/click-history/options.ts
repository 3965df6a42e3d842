/** What a `ClickHistory` is given, and the checks of it (a `ValidationError` naming the option). */
import * as z from "zod/v4";
import { TimeZoneSchema } from "./schemas";
import type { ClickHistoryStore } from "./store";

export interface ClickHistoryOptions {
  /** The account the history is of (`client.accountId`): a stored history of another account starts this one empty. */
  account: string;
  /** Where it is kept between runs; in memory by default. */
  store?: ClickHistoryStore;
  /** The zone whose hours, days and months older history keeps (default UTC): the zone its questions are usually asked in. */
  timeZone?: string;
  /** A pause longer than this with no sample of the account means nothing was running: clicks gained across it are a gap. Default 1 hour. */
  gapAfterMs?: number;
  /** A sample lower than the last, this soon after it, is a read that crossed a newer one, not a reset. Default 60 s. */
  crossedReadMs?: number;
  /** `saveIfDue` writes at most this often. Default 60 s. */
  saveEveryMs?: number;
  now?: () => number;
  /** Told each note (a stored history that could not be used). */
  warn?: (text: string) => void;
}

export const OptionsSchema = z.object({
  account: z.string("must be text").min(1, "must not be empty"),
  timeZone: TimeZoneSchema.default("UTC"),
  gapAfterMs: z.number("must be a number").int("must be a whole number").positive("must be positive").default(3_600_000),
  crossedReadMs: z.number("must be a number").int("must be a whole number").nonnegative("must not be negative").default(60_000),
  saveEveryMs: z.number("must be a number").int("must be a whole number").nonnegative("must not be negative").default(60_000),
});
/** The options as checked, their defaults filled in. */
export type CheckedOptions = z.output<typeof OptionsSchema>;
