/** Which indexed link is "the same" as a create asks for, and why none is: what `createLink` reuses. */
import type { LinkShortClient } from "../client";
import { REUSE_DETAILS_MATCH, type LinkCreateBody, type LinkDetails } from "../resources/links/schemas";
import type { LinkIndex } from "./link-index";
import type { MadeLinks } from "./made-links";
import type { IndexedLink } from "./search";
import { aliasKey, sameAlias, shortUrlKey } from "../addresses";

/** What reuse compares, in the words of both rules below. */
const SAME_FIELDS = "the same long URL, alias and domain (if given), title, description, expiry, targeting, redirect type and parameters (UTM fields included)";

/**
 * When a link is reused, as users read it: the MCP `reuse` argument and Raycast's Quick Shorten
 * preference each say it in these words. It states what `reusableLink`, `stillMatches` and
 * `REUSE_DETAILS_MATCH` do for a host without a record of the links it made.
 */
export const REUSE_RULE =
  `A link is reused only when it is exactly the one asked for: ${SAME_FIELDS}, and no password. The redirect ` +
  "type and parameters are known only for links this program made (the service never shows them), so a link made " +
  "elsewhere, or before this program's record of links began, is not reused, though the service itself may hand it " +
  "back. One request checks the link with the service just before it is handed back.";

/**
 * The rule for a host that keeps a record of the links it made (`MadeLinks`: n8n's workflow static
 * data), as its users read it (n8n's Reuse Existing Link): the whole rule, not an addition to `REUSE_RULE`.
 */
export const RECORDED_REUSE_RULE =
  `A link is reused only when it is exactly the one asked for: ${SAME_FIELDS}, and the same password or none ` +
  "(compared through a slow salted hash, scrypt, that the record keeps, never the password itself). The redirect type, " +
  "parameters and password are known only for links this workflow made with Reuse on and recorded (the service never " +
  "shows them), so a link made elsewhere, or in a manual run from the editor before a restart (n8n does not save a manual " +
  "run's record), is not reused, though the service itself may hand it back. The record is kept with the workflow and saved after production " +
  "runs, so a link is reused after a restart too. In queue mode n8n 2 gives a worker's runs none of the workflow's " +
  "saved data, so each worker reuses only the links it made since it started. One request checks the link with the " +
  "service just before it is handed back.";

/** A create field as a person names it in a sentence. */
const FIELD_WORDS: { [K in keyof LinkCreateBody]-?: string } = {
  url: "long URL",
  custom: "alias",
  password: "password",
  domain: "domain",
  expiry: "expiry",
  geotarget: "geo-targeting",
  devicetarget: "device targeting",
  parameters: "parameters",
  metatitle: "title",
  metadescription: "description",
  type: "redirect type",
};

/** Why `createLink` made a new link instead of handing back an existing one: one sentence each. */
export const NOT_REUSED = {
  password: "a password-protected link is never reused, as the service never shows a link's password to compare",
  otherPassword: "the link with this long URL was made with another password",
  unrecorded:
    "the link with this long URL is not in this workflow's record of the links it made (made elsewhere, in a manual run " +
    "before a restart, on another queue-mode worker or before this worker started (n8n 2 gives a worker's runs none of " +
    "the workflow's saved data), or its entry lost to another execution's save at the same time or dropped as the " +
    "oldest of 10,000), so its password, redirect type and parameters cannot be checked",
  noLink: "no link of this account has this long URL",
  stillReading:
    "this account's links are still being read (the index is new, as after a restart or on another worker, and has not " +
    "read them all yet), and no link read so far has this long URL",
  unknownOptions: "the link with this long URL was not made by this program since it started, so its password, redirect type and parameters cannot be checked",
  otherOptions: "the link with this long URL was made with another password, redirect type or parameters (UTM fields included)",
  deleted: "the link with this long URL has just been deleted",
  differs: (fields: Array<keyof LinkCreateBody>) => `the link with this long URL has another ${fields.map((field) => FIELD_WORDS[field]).join(" and ")}`,
} as const;

/**
 * What a link was made with that neither the list nor a link's GET shows (redirect type,
 * parameters with the UTM fields, whether it has a password), as the index records it for the
 * links it saw made. A link without this record cannot be compared on them.
 */
export function hiddenOptionsKey(body: Pick<LinkCreateBody, "type" | "password" | "parameters">): string {
  const type = body.type === undefined ? "direct" : String(body.type);
  const parameters = (body.parameters ?? []).map(({ name, value }) => [name, value]);
  return JSON.stringify([body.password === undefined ? 0 : 1, type, parameters]);
}

/**
 * What identifies the link a create asks for, as `MadeLinks` finds it (a digest of it): the long URL,
 * the alias (if given), the domain (the service's own when none), the title and the description.
 */
export function askedKey(body: LinkCreateBody, client: LinkShortClient): string {
  const alias = body.custom === undefined ? null : aliasKey(body.custom);
  return JSON.stringify([body.url, alias, shortUrlKey(body.domain ?? client.baseUrl) ?? "", body.metatitle ?? "", body.metadescription ?? ""]);
}

/** Whether the host a link's short URL is on is the one asked for (the service's own when none). */
function onDomain(link: Pick<IndexedLink, "shorturl">, domain: string | undefined, client: LinkShortClient): boolean {
  const host = shortUrlKey(domain ?? client.baseUrl);
  return host !== undefined && shortUrlKey(link.shorturl)?.startsWith(`${host}/`) === true;
}

type DetailsMatch = (asked: unknown, details: LinkDetails) => boolean;

const DETAILS_MATCHES = Object.entries(REUSE_DETAILS_MATCH).filter((entry): entry is [keyof LinkCreateBody, DetailsMatch] => typeof entry[1] === "function");

/**
 * The fields the details never show that reuse compares all the same: the alias and the domain
 * with the index's copy, the redirect type and the parameters with what the index recorded when
 * the link was made.
 */
const COMPARED_UNSHOWN = new Set<string>(["custom", "domain", "type", "parameters"]);

/**
 * Whether every field `body` gives can be compared with a link: one that cannot (a password, unless
 * a record of the links made keeps its hash) makes a new link.
 */
function comparable(body: LinkCreateBody, record: MadeLinks | undefined): boolean {
  const compared = (key: string) =>
    COMPARED_UNSHOWN.has(key) || (key === "password" && record !== undefined) || DETAILS_MATCHES.some(([shown]) => shown === key);
  return Object.entries(body).every(([key, value]) => value === undefined || compared(key));
}

/**
 * Whether what link `id` was made with that no answer shows is known to be what `body` asks: as
 * the index recorded it since this program started (no password asked), or as `record` keeps it (a password
 * is then compared with its hash before the link is handed back).
 */
function madeAsAsked(index: LinkIndex, record: MadeLinks | undefined, id: number, body: LinkCreateBody, optionsKey: string): boolean {
  return (body.password === undefined && index.hiddenOptionsOf(id) === optionsKey) || record?.madeWithOptions(id, optionsKey) === true;
}

/**
 * The account's newest indexed link that can be handed back for `body` as it stands in the index:
 * the same long URL, alias (if asked), domain, title and description, and recorded as made with
 * the same redirect type and parameters and no password (or, by `record`, with a password: it is
 * compared by its hash after). Undefined when there is none, or when the request gives a field no
 * link can be compared on (a password without a record: the API never shows one).
 */
export function reusableLink(index: LinkIndex, body: LinkCreateBody, client: LinkShortClient, record?: MadeLinks): IndexedLink | undefined {
  if (!comparable(body, record)) return undefined;
  const hidden = hiddenOptionsKey(body);
  return index.findByLongUrl(
    body.url,
    (link) =>
      (body.custom === undefined || sameAlias(link.alias, body.custom)) &&
      onDomain(link, body.domain, client) &&
      link.title === (body.metatitle ?? "") &&
      link.description === (body.metadescription ?? "") &&
      madeAsAsked(index, record, link.id, body, hidden),
  );
}

/**
 * The newest link `record` keeps as made with what `body` asks (long URL, alias, domain, title,
 * description, redirect type, parameters, whether a password): its id, found whatever the index has
 * read; the caller checks the password and the rest with the service.
 */
export function recordedLink(record: MadeLinks, body: LinkCreateBody, client: LinkShortClient): number | undefined {
  return record.madeAsAsked(askedKey(body, client), hiddenOptionsKey(body));
}

/**
 * Why the server's copy of a link `record` found, read just now, is not what `body` asks (its alias,
 * domain or a field its details show changed since it was made); undefined when it still is.
 */
export function whyRecordedDiffers(details: LinkDetails, body: LinkCreateBody, client: LinkShortClient): string | undefined {
  const differing = differingDetails(details, body);
  const host = shortUrlKey(body.domain ?? client.baseUrl);
  if (!onDomain(details, body.domain, client)) differing.unshift("domain");
  else if (body.custom !== undefined && shortUrlKey(details.shorturl) !== `${host}/${aliasKey(body.custom)}`) differing.unshift("custom");
  return differing.length === 0 ? undefined : NOT_REUSED.differs(differing);
}

/** Whether the server's copy of a link, read just now, is still what was asked (every field its details show) and what the index holds. */
export function stillMatches(details: LinkDetails, candidate: IndexedLink, body: LinkCreateBody): boolean {
  if (shortUrlKey(details.shorturl) !== shortUrlKey(candidate.shorturl)) return false;
  return DETAILS_MATCHES.every(([key, matches]) => matches(body[key], details));
}

/**
 * Why no indexed link can be handed back for `body`, as one sentence: the newest link with the
 * long URL asked is compared field by field, in the order `reusableLink` compares them.
 */
export function whyNotReusable(index: LinkIndex, body: LinkCreateBody, client: LinkShortClient, record?: MadeLinks): string {
  if (!comparable(body, record)) return NOT_REUSED.password;
  const nearest = index.findByLongUrl(body.url);
  if (!nearest) {
    if (record?.madeWhenAsked(askedKey(body, client)) === true) return NOT_REUSED.otherOptions;
    // Until the index has read every link, one may yet have this long URL.
    return index.freshness().complete ? NOT_REUSED.noLink : NOT_REUSED.stillReading;
  }
  const differing: Array<keyof LinkCreateBody> = [];
  if (body.custom !== undefined && !sameAlias(nearest.alias, body.custom)) differing.push("custom");
  if (!onDomain(nearest, body.domain, client)) differing.push("domain");
  if (nearest.title !== (body.metatitle ?? "")) differing.push("metatitle");
  if (nearest.description !== (body.metadescription ?? "")) differing.push("metadescription");
  if (differing.length > 0) return NOT_REUSED.differs(differing);
  const knownHere = index.hiddenOptionsOf(nearest.id);
  if (record?.has(nearest.id) === true || (knownHere !== undefined && knownHere !== hiddenOptionsKey(body))) return NOT_REUSED.otherOptions;
  return record === undefined ? NOT_REUSED.unknownOptions : NOT_REUSED.unrecorded;
}

/** The fields the server's details of a link show that differ from what `body` asks. */
export function differingDetails(details: LinkDetails, body: LinkCreateBody): Array<keyof LinkCreateBody> {
  return DETAILS_MATCHES.filter(([key, matches]) => !matches(body[key], details)).map(([key]) => key);
}
