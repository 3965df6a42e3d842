import { quickShorten } from "../api/shorten";

type Input = {
  /** The long URL to shorten (http or https). */
  url: string;
  /** A custom alias for the short URL: 3 to 50 letters, digits or hyphens. */
  alias?: string;
};

/** Shortens a URL and returns the short URL, as Shorten Link does (the Default Domain, the Quick Shorten preference). */
export default async function tool(input: Input) {
  const { id, shorturl } = await quickShorten({ url: input.url, ...(input.alias ? { custom: input.alias } : {}) });
  return { id, shorturl };
}
