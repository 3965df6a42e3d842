import { PIXEL_TYPES } from "@linkshort/client/core";
import { newestFirst } from "../persistence/state";
import { timestamp } from "../views/dates";
import { Failure, mine, ok, oneOf, owned, paginate, removeItem, route, text, type Route } from "./shared";

export const pixelRoutes: Route[] = [
  route("GET", "/api/pixels", (c) => {
    const { slice, info } = paginate(mine(c.store.state.pixels, c).sort(newestFirst), c);
    return ok({ data: { ...info, pixels: slice.map(({ id, type, name, tag, date }) => ({ id, type, name, tag, date })) } }, c.mode, true);
  }),
  route("POST", "/api/pixel/add", (c) => {
    const type = text(c.body.type);
    if (!oneOf(PIXEL_TYPES, type)) throw new Failure("Please choose a valid pixel provider.");
    if (!text(c.body.name).trim()) throw new Failure("Please enter a name for your pixel.");
    if (!text(c.body.tag).trim()) throw new Failure("Please enter a valid tag.");
    const pixel = { id: c.store.nextId("pixels"), userId: c.user.id, type, name: text(c.body.name), tag: text(c.body.tag), date: timestamp(c.now) };
    c.store.state.pixels.push(pixel);
    return ok({ id: pixel.id });
  }),
  route("PUT", "/api/pixel/{id}/update", (c) => {
    const pixel = owned(c.store.state.pixels, c, "Pixel");
    if (!text(c.body.tag).trim()) throw new Failure("Please enter a valid tag.");
    if (c.body.name !== undefined) {
      if (!text(c.body.name).trim()) throw new Failure("Please enter a name for your pixel.");
      pixel.name = text(c.body.name);
    }
    pixel.tag = text(c.body.tag);
    return ok({ message: "Pixel has been updated successfully." });
  }),
  route("DELETE", "/api/pixel/{id}/delete", (c) => {
    removeItem(c.store.state.pixels, owned(c.store.state.pixels, c, "Pixel"));
    return ok({ message: "Pixel has been deleted successfully." });
  }),
];
