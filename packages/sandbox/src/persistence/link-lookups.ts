import type { LinkRecord } from "../model/link-record";
import { newestFirst } from "./state";

function pushTo<K>(map: Map<K, LinkRecord[]>, key: K, link: LinkRecord): void {
  const list = map.get(key);
  if (list) list.push(link);
  else map.set(key, [link]);
}

function pullFrom<K>(map: Map<K, LinkRecord[]>, key: K, link: LinkRecord): void {
  const list = map.get(key);
  if (!list) return;
  const position = list.indexOf(link);
  if (position >= 0) list.splice(position, 1);
  if (list.length === 0) map.delete(key);
}

/** Where a link goes in a newest-first list: after every link that sorts before it. */
function sortedPosition(list: LinkRecord[], link: LinkRecord): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (newestFirst(list[middle]!, link) <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Lookups of links by id, alias (lower case), long URL and owner (newest first), so that a
 * request costs the same at 100,000 links as at 100. Kept up to date by the store's link
 * operations; rebuilt when `state.links` was replaced or changed length behind the store's back
 * (tests push links directly).
 */
export class LinkLookups {
  private source: LinkRecord[] | undefined;
  private length = -1;
  private byId = new Map<number, LinkRecord>();
  private byAlias = new Map<string, LinkRecord[]>();
  private byUrl = new Map<string, LinkRecord[]>();
  /** Built per owner on first use. */
  private byOwner = new Map<number, LinkRecord[]>();

  ensure(links: LinkRecord[]): void {
    if (links === this.source && links.length === this.length) return;
    this.source = links;
    this.length = links.length;
    this.byId = new Map();
    this.byAlias = new Map();
    this.byUrl = new Map();
    this.byOwner = new Map();
    for (const link of links) this.addKeys(link);
  }

  private addKeys(link: LinkRecord): void {
    this.byId.set(link.id, link);
    pushTo(this.byAlias, link.alias.toLowerCase(), link);
    pushTo(this.byUrl, link.url, link);
  }

  private removeKeys(link: Pick<LinkRecord, "id" | "alias" | "url">, record: LinkRecord): void {
    if (this.byId.get(link.id) === record) this.byId.delete(link.id);
    pullFrom(this.byAlias, link.alias.toLowerCase(), record);
    pullFrom(this.byUrl, link.url, record);
  }

  added(link: LinkRecord): void {
    this.length += 1;
    this.addKeys(link);
    const owned = this.byOwner.get(link.userId);
    if (owned) owned.splice(sortedPosition(owned, link), 0, link);
  }

  removed(link: LinkRecord): void {
    this.length -= 1;
    this.removeKeys(link, link);
    const owned = this.byOwner.get(link.userId);
    if (!owned) return;
    const position = owned.indexOf(link, Math.max(0, sortedPosition(owned, link) - 1));
    if (position >= 0) owned.splice(position, 1);
    else this.byOwner.delete(link.userId);
  }

  /** A link's alias, URL or date changed in place (`before` holds the old values). */
  changed(link: LinkRecord, before: LinkRecord): void {
    if (before.alias !== link.alias || before.url !== link.url || before.id !== link.id) {
      this.removeKeys(before, link);
      this.addKeys(link);
    }
    if (before.date !== link.date || before.userId !== link.userId) {
      this.byOwner.delete(before.userId);
      this.byOwner.delete(link.userId);
    }
  }

  byIdOf(id: number): LinkRecord | undefined {
    return this.byId.get(id);
  }

  byAliasOf(alias: string): readonly LinkRecord[] {
    return this.byAlias.get(alias.toLowerCase()) ?? [];
  }

  byUrlOf(url: string): readonly LinkRecord[] {
    return this.byUrl.get(url) ?? [];
  }

  ownedBy(userId: number, links: LinkRecord[]): readonly LinkRecord[] {
    let owned = this.byOwner.get(userId);
    if (!owned) {
      owned = links.filter((link) => link.userId === userId).sort(newestFirst);
      this.byOwner.set(userId, owned);
    }
    return owned;
  }
}
