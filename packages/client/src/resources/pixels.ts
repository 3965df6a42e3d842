import * as z from "zod/v4";
import type { PagePromise } from "../pagination";
import { validate } from "../internal/validate";
import { identifier, nonEmpty, text, timestamp } from "./fields";
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

export const PIXEL_TYPES = [
  "gtmpixel",
  "gapixel",
  "fbpixel",
  "adwordspixel",
  "linkedinpixel",
  "twitterpixel",
  "adrollpixel",
  "quorapixel",
  "pinterest",
  "bing",
  "snapchat",
  "reddit",
] as const;
export type PixelType = (typeof PIXEL_TYPES)[number];

const pixelType = z.enum(PIXEL_TYPES, `must be one of ${PIXEL_TYPES.join(", ")}`);

export const PixelCreateSchema = z.strictObject({ type: pixelType, name: nonEmpty, tag: nonEmpty });
export type PixelCreateInput = z.input<typeof PixelCreateSchema>;

export const PixelUpdateSchema = z.strictObject({ name: nonEmpty.optional(), tag: nonEmpty });
export type PixelUpdateInput = z.input<typeof PixelUpdateSchema>;

export const PixelSchema = z.object({ id: identifier, type: text, name: text, tag: text, date: timestamp });
export type Pixel = z.output<typeof PixelSchema>;

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
