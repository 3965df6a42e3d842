import type { PagePromise } from "../../pagination";
import { MessageSchema, pagedList, Resource, type MessageResult, type RequestOptions } from "../shared";
import {
  LinkCreatedSchema,
  LinkListSchema,
  LinkSchema,
  LinkUpdatedSchema,
  LinkUpdateSchema,
  LinkWithStatsSchema,
  type Link,
  type LinkCreated,
  type LinkCreateInput,
  type LinkListInput,
  type LinkUpdated,
  type LinkUpdateInput,
  type LinkWithStats,
} from "./schemas";
import { checkLinkCreate, type CheckedLinkCreate } from "./create-input";
import { withUtm } from "./utm";

const LinkPage = pagedList(LinkSchema, "urls");

/** A change this client made, told to watchers (the link index) once the server confirmed it. */
export type LinkChange =
  | { kind: "created" | "updated"; id: number; shorturl: string; longurl: string; title?: string; description?: string }
  | { kind: "deleted"; id: number };

/** A link's totals as a read showed them (`uniqueClicks` only from its details). */
export interface LinkTotalsRead {
  id: number;
  clicks: number;
  uniqueClicks?: number;
}

export class LinksResource extends Resource {
  readonly #watchers = new Set<(change: LinkChange) => void>();
  readonly #totalsWatchers = new Set<(totals: LinkTotalsRead[]) => void>();

  /**
   * Calls `watcher` with the totals of the links each list page and each link's details show, as
   * they arrive (the click history samples them so, with no request of its own); returns the
   * function that stops it.
   */
  watchTotals(watcher: (totals: LinkTotalsRead[]) => void): () => void {
    this.#totalsWatchers.add(watcher);
    return () => this.#totalsWatchers.delete(watcher);
  }

  #tellTotals(totals: LinkTotalsRead[]): void {
    for (const watcher of this.#totalsWatchers) {
      try {
        watcher(totals);
      } catch {
        // A watcher's failure is its own: the read it watches has succeeded.
      }
    }
  }

  /** Calls `watcher` after each create, update and delete this client makes; returns the function that stops it. */
  watch(watcher: (change: LinkChange) => void): () => void {
    this.#watchers.add(watcher);
    return () => this.#watchers.delete(watcher);
  }

  #tell(change: LinkChange): void {
    for (const watcher of this.#watchers) {
      try {
        watcher(change);
      } catch {
        // A watcher's failure is its own: the call it watches has succeeded.
      }
    }
  }

  /** Links, newest first (`order: "date"`, the default) or most clicked first (`order: "click"`). */
  list(params?: LinkListInput, options?: RequestOptions): PagePromise<Link> {
    return this.pagedList("links.list", "/api/urls", LinkPage, LinkListSchema, params, options, (page) => {
      if (this.#totalsWatchers.size > 0 && page.items.length > 0) this.#tellTotals(page.items.map((link) => ({ id: link.id, clicks: link.clicks })));
    });
  }

  /** One link's details and its statistics. */
  async get(id: number, options?: RequestOptions): Promise<LinkWithStats> {
    const checked = this.id("links.get", id);
    const answer = await this.core.request({ method: "GET", path: `/api/url/${checked}` }, LinkWithStatsSchema, options);
    if (this.#totalsWatchers.size > 0) this.#tellTotals([{ id: checked, clicks: answer.stats.clicks, uniqueClicks: answer.stats.uniqueClicks }]);
    return answer;
  }

  /**
   * Shortens a URL. Never retried once it may have reached the server, so it never makes two links.
   * Front ends call `createLink`, which also keeps the account's link index and reuse; an input
   * `checkLinkCreate` already checked is not checked again.
   */
  async create(input: LinkCreateInput | CheckedLinkCreate, options?: RequestOptions): Promise<LinkCreated> {
    const body = checkLinkCreate(input);
    const created = await this.core.request({ method: "POST", path: "/api/url/add", body }, LinkCreatedSchema, options);
    this.#tell({ kind: "created", id: created.id, shorturl: created.shorturl, longurl: body.url, title: body.metatitle, description: body.metadescription });
    return created;
  }

  async update(id: number, input: LinkUpdateInput, options?: RequestOptions): Promise<LinkUpdated> {
    const checked = this.idAndBody("links.update", id, LinkUpdateSchema, input);
    const body = withUtm(checked.body);
    const updated = await this.core.request({ method: "PUT", path: `/api/url/${checked.id}/update`, body }, LinkUpdatedSchema, options);
    this.#tell({
      kind: "updated",
      id: checked.id,
      shorturl: updated.shorturl,
      longurl: checked.body.url,
      title: checked.body.metatitle,
      description: checked.body.metadescription,
    });
    return updated;
  }

  async delete(id: number, options?: RequestOptions): Promise<MessageResult> {
    const checked = this.id("links.delete", id);
    const deleted = await this.core.request({ method: "DELETE", path: `/api/url/${checked}/delete` }, MessageSchema, options);
    this.#tell({ kind: "deleted", id: checked });
    return deleted;
  }
}
