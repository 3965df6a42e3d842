/** find_links: a search of the server's link index (the whole account once its first sync is done); no page is read per call. */
import { LinkListSchema, PaginationSchema } from "@linkshort/client";
import * as z from "zod/v4";
import { FoundLinksOutput } from "../outputs";
import { define, READ, reportingProgress, type ToolContext } from "./define";

const FIND_DEFAULT_RESULTS = 20;
export const FIND_MAX_RESULTS = 100;

/** The fields of a search of the link index: find_links' input, and how update_links and delete_links choose links. */
export const SEARCH_FIELDS = {
  text: z
    .string()
    .optional()
    .describe(
      "What to look for: an alias, a short URL (with or without https://, query or trailing slash), a long URL, or words " +
        "found in the alias, title, short or long URL, or description (case-insensitive; every word must match). Omit to list links",
    ),
  order: LinkListSchema.shape.order.describe(
    "date (default): exact matches first, then the best matches, newest first among equals; click: the matches most clicked first, newest first among equals (clicks as of the index's last read)",
  ),
  limit: PaginationSchema.shape.limit
    .unwrap()
    .max(FIND_MAX_RESULTS, `must be at most ${FIND_MAX_RESULTS}`)
    .optional()
    .describe(`How many links to return at most (default ${FIND_DEFAULT_RESULTS}, at most ${FIND_MAX_RESULTS})`),
};

const FindLinksInput = z.strictObject(SEARCH_FIELDS);

/** The index ready for a lookup (its read of the newest links): a first sync under way may hold it a moment, and the client hears how far it is. */
export async function lookupReady(context: ToolContext): Promise<void> {
  const { links: serverIndex, signal } = context;
  await reportingProgress(serverIndex.beforeLookup(signal), context, () => {
    const { known, serverCount } = serverIndex.index.freshness();
    return { progress: known, ...(serverCount !== null ? { total: Math.max(serverCount, known) } : {}), message: serverIndex.freshness().summary };
  });
}

/** The index searched as find_links searches it. */
export async function searchIndex({ text, order, limit }: { text?: string; order?: "date" | "click"; limit?: number }, context: ToolContext) {
  await lookupReady(context);
  return context.links.index.search(text ?? "", limit ?? FIND_DEFAULT_RESULTS, order === "click" ? "clicks" : "best");
}

export const findLinks = define({
  name: "find_links",
  title: "Find links",
  description:
    "Finds the account's short links by alias, short URL, long URL, or words of their title, alias, URLs or description, " +
    "searching an index of every link of the account (no page limit). Without text, lists the newest (or most clicked) links. " +
    "Returns each link's id, short URL, long URL, alias, title and click count, and how fresh the index is (index.summary: " +
    "while it is first being built, older links may be missing); use get_link for a link's statistics.",
  input: FindLinksInput,
  output: FoundLinksOutput,
  annotations: READ,
  run: async (search, context) => {
    const { links, matches } = await searchIndex(search, context);
    return { links, matches, index: context.links.freshness() };
  },
});
