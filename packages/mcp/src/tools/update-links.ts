/**
 * update_links: one change to up to BULK_MAX_LINKS links (one link too), named by id or by a search
 * of the link index. The first call answers a preview; the change is made by a second call that
 * passes the preview's confirmation back with the same arguments (bulk-links.ts).
 */
import { isLinkShortError, LinkUpdateSchema, stopsBulkRun, UTM_FIELDS, type Utm } from "@linkshort/client";
import { aliasFromShortUrl, isHttpUrl } from "@linkshort/client/values";
import * as z from "zod/v4";
import { BulkLinksOutput, type BulkLink, type BulkLinks } from "./bulk-outputs";
import { capped } from "../failures/describe";
import { readableHeader } from "./bulk-seal";
import {
  BULK_MAX_LINKS,
  checkSelection,
  COMPARED_FIELDS,
  NOT_COMPARED_FIELDS,
  readForPreview,
  readingSummary,
  runConfirmed,
  sealPreview,
  selectionFields,
  tally,
  unreadAnswers,
  type SeenLink,
} from "./bulk-links";
import { BULK_GRACE_MS } from "./shorten-links";
import { CHANGE, define, described, type ToolContext } from "./define";
import { DOMAIN_DESCRIPTION, UTM_DESCRIPTION } from "./links";

const TOOL = "update_links";

const SetInput = z
  .strictObject(
    described(LinkUpdateSchema, {
      url: "New long URL (omit to keep each link's own)",
      custom: "New alias (one link only)",
      domain: DOMAIN_DESCRIPTION,
      utm: UTM_DESCRIPTION,
    }),
  )
  .partial()
  .refine((set) => Object.keys(set).length > 0, "must name at least one field to change")
  .describe("Fields to change on every link; others keep their values");

type SetFields = z.output<typeof SetInput>;

const UpdateLinksInput = z.strictObject({ ...selectionFields(TOOL), set: SetInput }).superRefine((input, context) => {
  checkSelection(input, context);
  if (context.issues.length === 0 && input.set.custom !== undefined && input.ids?.length !== 1) {
    context.addIssue({ code: "custom", path: ["set", "custom"], message: "an alias names one link: give it with ids naming a single link" });
  }
});

type UpdateArguments = Omit<z.output<typeof UpdateLinksInput>, "confirmation">;

/** Lower case, without trailing slashes: how two domains are compared. */
function domainKey(address: string): string {
  let end = address.length;
  while (end > 0 && address.charCodeAt(end - 1) === 47 /* / */) end -= 1;
  return address.slice(0, end).toLowerCase();
}

function domainOf(shorturl: string): string {
  try {
    return new URL(shorturl).origin;
  } catch {
    return shorturl;
  }
}

/** The fields the preview can compare, by what the index shows of a link. */
const SHOWN: Partial<Record<keyof SetFields, (link: SeenLink) => string>> = {
  url: (link) => link.longurl,
  metatitle: (link) => link.title,
  metadescription: (link) => link.description,
  custom: (link) => aliasFromShortUrl(link.shorturl),
  domain: (link) => domainOf(link.shorturl),
};

const same = (field: keyof SetFields, from: string, to: unknown) => (field === "domain" ? domainKey(from) === domainKey(String(to)) : from === to);

/** The UTM fields as a single edit writes them: `utm_<field>` parameters. */
const utmParameters = (utm: Utm) =>
  UTM_FIELDS.filter((field) => utm[field] !== undefined)
    .map((field) => `utm_${field}=${utm[field]!.trim()}`)
    .join("&");

const asText = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/** The change as the person is asked about it: each field and its new value (a password's is not repeated). */
const setText = (set: SetFields) =>
  (Object.keys(set) as Array<keyof SetFields>)
    .map((field) =>
      field === "password"
        ? "set a new password"
        : `set ${field === "utm" ? "parameters" : field} to ${capped(JSON.stringify(field === "utm" ? utmParameters(set.utm!) : set[field]), 100)}`,
    )
    .join(", ");

/**
 * One link in the preview: what changes (from what the index shows), unchanged when every field is
 * already so, or refused when its body would not pass the client's update check: the set passed it
 * as the input, so only the url sent on every update, the link's own without set.url, is left.
 */
function previewOne(link: SeenLink, set: SetFields): BulkLink {
  const base = { id: link.id, shorturl: link.shorturl, title: link.title };
  if (set.url === undefined && !isHttpUrl(link.longurl)) {
    return { ...base, status: "refused", reason: "url: must be a valid http or https URL (the link's own long URL, which every update sends: give set.url)" };
  }
  const fields = Object.keys(set) as Array<keyof SetFields>;
  const changes = fields.map((field) => {
    const shown = SHOWN[field]?.(link) ?? null;
    if (field === "utm") return { field: "parameters", from: null, to: utmParameters(set.utm!) };
    return { field, from: shown, to: asText(set[field]) };
  });
  const unchanged = fields.every((field) => SHOWN[field] !== undefined && same(field, SHOWN[field](link), set[field]));
  return unchanged
    ? { ...base, status: "unchanged", reason: "already has these values: left out" }
    : {
        ...base,
        status: "will change",
        changes: changes.filter((change) => change.from === null || !same(change.field as keyof SetFields, String(change.from), change.to)),
      };
}

/** Why `domain` is refused, when the account does not have it; undefined when it does, or when the account's domains cannot be read (the service then decides). */
async function domainRefusal(domain: string, context: ToolContext): Promise<string | undefined> {
  const wanted = domainKey(domain);
  if (wanted === domainKey(domainOf(context.client.baseUrl))) return undefined;
  const listed: string[] = [];
  try {
    for await (const entry of context.client.domains.list({ limit: 100 }, { signal: context.signal })) {
      if (domainKey(entry.domain) === wanted) return undefined;
      if (listed.length < 10) listed.push(entry.domain);
    }
  } catch (error) {
    if (stopsBulkRun(error) && !isLinkShortError(error, "LINKSHORT_PERMISSION_DENIED")) throw error;
    return undefined;
  }
  return `not a domain of this account${listed.length > 0 ? ` (it has ${listed.join(", ")})` : ""}: use one list_domains lists, or leave domain out`;
}

const NOT_INDEXED = ["expiry", "geotarget", "devicetarget"] as const;
const NEVER_SHOWN = ["password", "type", "parameters", "utm"] as const;

async function preview(args: UpdateArguments, goingOn: string | undefined, context: ToolContext): Promise<BulkLinks> {
  const reading = await readForPreview(TOOL, args, goingOn, context);
  const { links, refused, matches } = reading;
  const answers = [...links.map((link) => previewOne(link, args.set)), ...refused, ...unreadAnswers(TOOL, reading)];
  if (args.ids) answers.sort((a, b) => args.ids!.indexOf(a.id) - args.ids!.indexOf(b.id));
  const notes: string[] = [];
  const fieldRefused = args.set.domain === undefined ? undefined : await domainRefusal(args.set.domain, context);
  if (fieldRefused) notes.push(`set.domain is refused: ${fieldRefused}. Nothing can be confirmed until it is.`);
  if (matches !== undefined && matches > answers.length) notes.push(`${matches} links match the search; this preview holds the first ${answers.length}.`);
  if (NOT_INDEXED.some((field) => args.set[field] !== undefined))
    notes.push("expiry, geotarget and devicetarget: from is not shown here (null); get_link shows a link's.");
  if (NEVER_SHOWN.some((field) => args.set[field] !== undefined)) {
    notes.push(
      "password, type, parameters and utm: the service never shows a link's, so every link gets the new value whatever it had; utm fields are written into parameters (utm_source and so on), which replace the link's parameters, as a single edit does.",
    );
  }
  if (args.search && !context.links.index.freshness().complete) notes.push(context.links.freshness().summary);
  const changing = links.filter((link) => answers.some((answer) => answer.id === link.id && answer.status === "will change"));
  const sealed = fieldRefused ? null : await sealPreview(TOOL, args, reading, changing, context);
  const inParts = fieldRefused ? undefined : readingSummary(TOOL, reading);
  const count = reading.earlier.length + changing.length;
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
        ? `Nothing to confirm: ${fieldRefused ? "a field is refused" : "no link would change"}. Nothing was changed.`
        : `${count} link${count === 1 ? "" : "s"} will change once confirmed; nothing was changed yet. Show the user this preview; on their yes, call ${TOOL} again with the same arguments and confirmation. Links changed elsewhere meanwhile (${COMPARED_FIELDS}) are left alone.`),
  };
}

export const updateLinks = define({
  name: TOOL,
  title: "Update links",
  description:
    `Changes 1 to ${BULK_MAX_LINKS} short links the same way (by ids or search). The first call changes nothing: it answers a preview ` +
    "and a confirmation. Show the user; a second call with the same arguments and that confirmation makes the change " +
    "(per link: done, refused, or skipped: call again with the new confirmation, after retryAfterSeconds when given). " +
    `Compared with the preview before each write: ${COMPARED_FIELDS} (a link changed in one is left alone); ${NOT_COMPARED_FIELDS} cannot be (the service never shows them).`,
  input: UpdateLinksInput,
  output: BulkLinksOutput,
  annotations: CHANGE,
  graceMs: BULK_GRACE_MS,
  confirmation: ({ confirmation, set }) => {
    const header = confirmation === undefined ? undefined : readableHeader(confirmation);
    // A preview's confirmation is asked about; a run's "go on" was (its links are that preview's); "reading" changes nothing; any other is refused by the run.
    if (confirmation === undefined || header?.kind === "go on" || header?.kind === "reading") return undefined;
    const count = header === undefined ? "the links update_links previewed" : `${header.links} link${header.links === 1 ? "" : "s"}`;
    return `Change ${count}: ${setText(set)}? Links changed since the preview are left alone.`;
  },
  run: ({ confirmation, ...args }, context) =>
    confirmation === undefined || readableHeader(confirmation)?.kind === "reading"
      ? preview(args, confirmation, context)
      : runConfirmed(
          TOOL,
          args,
          confirmation,
          (details, options, { client }) => client.links.update(details.id, { ...args.set, url: args.set.url ?? details.longurl }, options),
          context,
        ),
});
