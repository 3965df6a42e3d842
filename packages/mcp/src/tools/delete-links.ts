/**
 * delete_links: up to BULK_MAX_LINKS links deleted, named by id or by a search of the link index.
 * The first call answers a preview; a second call passing its confirmation back with the same
 * arguments deletes them (bulk-links.ts).
 */
import * as z from "zod/v4";
import { BulkLinksOutput, type BulkLinks } from "./bulk-outputs";
import { readableHeader } from "./bulk-seal";
import {
  BULK_MAX_LINKS,
  checkSelection,
  COMPARED_FIELDS,
  readForPreview,
  readingSummary,
  runConfirmed,
  sealPreview,
  selectionFields,
  tally,
  unreadAnswers,
} from "./bulk-links";
import { BULK_GRACE_MS } from "./shorten-links";
import { CHANGE, define, type ToolContext } from "./define";

const TOOL = "delete_links";

const DeleteLinksInput = z.strictObject(selectionFields(TOOL)).superRefine(checkSelection);

type DeleteArguments = Omit<z.output<typeof DeleteLinksInput>, "confirmation">;

async function preview(args: DeleteArguments, confirmation: string | undefined, context: ToolContext): Promise<BulkLinks> {
  const reading = await readForPreview(TOOL, args, confirmation, context);
  const { links, refused, matches } = reading;
  const answers = [
    ...links.map((link) => ({ id: link.id, shorturl: link.shorturl, status: "will delete" as const, longurl: link.longurl, title: link.title })),
    ...refused,
    ...unreadAnswers(TOOL, reading),
  ];
  if (args.ids) answers.sort((a, b) => args.ids!.indexOf(a.id) - args.ids!.indexOf(b.id));
  const notes = matches !== undefined && matches > answers.length ? [`${matches} links match the search; this preview holds the first ${answers.length}.`] : [];
  if (args.search && !context.links.index.freshness().complete) notes.push(context.links.freshness().summary);
  const sealed = await sealPreview(TOOL, args, reading, links, context);
  const inParts = readingSummary(TOOL, reading);
  const count = reading.earlier.length + links.length;
  return {
    stage: "preview",
    links: answers,
    counts: tally(answers),
    confirmation: sealed,
    ...(inParts?.retryAfterSeconds !== undefined ? { retryAfterSeconds: inParts.retryAfterSeconds } : {}),
    notes,
    summary:
      inParts?.summary ??
      (sealed === null
        ? "Nothing to confirm: no link found. Nothing was deleted."
        : `${count} link${count === 1 ? "" : "s"} will be deleted for good once confirmed (they stop redirecting and their statistics are lost); nothing was deleted yet. ` +
          `Show the user this preview; on their yes, call ${TOOL} again with the same arguments and confirmation. Links changed elsewhere meanwhile (${COMPARED_FIELDS}) are left alone.`),
  };
}

export const deleteLinks = define({
  name: TOOL,
  title: "Delete links",
  description:
    `Deletes 1 to ${BULK_MAX_LINKS} short links for good (by ids or search): they stop redirecting, their statistics are lost. ` +
    "As in update_links, the first call only previews; a second with the same arguments and the preview's confirmation deletes.",
  input: DeleteLinksInput,
  output: BulkLinksOutput,
  annotations: CHANGE,
  graceMs: BULK_GRACE_MS,
  confirmation: ({ confirmation, ids }) => {
    const header = confirmation === undefined ? undefined : readableHeader(confirmation);
    // A preview's confirmation is asked about; a run's "go on" was (its links are that preview's); "reading" changes nothing; any other is refused by the run.
    if (confirmation === undefined || header?.kind === "go on" || header?.kind === "reading") return undefined;
    const count = ids?.length ?? header?.links ?? 0;
    const which =
      ids === undefined ? `${count} link${count === 1 ? "" : "s"} delete_links previewed` : `short link${ids.length === 1 ? "" : "s"} ${ids.join(", ")}`;
    return `Delete ${which} for good? ${count === 1 ? "It stops" : "They stop"} redirecting and ${count === 1 ? "its" : "their"} statistics are lost. Links changed since the preview are left alone.`;
  },
  run: ({ confirmation, ...args }, context) =>
    confirmation === undefined || readableHeader(confirmation)?.kind === "reading"
      ? preview(args, confirmation, context)
      : runConfirmed(TOOL, args, confirmation, (details, options, { client }) => client.links.delete(details.id, options), context),
});
