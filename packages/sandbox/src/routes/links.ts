import { randomBytes } from "node:crypto";
import { UnstableDateOrder } from "../date-ties";
import type { Store } from "../persistence/store";
import { shortUrl } from "../views/addresses";
import { statsView } from "./answers";
import { timestamp } from "../views/dates";
import { emptyStats } from "../visits/stats";
import { hasLinkFields, linkDetailsView, linkFields, linkListView, type LinkRecord } from "../model/link-record";
import { Failure, mine, ok, paginate, route, text, type ApiBody, type ApiContext, type Route } from "./shared";

function cleanAlias(alias: string): string {
  return alias.trim().replace(/[\s/_|+]+/g, "-");
}

function randomAlias(store: Store, domain: string | null): string {
  const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  for (;;) {
    const bytes = randomBytes(5);
    const alias = Array.from(bytes, (byte) => letters[byte % letters.length]).join("");
    if (!store.linksByAlias(alias).some((link) => link.alias === alias && link.domain === domain)) return alias;
  }
}

function linkDomain(context: ApiContext, value: unknown): string | null {
  if (value === undefined || value === null || value === "") return null;
  const domain = text(value).replace(/\/+$/, "");
  if (domain === context.baseUrl) return null;
  if (!mine(context.store.state.domains, context).some((item) => item.domain === domain)) throw new Failure("This domain does not exist or is not yours.");
  return domain;
}

function checkAlias(context: ApiContext, raw: unknown, domain: string | null, self?: LinkRecord): string {
  const alias = cleanAlias(text(raw));
  if (alias.length < 3) throw new Failure("Custom alias must be at least 3 characters.");
  if (alias.length > 50) throw new Failure("Custom alias must be at most 50 characters.");
  if (!/^[A-Za-z0-9-]+$/.test(alias)) throw new Failure("Custom alias may only contain letters, numbers and hyphens.");
  const taken = context.store.linksByAlias(alias).some((link) => link !== self && link.domain === domain);
  if (taken || ["api", "qr", "user"].includes(alias.toLowerCase())) throw new Failure("That alias is taken. Please choose another one.");
  return alias;
}

function createLink(context: ApiContext): ApiBody {
  const fields = linkFields(context, undefined);
  const domain = linkDomain(context, context.body.domain);
  const custom = context.body.custom;
  if (custom === undefined || custom === null || custom === "") {
    // Deployed servers hand back the existing link for the same url, domain and options.
    const existing = context.store
      .linksByUrl(fields.url)
      .find((link) => link.userId === context.user.id && link.domain === domain && hasLinkFields(link, fields));
    if (existing) return ok({ id: existing.id, shorturl: shortUrl(existing, context.baseUrl) });
  }
  const alias = custom === undefined || custom === null || custom === "" ? randomAlias(context.store, domain) : checkAlias(context, custom, domain);
  const link: LinkRecord = {
    id: context.store.nextId("links"),
    userId: context.user.id,
    alias,
    domain,
    date: timestamp(context.now),
    stats: emptyStats(),
    ...fields,
  };
  context.store.addLink(link);
  return ok({ id: link.id, shorturl: shortUrl(link, context.baseUrl) });
}

/** The caller's link with the id of the path, or the server's "does not exist" (also for another user's link). */
function ownedLink(context: ApiContext): LinkRecord {
  const link = context.store.linkById(Number(context.params[0]));
  if (!link || link.userId !== context.user.id) throw new Failure("Link does not exist.");
  return link;
}

function updateLink(context: ApiContext): ApiBody {
  const link = ownedLink(context);
  const fields = linkFields(context, link);
  const domain = context.body.domain === undefined ? link.domain : linkDomain(context, context.body.domain);
  const custom = context.body.custom;
  const alias = custom === undefined || custom === null || custom === "" ? link.alias : checkAlias(context, custom, domain, link);
  if (
    alias === link.alias &&
    domain !== link.domain &&
    context.store.linksByAlias(alias).some((other) => other !== link && other.alias === alias && other.domain === domain)
  ) {
    throw new Failure("That alias is taken. Please choose another one.");
  }
  context.store.changingLink(link);
  Object.assign(link, fields, { alias, domain });
  const shorturl = shortUrl(link, context.baseUrl);
  return ok(context.mode === "deployed" ? { id: link.id, shorturl } : { id: link.id, short: shorturl });
}

const unstableDateOrder = new UnstableDateOrder();

export const linkRoutes: Route[] = [
  route("GET", "/api/urls", (c) => {
    // Newest first straight from the store's index; by clicks needs a sort, as clicks change with every visit.
    const newest = c.store.linksOf(c.user.id);
    const byDate = c.dateTies === "unstable" ? unstableDateOrder.order(newest) : newest;
    const links = c.query.get("order") === "click" ? [...newest].sort((a, b) => b.stats.clicks - a.stats.clicks || b.id - a.id) : byDate;
    const { slice, info } = paginate(links, c);
    return ok({ data: { ...info, urls: slice.map((link) => linkListView(link, c.baseUrl, c.mode)) } }, c.mode, true);
  }),
  route("GET", "/api/url/{id}", (c) => {
    const link = ownedLink(c);
    const answer = { details: linkDetailsView(link, c.baseUrl, c.mode), data: statsView(link.stats, c.mode, "link") };
    return ok(c.mode === "deployed" ? { id: link.id, ...answer } : answer);
  }),
  route("POST", "/api/url/add", createLink),
  route("PUT", "/api/url/{id}/update", updateLink),
  route("DELETE", "/api/url/{id}/delete", (c) => {
    c.store.removeLink(ownedLink(c));
    return ok({ message: "Link has been deleted successfully" });
  }),
];
