/** Each account's server index in one account state: made on first use, following every client of the account, the one let go stopped. */
import { AccountRegistry, type LinkShortClient } from "@linkshort/client";
import type { ServerLinkIndex } from "./server-index";

export class AccountIndexes {
  readonly #indexes: AccountRegistry<ServerLinkIndex>;

  /** At most `max` accounts at once; `make` makes an account's index for its first client. */
  constructor(
    max: number,
    private readonly make: (client: LinkShortClient) => ServerLinkIndex,
  ) {
    this.#indexes = new AccountRegistry<ServerLinkIndex>(max, (evicted) => void evicted.stop());
  }

  /** The account's index, following `client`. */
  indexFor(client: LinkShortClient): ServerLinkIndex {
    const index = this.#indexes.get(client.accountId, () => this.make(client));
    index.follow(client);
    return index;
  }

  /** Lets go of a client (its person was let go of) in every index. */
  forgetClient(client: LinkShortClient): void {
    for (const index of this.#indexes.values()) index.unfollow(client);
  }

  async stop(): Promise<void> {
    await Promise.all([...this.#indexes.values()].map((index) => index.stop()));
  }
}
