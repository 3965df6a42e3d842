import type { Tool } from "@raycast/api";
import { getClient } from "../api/client";

type Input = {
  /** The link's ID (from find-links). */
  id: number;
};

/** The user confirms before a link is deleted, seeing which one. */
export const confirmation: Tool.Confirmation<Input> = async (input) => {
  const { details, stats } = await getClient().links.get(input.id);
  return {
    message: `Delete ${details.shorturl}? It will stop working.`,
    info: [
      { name: "Short URL", value: details.shorturl },
      { name: "Long URL", value: details.longurl },
      { name: "Clicks", value: String(stats.clicks) },
    ],
  };
};

/** Deletes a link. */
export default async function tool(input: Input) {
  await getClient().links.delete(input.id);
  return { deleted: true, id: input.id };
}
