import type { LinkShortClient } from "../client";
import type { ClickHistory } from "./click-history";

/**
 * A host that samples only while it reads (an n8n run or poll, a Raycast refresh): the history
 * loaded, the totals of every page and link `client` reads while `read` runs recorded (no request
 * of its own), the recording stopped, then the history saved. When `read` fails nothing is saved
 * and its error is thrown.
 */
export async function sampleWhile<T>(history: ClickHistory, client: LinkShortClient, read: () => Promise<T>): Promise<T> {
  await history.load();
  const stop = history.observe(client);
  let result: T;
  try {
    result = await read();
  } finally {
    stop();
  }
  await history.save();
  return result;
}
