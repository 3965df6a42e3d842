/** find_links: a search of the server's link index (the whole account once its first sync is done); no page is read per call. */
import { LinkListSchema, PaginationSchema } from "@linkshort/client";
import * as z from "zod/v4";
import { FoundLinksOutput } from "./outputs";
import { define, READ, reportingProgress, type ToolContext } from "./define";

const FIND_DEFAULT_RESULTS = 20;
export const FIND_MAX_RESULTS = 100;

/** The fields of a search of the link index: find_links' input, and how update_links and delete_links choose links. */
export const SEARCH_FIELDS = {
  text: z
    .string()
    .optional()
    .describe("An alias, a short or long URL, or words of the alias, title, URLs or description (case-insensitive; every word must match). Omit to list links"),
  order: LinkListSchema.shape.order.describe("date (default): exact, then best matches, newest first; click: most clicked first"),
  limit: PaginationSchema.shape.limit
    .unwrap()
    .max(FIND_MAX_RESULTS, `must be at most ${FIND_MAX_RESULTS}`)
    .optional()
    .describe(`Default ${FIND_DEFAULT_RESULTS}`),
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
    "Finds the account's short links (id, short and long URL, alias, title, clicks) in an index of all of them; without text, " +
    "the newest or most clicked. index.summary says how fresh the index is (while it is first built, older links may be missing).",
  input: FindLinksInput,
  output: FoundLinksOutput,
  annotations: READ,
  run: async (search, context) => {
    const { links, matches } = await searchIndex(search, context);
    return { links, matches, index: context.links.freshness() };
  },
});
