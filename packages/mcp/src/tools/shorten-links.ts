/** shorten_links: up to BULK_MAX_URLS URLs in one call, a result each, stopping at the call's deadline. */
import {
  checkLinkCreate,
  isLinkShortError,
  stopsBulkRun,
  type CheckedLinkCreate,
  type LinkCreateInput as ClientLinkCreateInput,
  type ValidationError,
} from "@linkshort/client";
import * as z from "zod/v4";
import { capped, describeFailure, refusedFields } from "../failures/describe";
import { ShortenedLinksOutput, type BulkResultOutput } from "./outputs";
import { CREATE, define, type ToolContext } from "./define";
import { LinkCreateInput, ReuseAsShortenLink, ReuseInput, shortenOne } from "./links";

/** The most URLs one shorten_links call takes. */
export const BULK_MAX_URLS = 50;
/**
 * How much longer than other tools shorten_links may run: it starts no new URL past the call's
 * deadline (answering with what it did and the URLs left), and a create already sent then has this
 * long to answer. With the default 25 s deadline it answers within 40 s, under the 60 s after
 * which clients give up.
 */
export const BULK_GRACE_MS = 15_000;

const UrlsInput = z
  .array(z.string())
  .min(1, "must hold at least one URL")
  .max(BULK_MAX_URLS, `must hold at most ${BULK_MAX_URLS} URLs: split the list and call shorten_links once per part`)
  .describe("Long URLs, http or https");

/** What shorten_links lists: the URLs, the client's described domain and UTM fields, and `reuse`. */
const ShortenLinksListedInput = z.strictObject({
  urls: UrlsInput,
  domain: LinkCreateInput.shape.domain,
  utm: LinkCreateInput.shape.utm,
  reuse: ReuseAsShortenLink,
});

/**
 * What shorten_links checks: the list and `reuse` here; each URL's link (with the domain and UTM
 * fields) by the client's own check, once. A URL the check refuses fails alone, in its place; a
 * domain or UTM field it refuses would fail every URL, so the call is refused naming that field.
 */
const ShortenLinksInput = z
  .strictObject({ urls: UrlsInput, domain: z.unknown().optional(), utm: z.unknown().optional(), reuse: ReuseInput })
  .transform(({ urls, reuse, ...shared }, context) => {
    const links: Array<CheckedLinkCreate | ValidationError> = [];
    for (const url of urls) {
      try {
        // The arguments as sent: the check is what tells a link input from anything else.
        links.push(checkLinkCreate({ ...shared, url } as ClientLinkCreateInput));
      } catch (error) {
        if (!isLinkShortError(error, "LINKSHORT_INVALID_INPUT")) throw error;
        const sharedIssues = error.issues.filter((issue) => issue.field !== "url");
        for (const issue of sharedIssues) context.addIssue({ code: "custom", message: issue.message, path: issue.field.split(".") });
        if (sharedIssues.length > 0) return z.NEVER;
        links.push(error);
      }
    }
    return { urls, links, reuse };
  });

type BulkResult = z.output<typeof BulkResultOutput>;

/** What a failure of one URL says: its fields for bad input, else the tool error's text. */
function itemError(error: unknown): string {
  if (isLinkShortError(error, "LINKSHORT_INVALID_INPUT")) return refusedFields(error);
  return describeFailure(error, "shorten_links");
}

/**
 * Shortens the URLs one after another, paced by the client. Stops starting new ones at the call's
 * deadline, at its cancellation, or at a failure every later URL would share (the client's
 * `stopsBulkRun`: rate limit past the wait, refused key, unreachable server): those left are
 * answered as skipped, saying why.
 */
async function shortenEach({ urls, links, reuse }: z.output<typeof ShortenLinksInput>, context: ToolContext) {
  const results: BulkResult[] = [];
  /** Links already answered in this call: a repeat is reused, whatever the server's answer looked like. */
  const answered = new Set<number>();
  let stopped: string | undefined;
  for (const [at, url] of urls.entries()) {
    context.progress(results.length, urls.length, `${results.length} of ${urls.length} URLs done`);
    const shown = capped(url);
    if (stopped === undefined && Date.now() >= context.deadlineAt) {
      stopped = "not tried: the call reached its deadline; call shorten_links again with the URLs skipped";
    }
    if (stopped === undefined && context.signal.aborted) stopped = "not tried: the call was cancelled";
    if (stopped !== undefined) {
      results.push({ url: shown, status: "skipped", error: stopped });
      continue;
    }
    try {
      const link = links[at]!;
      if (isLinkShortError(link, "LINKSHORT_INVALID_INPUT")) throw link;
      const answer = await shortenOne(link, reuse === true, context);
      const reused = answer.reused || answered.has(answer.id);
      answered.add(answer.id);
      results.push({ url: shown, status: reused ? "reused" : "created", id: answer.id, shorturl: answer.shorturl });
    } catch (error) {
      const aborted = isLinkShortError(error, "LINKSHORT_ABORTED");
      const text = aborted
        ? "stopped before the server answered (deadline or cancellation): it may or may not have been created; check with find_links"
        : itemError(error);
      results.push({ url: shown, status: "failed", error: text });
      if (stopsBulkRun(error)) stopped = `not tried after an earlier URL failed: ${capped(text, 300)}`;
    }
  }
  const tally = (status: BulkResult["status"]) => results.filter((result) => result.status === status).length;
  return { results, created: tally("created"), reused: tally("reused"), failed: tally("failed"), skipped: tally("skipped") };
}

export const shortenLinks = define({
  name: "shorten_links",
  title: "Shorten several links",
  description:
    `Shortens up to ${BULK_MAX_URLS} long URLs with the same domain, UTM fields and reuse, within the rate limit. One result per URL, ` +
    "in order: created, reused, failed (why) or skipped (not tried: call again with those URLs).",
  input: ShortenLinksInput,
  listedInput: ShortenLinksListedInput,
  output: ShortenedLinksOutput,
  annotations: CREATE,
  graceMs: BULK_GRACE_MS,
  run: shortenEach,
});
