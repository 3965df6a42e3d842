/**
 * What an account's state offers the server: each key's client, each account's index (with its
 * click history), the sign-ins and the secrets. Kept by this process alone (`LocalAccountState`), or
 * shared by replicas on Postgres (`SharedState`, `--store`); `state-from.ts` opens the one the
 * command line names.
 */
import type { LinkShortClient } from "@linkshort/client";
import type { AuthStore } from "../auth/store";
import type { ServerLinkIndex } from "./server-index";

export interface AccountState {
  /** Where the indexes and click histories are kept, as the start's log says it. */
  readonly keptIn: string;
  /** Where the sign-ins and each person's index are kept, as the start's log says it with --sign-in. */
  readonly signInsKeptIn: string;
  /** Where the sign-ins are kept; undefined: the sign-in keeps them in memory. */
  readonly authStore: AuthStore | undefined;
  /** The secret kept under `name` for every replica; undefined: each process makes its own. */
  secret(name: "sign-in" | "request-state"): Promise<Uint8Array | undefined>;
  /** A client of the service for one key, paced by the account's rate budget. */
  clientFor(baseUrl: string, apiKey: string, maxWaitSeconds: number): LinkShortClient;
  /** The account's index and click history, following `client`. */
  indexFor(client: LinkShortClient): ServerLinkIndex;
  /** Lets go of a client (its person was let go of) in every index. */
  forgetClient(client: LinkShortClient): void;
  /** Stops every index and lets go of the store. */
  close(): Promise<void>;
}
