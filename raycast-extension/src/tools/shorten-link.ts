import { getClient, getPreferences } from "../api/client";

type Input = {
  /** The long URL to shorten (http or https). */
  url: string;
  /** A custom alias for the short URL: 3 to 50 letters, digits or hyphens. */
  alias?: string;
};

/** Shortens a URL and returns the short URL. */
export default async function tool(input: Input) {
  const { defaultDomain } = getPreferences();
  return await getClient().links.create({
    url: input.url,
    ...(input.alias ? { custom: input.alias } : {}),
    ...(defaultDomain?.trim() ? { domain: defaultDomain.trim() } : {}),
  });
}
