import * as z from "zod/v4";
import type { PagePromise } from "../pagination";
import { validate } from "../internal/validate";
import { httpUrl, identifier, text } from "./fields";
import {
  CreatedSchema,
  MessageSchema,
  pagedList,
  PaginationSchema,
  Resource,
  type Created,
  type MessageResult,
  type PaginationInput,
  type RequestOptions,
} from "./shared";

export const DomainCreateSchema = z.strictObject({
  domain: httpUrl,
  redirectroot: httpUrl.optional(),
  redirect404: httpUrl.optional(),
});
export type DomainCreateInput = z.input<typeof DomainCreateSchema>;

export const DomainUpdateSchema = z.strictObject({
  redirectroot: httpUrl.optional(),
  redirect404: httpUrl.optional(),
});
export type DomainUpdateInput = z.input<typeof DomainUpdateSchema>;

export const DomainSchema = z.object({
  id: identifier,
  domain: text,
  redirectroot: text,
  redirect404: text,
});
export type Domain = z.output<typeof DomainSchema>;

const DomainPage = pagedList(DomainSchema, "domains");

export class DomainsResource extends Resource {
  list(params?: PaginationInput, options?: RequestOptions): PagePromise<Domain> {
    return this.pagedList("domains.list", "/api/domains", DomainPage, PaginationSchema, params, options);
  }

  /** Adds a branded domain (it must already point at the service). */
  async create(input: DomainCreateInput, options?: RequestOptions): Promise<Created> {
    const body = validate(DomainCreateSchema, input, "domains.create");
    return this.core.request({ method: "POST", path: "/api/domain/add", body }, CreatedSchema, options);
  }

  async update(id: number, input: DomainUpdateInput, options?: RequestOptions): Promise<MessageResult> {
    const checked = this.idAndBody("domains.update", id, DomainUpdateSchema, input);
    return this.core.request({ method: "PUT", path: `/api/domain/${checked.id}/update`, body: checked.body }, MessageSchema, options);
  }

  async delete(id: number, options?: RequestOptions): Promise<MessageResult> {
    const checked = this.id("domains.delete", id);
    return this.core.request({ method: "DELETE", path: `/api/domain/${checked}/delete` }, MessageSchema, options);
  }
}
