import type { LinkShortClient } from "../client";
import { LinkCreateSchema, type LinkCreateInput } from "../inputs";
import type { LinkCreated } from "../schemas";
import { validate } from "../validate";
import type { LinkIndex } from "./link-index";
import type { IndexedLink } from "./search";
import { shortUrlKey } from "./short-url";

export interface CreateOrReuseOptions {
  signal?: AbortSignal;
  /** Sweep pages the sync before the lookup may read (a host without timers bounds each call). Default 10. */
  maxSweepPages?: number;
}

export type ReusableLink = LinkCreated & { reused: boolean };

/**
 * Shortens `input.url`, or answers with the account's newest link to exactly that URL when there
 * is one (and it has the alias and domain asked for, if any): workflows re-run and forms are sent
 * twice. The lookup is the index's, after a sync that reads only what changed; while another sync
 * is under way (a first sweep of a large account, say) it answers from what is indexed so far, so
 * an older link may not be known yet and a new one is made.
 */
/** The account's newest indexed link to exactly `input.url`, with the alias and domain asked for, if any. */
export function reusableLink(index: LinkIndex, input: Pick<LinkCreateInput, "url" | "custom" | "domain">): IndexedLink | undefined {
  const domainHost = input.domain === undefined ? undefined : shortUrlKey(input.domain);
  const custom = input.custom?.toLowerCase();
  return index.findByLongUrl(
    input.url,
    (link) => (custom === undefined || link.alias.toLowerCase() === custom) && (domainHost === undefined || shortUrlKey(link.shorturl)?.startsWith(`${domainHost}/`) === true),
  );
}

export async function createOrReuse(client: LinkShortClient, index: LinkIndex, input: LinkCreateInput, options: CreateOrReuseOptions = {}): Promise<ReusableLink> {
  const body = validate(LinkCreateSchema, input, "links.create");
  if (!index.syncing) await index.sync(client, { signal: options.signal, maxSweepPages: options.maxSweepPages ?? 10 });
  const existing = reusableLink(index, body);
  if (existing) return { id: existing.id, shorturl: existing.shorturl, reused: true };
  const created = await client.links.create(body, options.signal ? { signal: options.signal } : {});
  return { ...created, reused: false };
}
