import { Failure, isUrl, mine, ok, owned, paginate, removeItem, route, text, type Route } from "./shared";

export const domainRoutes: Route[] = [
  route("GET", "/api/domains", (c) => {
    const { slice, info } = paginate(
      mine(c.store.state.domains, c).sort((a, b) => b.id - a.id),
      c,
    );
    return ok(
      { data: { ...info, domains: slice.map(({ id, domain, redirectroot, redirect404 }) => ({ id, domain, redirectroot, redirect404 })) } },
      c.mode,
      true,
    );
  }),
  route("POST", "/api/domain/add", (c) => {
    const domain = text(c.body.domain).replace(/\/+$/, "");
    if (!isUrl(domain)) throw new Failure("Please enter a valid domain name.");
    if (c.store.state.domains.some((item) => item.domain.toLowerCase() === domain.toLowerCase()) || domain === c.baseUrl)
      throw new Failure("This domain has already been added.");
    for (const key of ["redirectroot", "redirect404"]) if (c.body[key] && !isUrl(c.body[key])) throw new Failure(`Please enter a valid URL for ${key}.`);
    const record = { id: c.store.nextId("domains"), userId: c.user.id, domain, redirectroot: text(c.body.redirectroot), redirect404: text(c.body.redirect404) };
    c.store.state.domains.push(record);
    return ok({ id: record.id });
  }),
  route("PUT", "/api/domain/{id}/update", (c) => {
    const domain = owned(c.store.state.domains, c, "Domain");
    for (const key of ["redirectroot", "redirect404"] as const) {
      if (c.body[key] === undefined) continue;
      if (c.body[key] && !isUrl(c.body[key])) throw new Failure(`Please enter a valid URL for ${key}.`);
      domain[key] = text(c.body[key]);
    }
    return ok({ message: "Domain has been updated successfully." });
  }),
  route("DELETE", "/api/domain/{id}/delete", (c) => {
    const domain = owned(c.store.state.domains, c, "Domain");
    removeItem(c.store.state.domains, domain);
    return ok({ message: "Domain has been deleted successfully." });
  }),
];
