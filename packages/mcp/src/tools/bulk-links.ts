/**
 * What update_links and delete_links share: the links a call names (by id, or by the search
 * find_links makes of the link index), the preview's seal (which links, what each looked like, which
 * arguments), and the run that confirms it, one link after another: each read again just before it
 * is written and left alone when it is not what the preview showed.
 */
import { IdSchema, isLinkShortError, stopsBulkRun, type LinkDetails, type RequestOptions } from "@linkshort/client";
import * as z from "zod/v4";
import { capped, describeFailure, refusedFields } from "../failures/describe";
import type { BulkLink, BulkLinks } from "./bulk-outputs";
import { digestOf, openSeal, seal, type BoundLink } from "./bulk-seal";
import { reportingProgress, type ToolContext } from "./define";
import { FIND_MAX_RESULTS, SEARCH_FIELDS, searchIndex } from "./find-links";

/** The most links one call previews or changes: the most a search answers. */
export const BULK_MAX_LINKS = FIND_MAX_RESULTS;

/**
 * What the preview saw of a link, and what is read again before it is written: its details, as
 * links.get answers them. The seal compares every field they show that an edit may change
 * (COMPARED_FIELDS); what the service never shows (password, redirect type, parameters) cannot be.
 */
export type SeenLink = LinkDetails;

/** The fields compared between the preview and the write, as the tools' descriptions name them. */
export const COMPARED_FIELDS = "short URL, long URL, title, description, expiry, geotargeting and device targeting";
/** What the service never shows of a link, so a change to it elsewhere cannot be seen. */
export const NOT_COMPARED_FIELDS = "password, redirect type and parameters (so UTM fields too)";

export const selectionFields = (tool: string) => ({
  ids: z
    .array(IdSchema)
    .min(1, "must name at least one link")
    .max(BULK_MAX_LINKS, `must name at most ${BULK_MAX_LINKS} links: split them over several ${tool} calls`)
    .optional()
    .describe("Link ids"),
  search: z
    .strictObject({
      text: SEARCH_FIELDS.text.describe("As in find_links"),
      order: SEARCH_FIELDS.order.describe("As in find_links"),
      limit: SEARCH_FIELDS.limit.describe(`Default ${BULK_MAX_LINKS}`),
    })
    .optional()
    .describe("Instead of ids: the links find_links finds"),
  confirmation: z
    .string("must be text")
    .max(100_000, "must be the confirmation a preview answered")
    .optional()
    .describe("The preview's confirmation; omit to preview"),
});

type Selection = { ids?: number[]; search?: { text?: string; order?: "date" | "click"; limit?: number } };

/** The selection's own rules, as issues at the fields the user gave. */
export function checkSelection({ ids, search }: Selection, context: z.RefinementCtx): void {
  // A field already refused is named by its own issue (and may be missing from the value here).
  if (context.issues.length > 0) return;
  if ((ids === undefined) === (search === undefined)) context.addIssue({ code: "custom", path: ["ids"], message: "give either ids or search (not both)" });
  const seen = new Set<number>();
  const repeated = ids?.find((id) => seen.size === seen.add(id).size);
  if (repeated !== undefined) context.addIssue({ code: "custom", path: ["ids"], message: `must not name a link twice (${repeated} is named twice)` });
}

const targets = (map: Record<string, string>) => Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** What the seal keeps of a link as the preview saw it (4 bytes of SHA-256): a change to any of these fields elsewhere is a change since the preview. */
const seenDigest = (link: SeenLink) =>
  digestOf([link.shorturl, link.longurl, link.title, link.description, link.expiry, targets(link.location), targets(link.device)]);

/** What a preview read: this call's links, and what it carries over from the calls before it and to the next. */
export interface PreviewReading {
  /** The links this call read, in order. */
  links: SeenLink[];
  refused: BulkLink[];
  /** Ids not read before the call's deadline (or the key's rate limit past it), read by the next call of this preview. */
  unread: number[];
  /** The links earlier calls of this preview read and will change, as they saw them. */
  earlier: BoundLink[];
  /** How many links the search matched, when a search named them. */
  matches?: number;
  /** When the key's rate limit lets the next read go, when it stopped this call. */
  retryAt?: number;
}

/** Why a read stopped for this call only (its deadline, a cancellation, the key's limit past the deadline), not for the link. */
const stopsThisCall = (error: unknown, context: ToolContext) =>
  isLinkShortError(error, "LINKSHORT_RATE_LIMITED") ||
  (isLinkShortError(error, "LINKSHORT_ABORTED", "LINKSHORT_TIMEOUT") && (context.signal.aborted || Date.now() >= context.deadlineAt));

/**
 * The links a preview names, read one by one (each link's details: what the seal compares): found
 * by the search of the index, named by id, or, for a preview's "reading" confirmation, those it has
 * left to read. Waits for the key's rate limit up to the call's deadline; the links not read by then
 * are left for the next call of the preview. An id the service does not know is refused.
 */
export async function readForPreview(tool: string, args: Selection, confirmation: string | undefined, context: ToolContext): Promise<PreviewReading> {
  const reading: PreviewReading = { links: [], refused: [], unread: [], earlier: [] };
  let ids = args.ids ?? [];
  if (confirmation !== undefined) {
    const opened = await openSeal(tool, args, confirmation, ["reading"], context);
    [ids, reading.earlier] = [opened.unread, opened.links];
  } else if (args.search) {
    const found = await searchIndex({ ...args.search, limit: args.search.limit ?? BULK_MAX_LINKS }, context);
    [ids, reading.matches] = [found.links.map((link) => link.id), found.matches];
  }
  const startedAt = Date.now();
  const status = () => {
    const read = reading.links.length + reading.refused.length;
    const share = Math.min(0.99, (Date.now() - startedAt) / Math.max(1, context.deadlineAt - startedAt));
    return { progress: read + share, total: ids.length, message: `${read} of ${ids.length} links read` };
  };
  for (const id of ids) {
    if (reading.unread.length > 0 || Date.now() >= context.deadlineAt || context.signal.aborted) {
      reading.unread.push(id);
      continue;
    }
    try {
      reading.links.push((await reportingProgress(context.client.links.get(id, runOptions(context)), context, status)).details);
    } catch (error) {
      if (isLinkShortError(error, "LINKSHORT_NOT_FOUND"))
        reading.refused.push({ id, shorturl: null, status: "refused", reason: "not found: no link of this account has this id (find_links finds links)" });
      else if (stopsThisCall(error, context)) {
        reading.retryAt = limitLiftsAt(error);
        reading.unread.push(id);
      } else throw error;
    }
  }
  return reading;
}

/** The links a preview left to read, as its answer lists them. */
export const unreadAnswers = (tool: string, reading: PreviewReading): BulkLink[] =>
  reading.unread.map((id) => ({
    id,
    shorturl: null,
    status: "skipped",
    reason: `not read yet (the call's deadline came first): call ${tool} again with the same arguments and this answer's confirmation to read it`,
  }));

/**
 * The confirmation a preview answers: while links are left to read, a "reading" one that goes on
 * with them (nothing to show the user yet); then the preview's, binding every link it will change
 * (this call's `changing` and the earlier calls'), each as the preview saw it; null when none will.
 */
export function sealPreview(tool: string, args: object, reading: PreviewReading, changing: readonly SeenLink[], context: ToolContext): Promise<string | null> {
  const links = [...reading.earlier, ...changing.map((link) => ({ id: link.id, digest: seenDigest(link) }))];
  if (reading.unread.length > 0) return seal(tool, "reading", args, links, links.length, context, reading.unread);
  return links.length === 0 ? Promise.resolve(null) : seal(tool, "preview", args, links, links.length, context);
}

/** What a preview's summary says of the reading, when links are left to read; undefined when it is read to its end. */
export function readingSummary(tool: string, reading: PreviewReading): { summary: string; retryAfterSeconds?: number } | undefined {
  if (reading.unread.length === 0) return undefined;
  const retryAfterSeconds = reading.retryAt === undefined ? undefined : Math.max(1, Math.ceil((reading.retryAt - Date.now()) / 1000));
  const when = retryAfterSeconds === undefined ? "" : ` in ${retryAfterSeconds} s (when the key's rate limit lets the next request go)`;
  return {
    summary:
      `Preview in parts: ${reading.links.length + reading.refused.length} links read by this call, ${reading.earlier.length} to change from earlier calls, ` +
      `${reading.unread.length} not read yet. Call ${tool} again with the same arguments and this confirmation${when} to read the rest; nothing was changed, and there is nothing to show the user until the preview is read to its end.`,
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
  };
}

/** How one link's change is made once it is read again and found as the preview saw it, with the request options of the run. */
export type WriteLink = (details: LinkDetails, options: RequestOptions, context: ToolContext) => Promise<unknown>;

export const tally = (links: readonly BulkLink[]) => {
  const counts: Record<string, number> = {};
  for (const link of links) counts[link.status] = (counts[link.status] ?? 0) + 1;
  return counts;
};

/** When the key's rate limit lifts, for a failure that is its limit (undefined for any other). */
function limitLiftsAt(error: unknown): number | undefined {
  return isLinkShortError(error, "LINKSHORT_RATE_LIMITED") ? (error.liftsAt(Date.now()) ?? Date.now() + 60_000) : undefined;
}

function failureText(error: unknown, tool: string): string {
  const lifts = limitLiftsAt(error);
  if (lifts !== undefined)
    return `not tried: the key's rate limit lets the next request go in ${Math.max(1, Math.ceil((lifts - Date.now()) / 1000))} s, after this call's deadline`;
  if (isLinkShortError(error, "LINKSHORT_INVALID_INPUT")) return refusedFields(error);
  if (isLinkShortError(error, "LINKSHORT_ABORTED"))
    return "stopped before the server answered (deadline or cancellation): it may or may not have been changed; check with find_links";
  return describeFailure(error, tool);
}

/**
 * The requests of a preview's reading and of a confirmed run: each waits for the key's rate limit as
 * long as the call's deadline allows (not only the client's usual wait), so that one call does all
 * it can; one whose window opens past the deadline fails at once, nothing sent.
 */
const runOptions = (context: ToolContext): RequestOptions => ({
  signal: context.signal,
  maxRateLimitWaitMs: Math.max(0, context.deadlineAt - Date.now()),
});

/**
 * The confirmed call: each link the seal binds, one after another (paced by the client, waiting for
 * the rate limit up to the call's deadline), read again and written only when it is as the preview
 * saw it. Stops starting links at the deadline, a cancellation or a failure every later link would
 * share; those left are skipped, and sealed again ("go on": the person is not asked again) as the
 * confirmation to go on with.
 */
export async function runConfirmed(tool: string, args: object, confirmation: string, write: WriteLink, context: ToolContext): Promise<BulkLinks> {
  const { links: bound, total } = await openSeal(tool, args, confirmation, ["preview", "go on"], context);
  const before = total - bound.length;
  const startedAt = Date.now();
  const answers: BulkLink[] = [];
  /** The links nothing was done to that a later call may still do: sealed again for it. */
  const rest: BoundLink[] = [];
  let stopped: string | undefined;
  let retryAt: number | undefined;
  /** Links handled, this call's and earlier calls', and a part of the next one as the call's time goes by: rising while it waits. */
  const status = () => {
    const share = Math.min(0.99, (Date.now() - startedAt) / Math.max(1, context.deadlineAt - startedAt));
    const handled = before + answers.length;
    return { progress: handled + (stopped === undefined && handled < total ? share : 0), total, message: `${handled} of ${total} links done` };
  };
  const request = <T>(work: Promise<T>) => reportingProgress(work, context, status);
  for (const link of bound) {
    const { id } = link;
    const now = status();
    context.progress(now.progress, now.total, now.message);
    if (stopped === undefined && Date.now() >= context.deadlineAt)
      stopped = `not tried: the call reached its deadline; call ${tool} again with the confirmation it answered`;
    if (stopped === undefined && context.signal.aborted) stopped = "not tried: the call was cancelled";
    if (stopped !== undefined) {
      answers.push({ id, shorturl: null, status: "skipped", reason: stopped });
      rest.push(link);
      continue;
    }
    let details: LinkDetails | undefined;
    try {
      details = (await request(context.client.links.get(id, runOptions(context)))).details;
      if (!seenDigest(details).equals(link.digest)) {
        const now = `now ${capped(details.longurl, 200)}, title "${capped(details.title, 100)}"`;
        answers.push({
          id,
          shorturl: details.shorturl,
          status: "skipped",
          reason: `changed since the preview (its ${COMPARED_FIELDS} are not all what the preview showed; ${now}): not touched, preview again to include it`,
        });
        continue;
      }
      await request(write(details, runOptions(context), context));
      answers.push({ id, shorturl: details.shorturl, status: "done" });
    } catch (error) {
      const gone = details === undefined && isLinkShortError(error, "LINKSHORT_NOT_FOUND");
      const untouched = details === undefined || isLinkShortError(error, "LINKSHORT_RATE_LIMITED");
      const text = gone ? "no longer exists: deleted since the preview" : failureText(error, tool);
      answers.push({ id, shorturl: details?.shorturl ?? null, status: untouched ? "skipped" : "refused", reason: text });
      if (stopsBulkRun(error)) {
        retryAt = limitLiftsAt(error);
        stopped = retryAt !== undefined ? text : `not tried after an earlier link failed: ${capped(text, 300)}`;
        if (untouched && !gone) rest.push(link);
      }
    }
  }
  const next = rest.length === 0 ? null : await seal(tool, "go on", args, rest, total, context);
  const handled = before + answers.length - rest.length;
  context.progress(handled, total, `${handled} of ${total} links done`);
  const counts = tally(answers);
  const retryAfterSeconds = next !== null && retryAt !== undefined ? Math.max(1, Math.ceil((retryAt - Date.now()) / 1000)) : undefined;
  return {
    stage: "confirmed",
    links: answers,
    counts,
    confirmation: next,
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
    notes: [],
    summary:
      `${counts.done ?? 0} done, ${counts.refused ?? 0} refused, ${counts.skipped ?? 0} skipped.` +
      (next === null
        ? ""
        : ` ${rest.length} not tried: call ${tool} again with the same arguments and this answer's confirmation to go on with them` +
          `${retryAfterSeconds === undefined ? "" : `, in ${retryAfterSeconds} s (when the key's rate limit lets the next request go)`}; the user is not asked again.`),
  };
}
