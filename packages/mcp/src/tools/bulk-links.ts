/**
 * What update_links and delete_links share: the links a call names (by id, or by the search
 * find_links makes of the link index), the preview's seal (which links, what each looked like, which
 * arguments), and the run that confirms it, one link after another: each read again just before it
 * is written and left alone when it is not what the preview showed.
 */
import { createHash } from "node:crypto";
import { IdSchema, isLinkShortError, stopsBulkRun, ValidationError, type LinkDetails } from "@linkshort/client";
import * as z from "zod/v4";
import { capped, describeFailure, refusedFields } from "../failures/describe";
import type { BulkLink, BulkLinks } from "./bulk-outputs";
import { canonicalJson, type ToolContext } from "./define";
import { FIND_MAX_RESULTS, lookupReady, SEARCH_FIELDS, searchIndex } from "./find-links";

/** The most links one call previews or changes: the most a search answers. */
export const BULK_MAX_LINKS = FIND_MAX_RESULTS;

/** What the preview saw of a link, and what is read again before it is written: what both the index and a link's details show. */
export interface SeenLink {
  id: number;
  shorturl: string;
  longurl: string;
  title: string;
  description: string;
}

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

/** What the seal keeps of a link as the preview saw it (4 bytes of SHA-256): a change to any of these fields elsewhere is a change since the preview. */
const seenDigest = (link: SeenLink) =>
  createHash("sha256")
    .update(JSON.stringify([link.shorturl, link.longurl, link.title, link.description]))
    .digest()
    .subarray(0, 4);

const seenOf = (link: SeenLink): SeenLink => ({
  id: link.id,
  shorturl: link.shorturl,
  longurl: link.longurl,
  title: link.title,
  description: link.description,
});

/**
 * The links a preview names, in order: found in the index (after find_links' read), or read by id
 * when the index does not hold them yet; an id the service does not know, or not read before the
 * call's deadline, is refused.
 */
export async function linksToPreview(selection: Selection, context: ToolContext): Promise<{ links: SeenLink[]; refused: BulkLink[]; matches?: number }> {
  if (selection.search) {
    const { links, matches } = await searchIndex({ ...selection.search, limit: selection.search.limit ?? BULK_MAX_LINKS }, context);
    return { links: links.map(seenOf), refused: [], matches };
  }
  await lookupReady(context);
  const links: SeenLink[] = [];
  const refused: BulkLink[] = [];
  for (const id of selection.ids ?? []) {
    const indexed = context.links.index.get(id);
    if (indexed) {
      links.push(seenOf(indexed));
      continue;
    }
    if (Date.now() >= context.deadlineAt || context.signal.aborted) {
      refused.push({
        id,
        shorturl: null,
        status: "refused",
        reason: "not read before the call's deadline (the link index does not hold it yet): preview again",
      });
      continue;
    }
    try {
      links.push(seenOf((await context.client.links.get(id, { signal: context.signal })).details));
    } catch (error) {
      if (!isLinkShortError(error, "LINKSHORT_NOT_FOUND")) throw error;
      refused.push({ id, shorturl: null, status: "refused", reason: "not found: no link of this account has this id (find_links finds links)" });
    }
  }
  return { links, refused };
}

const argumentsDigest = (args: object) => createHash("sha256").update(canonicalJson(args)).digest().subarray(0, 12).toString("base64url");

/** The links a seal binds: each id (as a zigzag varint after the one before) and the digest of what the preview saw of it. */
function packed(links: ReadonlyArray<{ id: number; digest: Uint8Array }>): string {
  const bytes: number[] = [];
  let previous = 0;
  for (const { id, digest } of links) {
    const step = id - previous;
    previous = id;
    let zigzag = step >= 0 ? step * 2 : -step * 2 - 1;
    while (zigzag >= 0x80) {
      bytes.push(zigzag % 0x80 | 0x80);
      zigzag = Math.floor(zigzag / 0x80);
    }
    bytes.push(zigzag, ...digest);
  }
  return Buffer.from(bytes).toString("base64url");
}

function unpacked(text: string): Array<{ id: number; digest: Buffer }> | undefined {
  const bytes = Buffer.from(text, "base64url");
  const links: Array<{ id: number; digest: Buffer }> = [];
  let previous = 0;
  let at = 0;
  while (at < bytes.length) {
    let zigzag = 0;
    let scale = 1;
    while (at < bytes.length && bytes[at]! >= 0x80) {
      zigzag += (bytes[at]! - 0x80) * scale;
      scale *= 0x80;
      at += 1;
    }
    if (at + 5 > bytes.length || scale > 0x80 ** 7) return undefined;
    zigzag += bytes[at]! * scale;
    previous += zigzag % 2 === 0 ? zigzag / 2 : -(zigzag + 1) / 2;
    links.push({ id: previous, digest: bytes.subarray(at + 1, at + 5) });
    at += 5;
  }
  return links;
}

/** What a seal names: the preview of this tool, not the question of a delete (whose arguments are JSON). */
const previewOf = (tool: string) => `${tool} preview`;

/** The confirmation of a preview: the tool, the call's other arguments and each link as the preview saw it, signed. */
export function sealPreview(tool: string, args: object, links: ReadonlyArray<SeenLink>, context: ToolContext): Promise<string> {
  return context.seal.mint({
    tool: previewOf(tool),
    arguments: `${argumentsDigest(args)}.${packed(links.map((link) => ({ id: link.id, digest: seenDigest(link) })))}`,
  });
}

const refusedConfirmation = (tool: string, why: string) =>
  new ValidationError([{ field: "confirmation", message: `${why}: call ${tool} without confirmation for a new preview. Nothing was changed` }], tool);

/** The links a confirmation binds, refused (as the field `confirmation`, before any request) unless this server sealed it for this tool and these very arguments. */
async function openPreview(tool: string, args: object, confirmation: string, context: ToolContext) {
  const sealed = await context.seal.open(confirmation).catch(() => undefined);
  if (sealed === undefined || sealed.tool !== previewOf(tool))
    throw refusedConfirmation(tool, `is not a preview of ${tool} this server made, or it has expired (a preview holds for 10 minutes)`);
  const [digest, links] = sealed.arguments.split(".");
  const bound = links === undefined ? undefined : unpacked(links);
  if (digest !== argumentsDigest(args) || bound === undefined) {
    throw refusedConfirmation(tool, "was made for another preview (other links or other changes): a confirmation holds only with the arguments of its preview");
  }
  return bound;
}

/** How one link's change is made once it is read again and found as the preview saw it. */
export type WriteLink = (details: LinkDetails, context: ToolContext) => Promise<unknown>;

export const tally = (links: readonly BulkLink[]) => {
  const counts: Record<string, number> = {};
  for (const link of links) counts[link.status] = (counts[link.status] ?? 0) + 1;
  return counts;
};

function failureText(error: unknown, tool: string): string {
  if (isLinkShortError(error, "LINKSHORT_INVALID_INPUT")) return refusedFields(error);
  if (isLinkShortError(error, "LINKSHORT_ABORTED"))
    return "stopped before the server answered (deadline or cancellation): it may or may not have been changed; check with find_links";
  return describeFailure(error, tool);
}

/**
 * The confirmed call: each link the preview bound, one after another (paced by the client), read
 * again and written only when it is as the preview saw it. Stops starting links at the deadline, a
 * cancellation or a failure every later link would share; those left are skipped, and sealed again
 * as the confirmation to go on with.
 */
export async function runConfirmed(tool: string, args: object, confirmation: string, write: WriteLink, context: ToolContext): Promise<BulkLinks> {
  const bound = await openPreview(tool, args, confirmation, context);
  const answers: BulkLink[] = [];
  /** The links nothing was done to that a later call may still do: sealed again for it. */
  const rest: typeof bound = [];
  let stopped: string | undefined;
  for (const link of bound) {
    const { id } = link;
    context.progress(answers.length, bound.length, `${answers.length} of ${bound.length} links done`);
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
      details = (await context.client.links.get(id, { signal: context.signal })).details;
      if (!seenDigest(details).equals(link.digest)) {
        const now = `now ${capped(details.longurl, 200)}, title "${capped(details.title, 100)}"`;
        answers.push({
          id,
          shorturl: details.shorturl,
          status: "skipped",
          reason: `changed since the preview (its short URL, long URL, title or description is not what the preview showed; ${now}): not touched, preview again to include it`,
        });
        continue;
      }
      await write(details, context);
      answers.push({ id, shorturl: details.shorturl, status: "done" });
    } catch (error) {
      const gone = details === undefined && isLinkShortError(error, "LINKSHORT_NOT_FOUND");
      const untouched = details === undefined || isLinkShortError(error, "LINKSHORT_RATE_LIMITED");
      const text = gone ? "no longer exists: deleted since the preview" : failureText(error, tool);
      answers.push({ id, shorturl: details?.shorturl ?? null, status: untouched ? "skipped" : "refused", reason: text });
      if (stopsBulkRun(error)) {
        stopped = `not tried after an earlier link failed: ${capped(text, 300)}`;
        if (untouched && !gone) rest.push(link);
      }
    }
  }
  const next = rest.length === 0 ? null : await context.seal.mint({ tool: previewOf(tool), arguments: `${argumentsDigest(args)}.${packed(rest)}` });
  const counts = tally(answers);
  return {
    stage: "confirmed",
    links: answers,
    counts,
    confirmation: next,
    notes: [],
    summary:
      `${counts.done ?? 0} done, ${counts.refused ?? 0} refused, ${counts.skipped ?? 0} skipped.` +
      (next === null ? "" : ` ${rest.length} not tried: call ${tool} again with the same arguments and this answer's confirmation to go on with them.`),
  };
}
