import { createOrReuse, createTracked, type LinkCreateInput } from "@linkshort/client/core";
import { getPreferences } from "./client";
import { getAccountIndex } from "./account-indexes";

/** The short link for `input`: a new one, or with the "Reuse an Existing Link" preference, the account's link that is exactly the one asked for (`createOrReuse`). */
export async function shortenWithReusePreference(
  input: LinkCreateInput,
): Promise<{ shorturl: string; reused: boolean }> {
  const target = getAccountIndex();
  if (getPreferences().reuseExisting) return createOrReuse(target.client, target.index, input);
  // The service may still hand back its existing link for the same URL and options: `reused` says so.
  return createTracked(target.client, target.index, input);
}

/** The Default Domain preference as link input. */
export function defaultDomainInput(): Pick<LinkCreateInput, "domain"> {
  const domain = getPreferences().defaultDomain?.trim();
  return domain ? { domain } : {};
}
