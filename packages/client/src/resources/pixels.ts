import { PaginationSchema, PixelCreateSchema, PixelUpdateSchema, type PaginationInput, type PixelCreateInput, type PixelUpdateInput } from "../inputs";
import type { PagePromise } from "../pagination";
import { CreatedSchema, MessageSchema, PixelSchema, type Created, type MessageResult, type Pixel } from "../schemas";
import { validate } from "../validate";
import { pagedList, Resource, type RequestOptions } from "./shared";

const PixelPage = pagedList(PixelSchema, "pixels");

export class PixelsResource extends Resource {
  list(params?: PaginationInput, options?: RequestOptions): PagePromise<Pixel> {
    return this.pagedList("pixels.list", "/api/pixels", PixelPage, PaginationSchema, params, options);
  }

  async create(input: PixelCreateInput, options?: RequestOptions): Promise<Created> {
    const body = validate(PixelCreateSchema, input, "pixels.create");
    return this.core.request({ method: "POST", path: "/api/pixel/add", body }, CreatedSchema, options);
  }

  async update(id: number, input: PixelUpdateInput, options?: RequestOptions): Promise<MessageResult> {
    const checked = this.idAndBody("pixels.update", id, PixelUpdateSchema, input);
    return this.core.request({ method: "PUT", path: `/api/pixel/${checked.id}/update`, body: checked.body }, MessageSchema, options);
  }

  async delete(id: number, options?: RequestOptions): Promise<MessageResult> {
    const checked = this.id("pixels.delete", id);
    return this.core.request({ method: "DELETE", path: `/api/pixel/${checked}/delete` }, MessageSchema, options);
  }
}
