/** `createLink`: the one way front ends make a link, kept in the account's link index and reused as `REUSE_RULE` says. */
import type { LinkShortClient } from "../client";
import { ApiError, NotFoundError } from "../errors";
import { checkLinkCreate, type CheckedLinkCreate, type LinkCreateCheckOptions } from "../resources/links/create-input";
import type { LinkCreated, LinkCreateInput, LinkDetails } from "../resources/links/schemas";
import type { LinkIndex } from "./link-index";
import { madeLinkEntry, type MadeLinks } from "./made-links";
import {
  askedKey,
  differingDetails,
  hiddenOptionsKey,
  NOT_REUSED,
  recordedLink,
  reusableLink,
  stillMatches,
  whyNotReusable,
  whyRecordedDiffers,
} from "./reuse";
import { shortUrlKey } from "../addresses";

export interface CreateLinkOptions extends LinkCreateCheckOptions {
  /**
   * Answer with the account's link that is exactly the one asked for (`REUSE_RULE`) instead of
   * making one. Default false: the service is asked to make a link.
   */
  reuse?: boolean;
  signal?: AbortSignal;
  /** With `reuse`: sweep pages the sync before the lookup may read (a host without timers bounds each call). Default 10. */
  maxSweepPages?: number;
  /**
   * With `reuse`: told, before the create is sent, why no existing link could be handed back: one
   * sentence (see `NOT_REUSED`) a front end shows in its output, or beside the error when the create fails;
   * told again, renewed, when the service refuses a create with an alias and the newest links say why.
   */
  onNotReused?: (reason: string) => void;
  /**
   * The record of the links this host made, which the host keeps where its runs share it (n8n:
   * the workflow's static data). The link made is recorded in it; with `reuse`, a link it proves
   * made as asked is reused after a restart (and on another worker, where the host hands its
   * workers the record: n8n 2's queue mode does not), a password compared by its hash.
   */
  record?: MadeLinks;
}

/** A made or reused link: `reused` says whether the link existed before (handed back by reuse, or by the service itself). */
export type ReusableLink = LinkCreated & { reused: boolean };

/**
 * Shortens `input.url` (checked once: a `ValidationError` naming each field, before any request)
 * and keeps the link in `index` with what it was made with that the API never shows, so that a
 * later reuse can compare it. With `reuse`, first looks for the account's link that is exactly the
 * one asked for (`REUSE_RULE`): workflows re-run and forms are sent twice. The answer says
 * `reused: true` for a link handed back, and also when the service handed back a link it already
 * had (deployed servers do for the same URL and options: an id the index knew, or one below the
 * highest it knows, since ids only grow). Costs: a create; with `reuse`, the index's sync (one
 * request when nothing is new, one page at least) and then one GET or one create.
 */
export async function createLink(
  client: LinkShortClient,
  index: LinkIndex,
  input: LinkCreateInput | CheckedLinkCreate,
  options: CreateLinkOptions = {},
): Promise<ReusableLink> {
  const body = checkLinkCreate(input, options);
  let told: string | undefined;
  if (options.reuse === true) {
    const reused = await reuseOrSayWhyNot(client, index, body, options);
    if (typeof reused !== "string") return reused;
    options.onNotReused?.((told = reused));
  }
  const existedBefore = index.highestId();
  const optionsKey = hiddenOptionsKey(body);
  // The password's slow hash is worked out while the create is on its way.
  const [created, entry] = await Promise.all([
    client.links.create(body, options.signal ? { signal: options.signal } : {}).catch(async (error: unknown) => {
      if (told !== undefined && error instanceof ApiError && body.custom !== undefined) await sayWhyAfterRefusal(client, index, body, told, options);
      throw error;
    }),
    options.record ? madeLinkEntry(optionsKey, body.password, askedKey(body, client)) : undefined,
  ]);
  // The server compared every option before handing back an existing link: either way it now has this request's.
  index.recordHiddenOptions(created.id, optionsKey);
  if (entry !== undefined) options.record?.record(created.id, entry);
  return { ...created, reused: created.id <= existedBefore };
}

/**
 * The link to hand back for `body`, confirmed with one GET; else why there is none. The link is the
 * newer of the index's (as far as it has read) and the record's (found by what was asked, whatever
 * the index has read: after a restart the index reads the newest links first).
 */
async function reuseOrSayWhyNot(
  client: LinkShortClient,
  index: LinkIndex,
  body: CheckedLinkCreate,
  options: CreateLinkOptions,
): Promise<ReusableLink | string> {
  // One page at least, whatever the sweep's share of the window: the create this lookup may spare costs a request too.
  if (!index.syncing) await index.sync(client, { signal: options.signal, maxSweepPages: options.maxSweepPages ?? 10, leastPages: 1 });
  const candidate = reusableLink(index, body, client, options.record);
  const recorded = options.record ? recordedLink(options.record, body, client) : undefined;
  if (recorded !== undefined && (candidate === undefined || recorded > candidate.id)) {
    return checkWithService(client, index, body, options, recorded, (details) => whyRecordedDiffers(details, body, client));
  }
  if (!candidate) return whyNotReusable(index, body, client, options.record);
  return checkWithService(client, index, body, options, candidate.id, (details) => {
    if (stillMatches(details, candidate, body)) return undefined;
    // Changed since the index read it: its alias (the short URL) or a field only its details show.
    const differing = differingDetails(details, body);
    if (differing.length === 0 || shortUrlKey(details.shorturl) !== shortUrlKey(candidate.shorturl)) differing.unshift("custom");
    return NOT_REUSED.differs(differing);
  });
}

/**
 * Link `id`, handed back when its password (by the record's hash) and its details as the service
 * shows them now (`whyNot` says what differs, undefined when nothing) are what `body` asks.
 */
async function checkWithService(
  client: LinkShortClient,
  index: LinkIndex,
  body: CheckedLinkCreate,
  options: CreateLinkOptions,
  id: number,
  whyNot: (details: LinkDetails) => string | undefined,
): Promise<ReusableLink | string> {
  if (body.password !== undefined && !(await options.record!.madeWithPassword(id, body.password))) return NOT_REUSED.otherPassword;
  try {
    const { details } = await client.links.get(id, options.signal ? { signal: options.signal } : {});
    index.confirmed(details);
    return whyNot(details) ?? { id, shorturl: details.shorturl, reused: true };
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    index.forget(id);
    options.record?.forget(id);
    return NOT_REUSED.deleted;
  }
}

/**
 * After the service refused a create with an alias (taken, most likely, by a link made elsewhere
 * while the index was read: another queue-mode worker, another program), the reason told before the
 * create is renewed from the newest links: one page, read after any sync under way. A read that
 * fails leaves the first reason; the create's error is what the caller gets either way.
 */
async function sayWhyAfterRefusal(client: LinkShortClient, index: LinkIndex, body: CheckedLinkCreate, told: string, options: CreateLinkOptions): Promise<void> {
  try {
    const signalOnly = options.signal ? { signal: options.signal } : {};
    if (index.syncing) await index.sync(client, signalOnly);
    await index.sync(client, { ...signalOnly, force: true, maxSweepPages: 0 });
    const renewed = whyNotReusable(index, body, client, options.record);
    if (renewed !== told) options.onNotReused?.(renewed);
  } catch {
    // The first reason stands.
  }
}
