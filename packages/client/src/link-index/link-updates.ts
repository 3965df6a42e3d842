/**
 * How what the index learns lands in its links: a link as a read showed it, and a change a
 * watched client made. Both keep the server's count and the sweep's marks right.
 */
import { aliasFromShortUrl } from "../addresses";
import type { LinkChange } from "../resources/links/links";
import type { ChangeLog } from "./change-log";
import type { IndexedLink } from "./search";
import type { IndexMeta, StoredLink } from "./store";

/**
 * Records a link as the server just showed it. `walked`: shown by the sweep's walk, which counts
 * it as seen; other reads (the newest links, a GET, the sweep's first and last page) change what
 * it says but not whether the walk saw it.
 */
export function seeLink(meta: IndexMeta, log: ChangeLog, item: IndexedLink, walked: boolean): void {
  const knownSeen = log.links.seenOf(item.id);
  const seen = walked ? meta.generation : (knownSeen ?? meta.generation - 1);
  const link: StoredLink = {
    id: item.id,
    alias: item.alias,
    shorturl: item.shorturl,
    longurl: item.longurl,
    title: item.title,
    description: item.description,
    date: item.date,
    clicks: item.clicks,
    seen,
  };
  const hidden = log.links.hiddenOf(item.id);
  if (hidden !== undefined) link.hidden = hidden;
  if (knownSeen !== undefined && log.links.holds(link)) {
    // Saved too: after a restart in the middle of a sweep, a link the walk saw must not look unseen.
    if (knownSeen !== seen) log.setSeen(item.id, seen);
    return;
  }
  log.put(link);
}

/** Takes in a change a watched client made. */
export function applyChange(meta: IndexMeta, log: ChangeLog, change: LinkChange): void {
  if (change.kind === "deleted") {
    if (log.links.has(change.id) && meta.serverCount !== null) meta.serverCount -= 1;
    log.drop(change.id);
    return;
  }
  const known = log.links.stored(change.id);
  if (!known && change.kind === "created" && meta.serverCount !== null) meta.serverCount += 1;
  const shorturl = change.shorturl || known?.shorturl || "";
  log.put({
    id: change.id,
    alias: aliasFromShortUrl(shorturl) || known?.alias || "",
    shorturl,
    longurl: change.longurl,
    title: change.title ?? known?.title ?? "",
    description: change.description ?? known?.description ?? "",
    date: known?.date ?? null,
    clicks: known?.clicks ?? 0,
    // Not seen by a walk: a sweep under way must still find it on its pages.
    seen: known?.seen ?? meta.generation - 1,
    // An update may have changed what the API never shows; a create is recorded by whoever made it.
    ...(change.kind === "created" && known?.hidden !== undefined ? { hidden: known.hidden } : {}),
  });
}
