/** The process's index of each account, for the servers made without one of their own. */
import type { LinkShortClient } from "@linkshort/client";
import { LocalAccountState } from "./local-state";
import type { ServerLinkIndex } from "./server-index";

/** The state of each account whose server was given no index (the CLI gives one). */
const processState = new LocalAccountState();

export function serverLinkIndexFor(client: LinkShortClient): ServerLinkIndex {
  return processState.indexFor(client);
}

/** Lets go of a client (its person was let go of) in every index `serverLinkIndexFor` made. */
export function forgetClient(client: LinkShortClient): void {
  processState.forgetClient(client);
}
