import { PaginationSchema, type PaginationInput } from "../inputs";
import type { PagePromise } from "../pagination";
import { OverlaySchema, SplashPageSchema, type Overlay, type SplashPage } from "../schemas";
import { pagedList, Resource, type RequestOptions } from "./shared";

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
