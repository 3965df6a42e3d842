/**
 * The people a signed-in server serves, each acting as their own account: their own client (and so
 * their own rate budget and link index, both kept per account by the client's registries) and
 * their own tool list (the admin tools only for an administrator's key, with --admin).
 */
import { isLinkShortError, type LinkShortClient } from "@linkshort/client";
import { keyIsAdministrators } from "../key-role";
import type { KeyCheck } from "./authorize";

export interface Person {
  client: LinkShortClient;
  admin: boolean;
}

export interface PeopleOptions {
  /** A client of the service for one person's key. */
  clientFor: (apiKey: string) => LinkShortClient;
  /** --admin: offer the admin tools to the administrators among the people. */
  admin: boolean;
  say: (text: string) => void;
  /** Told of each person's client let go of (the least recently seen, past MAX_PEOPLE), so that no index keeps it. */
  letGo: (client: LinkShortClient) => void;
}

/** People kept at once; one let go is made again at their next request. */
const MAX_PEOPLE = 1_000;
/** How long a key sent as a header stays checked before the service is asked again. */
const KEY_CHECK_MS = 10 * 60_000;

export type Refusal = Extract<KeyCheck, { accepted: false }>;

export class People {
  /** By account, the least recently seen first. */
  readonly #known = new Map<string, Promise<Person>>();
  /** The clients of the people kept, for `redact`. */
  readonly #clients = new Set<LinkShortClient>();
  readonly #headerKeysChecked = new Map<string, number>();

  constructor(private readonly options: PeopleOptions) {}

  /** Asks the service whether a key is good (`GET /api/account`), never saying the key. */
  async checkKey(apiKey: string): Promise<KeyCheck> {
    let client: LinkShortClient;
    try {
      client = this.options.clientFor(apiKey);
    } catch {
      return { accepted: false, status: 400, problem: "This is not an API key (it has characters a key cannot have)." };
    }
    try {
      await client.account.get({ signal: AbortSignal.timeout(10_000), maxRetries: 0 });
      return { accepted: true, accountId: client.accountId };
    } catch (error) {
      if (isLinkShortError(error, "LINKSHORT_AUTHENTICATION_FAILED", "LINKSHORT_PERMISSION_DENIED")) {
        return { accepted: false, status: 401, problem: "The service did not accept this API key. Check it in the service's settings and paste it again." };
      }
      return { accepted: false, status: 502, problem: "The service could not be reached to check the key. Try again in a moment." };
    }
  }

  /** The person a key (already checked, e.g. at sign-in) acts as. */
  person(apiKey: string): Promise<Person> {
    const client = this.options.clientFor(apiKey);
    return this.#kept(client.accountId, () => this.#make(client));
  }

  /** The person of a grant's account: the one kept, else made from its key (only then unwrapped). */
  personOfGrant(accountId: string, apiKey: () => Promise<string>): Promise<Person> {
    return this.#kept(accountId, async () => this.#make(this.options.clientFor(await apiKey())));
  }

  /** `text` without the key of any person kept, in any form a server may echo it in. */
  redact(text: string): string {
    let redacted = text;
    for (const client of this.#clients) redacted = client.redact(redacted);
    return redacted;
  }

  #kept(accountId: string, make: () => Promise<Person>): Promise<Person> {
    let person = this.#known.get(accountId);
    if (person === undefined) {
      const made = make();
      const current = () => this.#known.get(accountId) === made;
      void made.then(
        (person) => {
          if (current()) this.#clients.add(person.client);
        },
        () => {
          if (current()) this.#known.delete(accountId);
        },
      );
      person = made;
    } else this.#known.delete(accountId);
    this.#known.set(accountId, person);
    if (this.#known.size > MAX_PEOPLE) {
      const [oldest, letGo] = this.#known.entries().next().value!;
      this.#known.delete(oldest);
      void letGo.then((gone) => {
        this.#clients.delete(gone.client);
        this.options.letGo(gone.client);
      }, () => undefined);
    }
    return person;
  }

  /**
   * The person a key sent as a header acts as, once the service has accepted it (asked again after
   * a while, so a key the service revoked stops working here too); else why not.
   */
  async personForHeaderKey(apiKey: string): Promise<Person | Refusal> {
    let accountId: string;
    try {
      accountId = this.options.clientFor(apiKey).accountId;
    } catch {
      return { accepted: false, status: 401, problem: "this is not an API key" };
    }
    const checkedAt = this.#headerKeysChecked.get(accountId);
    if (checkedAt === undefined || Date.now() - checkedAt > KEY_CHECK_MS) {
      const check = await this.checkKey(apiKey);
      if (!check.accepted) return check;
      this.#headerKeysChecked.delete(accountId);
      this.#headerKeysChecked.set(accountId, Date.now());
      while (this.#headerKeysChecked.size > MAX_PEOPLE) this.#headerKeysChecked.delete(this.#headerKeysChecked.keys().next().value!);
    }
    return this.person(apiKey);
  }

  async #make(client: LinkShortClient): Promise<Person> {
    return { client, admin: this.options.admin && (await keyIsAdministrators(client, this.options.say)) };
  }
}
