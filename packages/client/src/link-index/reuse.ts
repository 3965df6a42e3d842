import type { LinkShortClient } from "../client";
import { NotFoundError } from "../errors";
import { LinkCreateSchema, REUSE_DETAILS_MATCH, type LinkCreated, type LinkCreateBody, type LinkCreateInput, type LinkDetails } from "../resources/links/schemas";
import { withUtm } from "../resources/links/utm";
import { validate } from "../internal/validate";
import type { LinkIndex } from "./link-index";
import type { IndexedLink } from "./search";
import { sameAlias, shortUrlKey } from "../addresses";

export interface CreateOrReuseOptions {
  signal?: AbortSignal;
  /** Sweep pages the sync before the lookup may read (a host without timers bounds each call). Default 10. */
  maxSweepPages?: number;
  /**
   * Told, before the create is sent, why no existing link could be handed back: one sentence (see
   * `NOT_REUSED`) a front end shows in its output, or beside the error when the create fails.
   */
  onNotReused?: (reason: string) => void;
}

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

/** Why `createOrReuse` made a new link instead of handing back an existing one: one sentence each. */
export const NOT_REUSED = {
  password: "a password-protected link is never reused, as the service never shows a link's password to compare",
  noLink: "no link of this account has this long URL",
  unknownOptions:
    "the link with this long URL was not made by this program since it started, so its password, redirect type and parameters cannot be checked",
  otherOptions: "the link with this long URL was made with another password, redirect type or parameters (UTM fields included)",
  deleted: "the link with this long URL has just been deleted",
  differs: (fields: Array<keyof LinkCreateBody>) => `the link with this long URL has another ${fields.map((field) => FIELD_WORDS[field]).join(" and ")}`,
} as const;

export type ReusableLink = LinkCreated & { reused: boolean };

const checkedBody = (input: LinkCreateInput): LinkCreateBody => withUtm(validate(LinkCreateSchema, input, "links.create"));

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

/** Whether the host a link's short URL is on is the one asked for (the service's own when none). */
function onDomain(link: IndexedLink, domain: string | undefined, client: LinkShortClient): boolean {
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

/** Whether every field `body` gives can be compared with a link: one that cannot (a password) makes a new link. */
function comparable(body: LinkCreateBody): boolean {
  const compared = (key: string) => COMPARED_UNSHOWN.has(key) || DETAILS_MATCHES.some(([shown]) => shown === key);
  return Object.entries(body).every(([key, value]) => value === undefined || compared(key));
}

/**
 * The account's newest indexed link that can be handed back for `body` as it stands in the index:
 * the same long URL, alias (if asked), domain, title and description, and recorded as made with
 * the same redirect type and parameters and no password. Undefined when there is none, or when the
 * request gives a field no link can be compared on (a password: the API never shows one).
 */
export function reusableLink(index: LinkIndex, body: LinkCreateBody, client: LinkShortClient): IndexedLink | undefined {
  if (!comparable(body)) return undefined;
  const hidden = hiddenOptionsKey(body);
  return index.findByLongUrl(
    body.url,
    (link) =>
      (body.custom === undefined || sameAlias(link.alias, body.custom)) &&
      onDomain(link, body.domain, client) &&
      link.title === (body.metatitle ?? "") &&
      link.description === (body.metadescription ?? "") &&
      index.hiddenOptionsOf(link.id) === hidden,
  );
}

/** Whether the server's copy of a link, read just now, is still what was asked (every field its details show) and what the index holds. */
function stillMatches(details: LinkDetails, candidate: IndexedLink, body: LinkCreateBody): boolean {
  if (shortUrlKey(details.shorturl) !== shortUrlKey(candidate.shorturl)) return false;
  return DETAILS_MATCHES.every(([key, matches]) => matches(body[key], details));
}

/**
 * Why no indexed link can be handed back for `body`, as one sentence: the newest link with the
 * long URL asked is compared field by field, in the order `reusableLink` compares them.
 */
function whyNotReusable(index: LinkIndex, body: LinkCreateBody, client: LinkShortClient): string {
  if (!comparable(body)) return NOT_REUSED.password;
  const nearest = index.findByLongUrl(body.url);
  if (!nearest) return NOT_REUSED.noLink;
  const differing: Array<keyof LinkCreateBody> = [];
  if (body.custom !== undefined && !sameAlias(nearest.alias, body.custom)) differing.push("custom");
  if (!onDomain(nearest, body.domain, client)) differing.push("domain");
  if (nearest.title !== (body.metatitle ?? "")) differing.push("metatitle");
  if (nearest.description !== (body.metadescription ?? "")) differing.push("metadescription");
  if (differing.length > 0) return NOT_REUSED.differs(differing);
  return index.hiddenOptionsOf(nearest.id) === undefined ? NOT_REUSED.unknownOptions : NOT_REUSED.otherOptions;
}

/** The fields the server's details of a link show that differ from what `body` asks. */
function differingDetails(details: LinkDetails, body: LinkCreateBody): Array<keyof LinkCreateBody> {
  return DETAILS_MATCHES.filter(([key, matches]) => !matches(body[key], details)).map(([key]) => key);
}

/**
 * Shortens `input.url`, or answers with the account's link that is exactly the one asked for:
 * workflows re-run and forms are sent twice. A link is reused only when everything asked can be
 * compared with what it has: the index holds it with the same long URL, alias (if asked), domain,
 * title and description; this client recorded it as made with the same redirect type and
 * parameters (UTM fields included) and no password; and one GET confirms, just before answering,
 * that it still exists with that long URL, short URL, expiry and targeting. Anything else creates
 * a link; when the server hands back a link that already existed (deployed servers do for the same
 * URL and options), the answer says `reused: true`. Costs: the index's sync (one request when
 * nothing is new), then one GET or one create.
 */
export async function createOrReuse(client: LinkShortClient, index: LinkIndex, input: LinkCreateInput, options: CreateOrReuseOptions = {}): Promise<ReusableLink> {
  const body = checkedBody(input);
  const request = options.signal ? { signal: options.signal } : {};
  if (!index.syncing) await index.sync(client, { signal: options.signal, maxSweepPages: options.maxSweepPages ?? 10 });
  const candidate = reusableLink(index, body, client);
  let reason = candidate ? undefined : whyNotReusable(index, body, client);
  if (candidate) {
    try {
      const { details } = await client.links.get(candidate.id, request);
      index.confirmed(details);
      if (stillMatches(details, candidate, body)) return { id: candidate.id, shorturl: details.shorturl, reused: true };
      // Changed since the index read it: its alias (the short URL) or a field only its details show.
      const differing = differingDetails(details, body);
      if (differing.length === 0 || shortUrlKey(details.shorturl) !== shortUrlKey(candidate.shorturl)) differing.unshift("custom");
      reason = NOT_REUSED.differs(differing);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      index.forget(candidate.id);
      reason = NOT_REUSED.deleted;
    }
  }
  options.onNotReused?.(reason ?? NOT_REUSED.noLink);
  return createTracked(client, index, input, options);
}

/**
 * Creates a link and says honestly whether the server made one: a deployed server hands back its
 * existing link for the same URL and options, and an id the index already knew (or one below the
 * highest it knows: ids only grow) is such a link (`reused: true`). The index records what the
 * link was made with that the API never shows, so a later reuse can compare it.
 */
export async function createTracked(client: LinkShortClient, index: LinkIndex, input: LinkCreateInput, options: Pick<CreateOrReuseOptions, "signal"> = {}): Promise<ReusableLink> {
  const body = checkedBody(input);
  const existedBefore = index.highestId();
  const created = await client.links.create(input, options.signal ? { signal: options.signal } : {});
  // The server compared every option before handing back an existing link: either way it now has this request's.
  index.recordHiddenOptions(created.id, hiddenOptionsKey(body));
  return { ...created, reused: created.id <= existedBefore };
}
