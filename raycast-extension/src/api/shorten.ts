import { createOrReuse, type LinkCreateInput } from "@linkshort/client/core";
import { getPreferences } from "./client";
import { getAccountIndex } from "./link-index";

/** The short link for `input`: a new one, or with the "Reuse an Existing Link" preference, the account's link to the same URL. */
export async function shortenOne(input: LinkCreateInput): Promise<{ shorturl: string; reused: boolean }> {
  const target = getAccountIndex();
  if (getPreferences().reuseExisting) return createOrReuse(target.client, target.index, input);
  const { shorturl } = await target.client.links.create(input);
  return { shorturl, reused: false };
}

/** The Default Domain preference as link input. */
export function defaultDomainInput(): Pick<LinkCreateInput, "domain"> {
  const domain = getPreferences().defaultDomain?.trim();
  return domain ? { domain } : {};
}
