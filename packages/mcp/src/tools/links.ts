/** The link tools: shorten_link and get_link (with clicks over time), and the link inputs that shorten_links shares. (Deleting is delete_links, for one link or many.) */
import {
  checkLinkCreate,
  createLink,
  LinkCreateSchema,
  isLinkShortError,
  REUSE_RULE,
  type CheckedLinkCreate,
  type LinkCreateInput as ClientLinkCreateInput,
} from "@linkshort/client";
import * as z from "zod/v4";
import { SWEEP_PAGES_PER_CALL } from "../account/server-index";
import { LinkOrClicksOutput, ShortenedLinkOutput } from "./outputs";
import { statisticsChart, statisticsView } from "./chart";
import { CLICKS_OVER_TIME_FIELDS, clicksOverTime, OVER_TIME_FIELDS, toClicksQuery } from "./clicks-over-time";
import { AnswerWithImage, CREATE, described, define, idOf, READ, type ToolContext } from "./define";

/** What a model is told beyond the client's descriptions: where to find a value with another tool. */
export const DOMAIN_DESCRIPTION = "A branded domain from list_domains; omit for the service's own";
export const UTM_DESCRIPTION = "Appended to the long URL as utm_source, utm_medium, etc.";

export const LinkCreateInput = z.strictObject(described(LinkCreateSchema, { domain: DOMAIN_DESCRIPTION, utm: UTM_DESCRIPTION }));

const REUSE_DESCRIPTION = `true: give back the account's existing link instead of making one (reused: true), e.g. when a request may be repeated. ${REUSE_RULE} Default false`;

export const ReuseInput = z.boolean().optional().describe(REUSE_DESCRIPTION);
/** shorten_links' reuse: the rule is said once, on shorten_link. */
export const ReuseAsShortenLink = z.boolean().optional().describe("As shorten_link's reuse, for each URL");

/** What shorten_link lists: every field of the client's create input, described, and `reuse`. */
const ShortenLinkListedInput = LinkCreateInput.extend({ reuse: ReuseInput });

/**
 * What shorten_link checks: `reuse` here, the link by the client's own check, once (its issues are
 * the call's invalid arguments, each at its field); the checked link is then sent as it stands.
 */
const ShortenLinkInput = z
  .object({ reuse: ReuseInput })
  .catchall(z.unknown())
  .transform(({ reuse, ...fields }, context) => {
    try {
      // The arguments as sent: the check is what tells a link input from anything else.
      return { reuse, link: checkLinkCreate(fields as ClientLinkCreateInput) };
    } catch (error) {
      if (!isLinkShortError(error, "LINKSHORT_INVALID_INPUT")) throw error;
      for (const issue of error.issues) context.addIssue({ code: "custom", message: issue.message, path: issue.field.split(".") });
      return z.NEVER;
    }
  });

/**
 * One URL shortened or reused, as `reuse` says, through the client's one entry (`createLink`).
 * Without reuse the server is still asked to create, and `reused` says whether it handed back a
 * link it already had.
 */
export async function shortenOne(input: ClientLinkCreateInput | CheckedLinkCreate, reuse: boolean, { client, links: serverIndex, signal }: ToolContext) {
  await serverIndex.index.load();
  if (reuse && !serverIndex.index.freshness().complete) void serverIndex.startFirstSync();
  return createLink(client, serverIndex.index, input, { reuse, signal, maxSweepPages: SWEEP_PAGES_PER_CALL });
}

export const shortenLink = define({
  name: "shorten_link",
  title: "Shorten a link",
  description: "Creates a short link for a long URL and returns its id and short URL. For several URLs use shorten_links.",
  input: ShortenLinkInput,
  listedInput: ShortenLinkListedInput,
  output: ShortenedLinkOutput,
  annotations: CREATE,
  run: async ({ reuse, link }, context) => {
    const answer = await shortenOne(link, reuse === true, context);
    const freshness = context.links.index.freshness();
    if (reuse && !answer.reused && !freshness.complete) return { ...answer, note: context.links.freshness().summary };
    return answer;
  },
});

/** Which question a get_link call asks, under a key of its own beside the fields: clicks over time when a period's field is given, or no id. */
const QUESTION = "__question";

function withQuestion(args: unknown): unknown {
  if (args === null || typeof args !== "object" || Array.isArray(args)) return args;
  const given = args as Record<string, unknown>;
  return { ...given, [QUESTION]: given.id === undefined || OVER_TIME_FIELDS.some((field) => given[field] !== undefined) ? "clicks" : "link" };
}

/** get_link's question: a link's details and statistics (its id alone), or clicks over time, each checked by its own fields. */
const GetLinkInput = z
  .preprocess(
    withQuestion,
    z.discriminatedUnion(QUESTION, [
      z.strictObject({ ...CLICKS_OVER_TIME_FIELDS, [QUESTION]: z.literal("clicks") }),
      z.strictObject({ ...idOf("link"), [QUESTION]: z.literal("link") }),
    ]),
  )
  .transform((input, context) =>
    input[QUESTION] === "clicks" ? { clicks: toClicksQuery(input, context), id: undefined } : { clicks: undefined, id: input.id },
  );

export const getLink = define({
  name: "get_link",
  title: "Get a link with its statistics",
  description:
    "A short link's details and statistics (clicks, countries, referrers, browsers, OS) with a chart. With period, start or end, " +
    "or without id (the account's top links): clicks over time in buckets as this server sampled them, each with its quality " +
    "(exact, spread, partial, gap: nothing ran, none: before the first sample). Pass on what summary says.",
  input: GetLinkInput,
  listedInput: z.strictObject({
    ...CLICKS_OVER_TIME_FIELDS,
    id: CLICKS_OVER_TIME_FIELDS.id.describe("The link's id; alone: its details and statistics. Omit for the account's top links"),
  }),
  output: LinkOrClicksOutput,
  annotations: READ,
  statisticsView: true,
  run: async (question, context) => {
    if (question.clicks !== undefined) return clicksOverTime(question.clicks, context);
    const link = await context.client.links.get(question.id, { signal: context.signal });
    const title = link.details.shorturl.replace(/^https?:\/\//, "");
    return new AnswerWithImage(link, undefined, await statisticsChart(link.stats, title, "clicks"), await statisticsView(link.stats, title, "clicks"));
  },
});
