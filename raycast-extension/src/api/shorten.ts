import { createLink, type LinkCreateInput, type ReusableLink } from "@linkshort/client/core";
import { getPreferences } from "./client";
import { getAccountIndex } from "./account-indexes";

export interface ShortenOptions {
  /** Hand back the account's existing link when it is exactly the one asked for (the client's `REUSE_RULE`). */
  reuse: boolean;
  /** Put the link on the Default Domain preference when the input names no domain. */
  onDefaultDomain: boolean;
}

/**
 * Every new link of the extension, through the client's `createLink`: checked once, kept in the
 * chosen account's link index (so a later reuse costs a GET, not a create) and, if asked, reused.
 */
export function shorten(input: LinkCreateInput, { reuse, onDefaultDomain }: ShortenOptions): Promise<ReusableLink> {
  const { client, index } = getAccountIndex();
  const { defaultDomain } = getPreferences();
  return createLink(client, index, input, { reuse, ...(onDefaultDomain ? { defaultDomain } : {}) });
}

/**
 * Shorten Link, Shorten Links in Bulk and the AI tool: on the Default Domain, and with the Quick
 * Shorten preference, the existing link for the same URL and options. The service may hand back its
 * existing link all the same: `reused` says so.
 */
export function quickShorten(input: LinkCreateInput): Promise<ReusableLink> {
  return shorten(input, { reuse: getPreferences().reuseExisting === true, onDefaultDomain: true });
}
