import * as z from "zod/v4";
import type { PagePromise } from "../pagination";
import { identifier, text, timestamp } from "./fields";
import { pagedList, PaginationSchema, Resource, type PaginationInput, type RequestOptions } from "./shared";

export const SplashPageSchema = z.object({ id: identifier, name: text, date: timestamp });
export type SplashPage = z.output<typeof SplashPageSchema>;

export const OverlaySchema = z.object({ id: identifier, type: text, name: text, date: timestamp });
export type Overlay = z.output<typeof OverlaySchema>;

const SplashPageList = pagedList(SplashPageSchema, "splash");
/** The document names the array `cta`; deployed servers name it `overlay`. */
const OverlayList = pagedList(OverlaySchema, "cta", "overlay");

export class SplashPagesResource extends Resource {
  list(params?: PaginationInput, options?: RequestOptions): PagePromise<SplashPage> {
    return this.pagedList("splashPages.list", "/api/splash", SplashPageList, PaginationSchema, params, options);
  }
}

export class OverlaysResource extends Resource {
  list(params?: PaginationInput, options?: RequestOptions): PagePromise<Overlay> {
    return this.pagedList("overlays.list", "/api/overlay", OverlayList, PaginationSchema, params, options);
  }
}
