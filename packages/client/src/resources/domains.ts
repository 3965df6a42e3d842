import { DomainCreateSchema, DomainUpdateSchema, PaginationSchema, type DomainCreateInput, type DomainUpdateInput, type PaginationInput } from "../inputs";
import type { PagePromise } from "../pagination";
import { CreatedSchema, DomainSchema, MessageSchema, type Created, type Domain, type MessageResult } from "../schemas";
import { validate } from "../validate";
import { pagedList, Resource, type RequestOptions } from "./shared";

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
