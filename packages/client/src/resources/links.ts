import { LinkCreateSchema, LinkListSchema, LinkUpdateSchema, type LinkCreateInput, type LinkListInput, type LinkUpdateInput } from "../inputs";
import type { PagePromise } from "../pagination";
import {
  LinkCreatedSchema,
  LinkSchema,
  LinkUpdatedSchema,
  LinkWithStatsSchema,
  MessageSchema,
  type Link,
  type LinkCreated,
  type LinkUpdated,
  type LinkWithStats,
  type MessageResult,
} from "../schemas";
import { validate } from "../validate";
import { pagedList, Resource, type RequestOptions } from "./shared";

const LinkPage = pagedList(LinkSchema, "urls");

export class LinksResource extends Resource {
  /** Links, newest first (`order: "date"`, the default) or most clicked first (`order: "click"`). */
  list(params?: LinkListInput, options?: RequestOptions): PagePromise<Link> {
    return this.pagedList("links.list", "/api/urls", LinkPage, LinkListSchema, params, options);
  }

  /** One link's details and its statistics. */
  async get(id: number, options?: RequestOptions): Promise<LinkWithStats> {
    const checked = this.id("links.get", id);
    return this.core.request({ method: "GET", path: `/api/url/${checked}` }, LinkWithStatsSchema, options);
  }

  /** Shortens a URL. Never retried once it may have reached the server, so it never makes two links. */
  async create(input: LinkCreateInput, options?: RequestOptions): Promise<LinkCreated> {
    const body = validate(LinkCreateSchema, input, "links.create");
    return this.core.request({ method: "POST", path: "/api/url/add", body }, LinkCreatedSchema, options);
  }

  async update(id: number, input: LinkUpdateInput, options?: RequestOptions): Promise<LinkUpdated> {
    const checked = this.idAndBody("links.update", id, LinkUpdateSchema, input);
    return this.core.request({ method: "PUT", path: `/api/url/${checked.id}/update`, body: checked.body }, LinkUpdatedSchema, options);
  }

  async delete(id: number, options?: RequestOptions): Promise<MessageResult> {
    const checked = this.id("links.delete", id);
    return this.core.request({ method: "DELETE", path: `/api/url/${checked}/delete` }, MessageSchema, options);
  }
}
