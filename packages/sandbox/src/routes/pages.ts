import { newestFirst } from "../persistence/state";
import { mine, ok, paginate, route, type Route } from "./shared";

/** Splash pages and CTA overlays: read-only lists, as in the client's `pages` resource. */
export const pageRoutes: Route[] = [
  route("GET", "/api/splash", (c) => {
    const { slice, info } = paginate(mine(c.store.state.splash, c).sort(newestFirst), c);
    return ok({ data: { ...info, splash: slice.map(({ id, name, date }) => ({ id, name, date })) } }, c.mode, true);
  }),
  route("GET", "/api/overlay", (c) => {
    const { slice, info } = paginate(mine(c.store.state.overlays, c).sort(newestFirst), c);
    const items = slice.map(({ id, type, name, date }) => ({ id, type, name, date }));
    return ok({ data: { ...info, [c.mode === "deployed" ? "overlay" : "cta"]: items } }, c.mode, true);
  }),
];
