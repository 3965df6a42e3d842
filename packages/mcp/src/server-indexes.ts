/** The process's index of each account, for the servers made without one of their own. */
import { AccountRegistry, MAX_INDEXED_ACCOUNTS, type LinkShortClient } from "@linkshort/client";
import { ServerLinkIndex } from "./server-index";

/** The index of each account whose server was given none (the CLI gives one): at most the client's bound of accounts, the one let go stopped. */
const serverIndexes = new AccountRegistry<ServerLinkIndex>(MAX_INDEXED_ACCOUNTS, (evicted) => void evicted.stop());

export function serverLinkIndexFor(client: LinkShortClient): ServerLinkIndex {
  const index = serverIndexes.get(client.accountId, () => new ServerLinkIndex(client));
  index.follow(client);
  return index;
}

/** Lets go of a client (its person was let go of) in every index `serverLinkIndexFor` made. */
export function forgetClient(client: LinkShortClient): void {
  for (const index of serverIndexes.values()) index.unfollow(client);
}
