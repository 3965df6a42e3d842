import { getClient } from "../api/client";

type Input = {
  /** The link's ID (from find-links). */
  id: number;
};

/** A link's details and statistics: clicks, unique clicks, top countries, referrers, browsers, OS. */
export default async function tool(input: Input) {
  const { details, stats } = await getClient().links.get(input.id);
  return {
    ...stats,
    shorturl: details.shorturl,
    longurl: details.longurl,
    expiry: details.expiry,
    created: details.date,
  };
}
