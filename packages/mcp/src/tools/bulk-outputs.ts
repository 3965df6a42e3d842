/** What update_links and delete_links answer, in both stages: the preview and the confirmed run. */
import * as z from "zod/v4";

export const BulkLinkOutput = z.object({
  id: z.number(),
  shorturl: z.string().nullable(),
  status: z
    .enum(["will change", "will delete", "unchanged", "refused", "done", "skipped"])
    .describe("preview: will change, will delete, unchanged (already so: left out) or refused; confirmed: done, refused or skipped (not touched)"),
  longurl: z.string().optional(),
  title: z.string().optional(),
  changes: z
    .array(
      z.object({
        field: z.string(),
        from: z.string().nullable().describe("null: not known here"),
        to: z.string().describe("text, or JSON for a list or object"),
      }),
    )
    .optional(),
  reason: z.string().optional().describe("Why it is refused or skipped, naming the field"),
});
export type BulkLink = z.output<typeof BulkLinkOutput>;

export const BulkLinksOutput = z.object({
  stage: z.enum(["preview", "confirmed"]),
  links: z.array(BulkLinkOutput).describe("One entry per link, in order"),
  counts: z.record(z.string(), z.number()).describe("How many links have each status"),
  confirmation: z
    .string()
    .nullable()
    .describe(
      "preview: pass it back, with the same arguments, to make the change (null: nothing to do); confirmed: the confirmation of the links not tried yet, if any",
    ),
  retryAfterSeconds: z.number().optional().describe("Call again with confirmation after this many seconds (the key's rate limit)"),
  notes: z.array(z.string()),
  summary: z.string(),
});
export type BulkLinks = z.output<typeof BulkLinksOutput>;
