import { getClient } from "../api/client";

type Input = {
  /** Text to look for in the long URL, short URL, alias or title; all links when empty. */
  query?: string;
  /** "date" for newest first, "click" for most clicked first. */
  order?: "date" | "click";
  /** How many links to return at most (default 20). */
  limit?: number;
};

const SCAN_LIMIT = 1000;

/** Finds the user's links matching a text, with their clicks. */
export default async function tool(input: Input) {
  const query = input.query?.trim().toLowerCase() ?? "";
  const limit = Math.min(Math.max(input.limit ?? 20, 1), 100);
  const found = [];
  let scanned = 0;
  for await (const link of getClient().links.list({ order: input.order ?? "date", limit: 100 })) {
    scanned += 1;
    if (
      !query ||
      [link.longurl, link.shorturl, link.alias, link.title].some((field) => field.toLowerCase().includes(query))
    ) {
      found.push({
        id: link.id,
        alias: link.alias,
        shorturl: link.shorturl,
        longurl: link.longurl,
        title: link.title,
        clicks: link.clicks,
        date: link.date,
      });
      if (found.length >= limit) break;
    }
    if (scanned >= SCAN_LIMIT) break;
  }
  return found;
}
