/**
 * The people a signed-in server serves, each acting as their own account: their own client (and so
 * their own rate budget and link index, both kept per account by the client's registries) and
 * their own tool list (the admin tools only for an administrator's key, with --admin).
 */
import { isLinkShortError, type LinkShortClient } from "@linkshort/client";
import { keyIsAdministrators } from "./key-role";
import { BoundedCache } from "./bounded-cache";
import type { KeyCheck } from "./authorize";
import { addressGroup } from "./client-address";
import { ADDRESS_BOUND, FailureThrottle, PAGE_BOUND, RefusedKeys } from "./failure-throttle";

export interface Person {
  client: LinkShortClient;
  admin: boolean;
}

export interface PeopleOptions {
  /** A client of the service for one person's key. */
  clientFor: (apiKey: string) => LinkShortClient;
  /** A client that only checks a key: it writes nothing other replicas share (a key the service refuses leaves no trace in the store). Default: `clientFor`. */
  checkClientFor?: (apiKey: string) => LinkShortClient;
  /** For tests: the clock of the failure bounds and of when a header key is checked again. */
  now?: () => number;
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

/** Who sends a key to be checked: the client's address (the socket's peer, or the one a trusted proxy forwards for), and with the sign-in form, its page (the CSRF value its signed request carries). */
export interface Asker {
  address: string;
  page?: string;
}

export class People {
  /** By account, the least recently seen first. */
  readonly #known = new BoundedCache<string, Promise<Person>>({ max: MAX_PEOPLE, onEvict: (person) => this.#letGo(person) });
  /** The clients of the people kept, for `redact`. */
  readonly #clients = new Set<LinkShortClient>();
  readonly #headerKeysChecked = new BoundedCache<string, number>({ max: MAX_PEOPLE });
  readonly #failuresByAddress: FailureThrottle;
  readonly #failuresByPage: FailureThrottle;
  /** Keys sent as a header that the service refused lately, by account id (a digest of the key, never the key). */
  readonly #refusedHeaderKeys: RefusedKeys;
  readonly #now: () => number;

  constructor(private readonly options: PeopleOptions) {
    this.#now = options.now ?? Date.now;
    this.#failuresByAddress = new FailureThrottle(ADDRESS_BOUND, this.#now);
    this.#failuresByPage = new FailureThrottle(PAGE_BOUND, this.#now);
    this.#refusedHeaderKeys = new RefusedKeys(this.#now);
  }

  #checkClient(apiKey: string): LinkShortClient {
    return (this.options.checkClientFor ?? this.options.clientFor)(apiKey);
  }

  /**
   * Asks the service whether a key is good, within the failures allowed to the asker's address and
   * page: past them, refused (429, with when to try again) without asking; a refusal past the first
   * few is answered later and later.
   */
  async checkKey(apiKey: string, asker?: Asker): Promise<KeyCheck> {
    const charged: Array<[FailureThrottle, string]> = [];
    const bounds: Array<[FailureThrottle, string | undefined, string]> = [
      // An IPv6 client by its /64, in which it could pick a fresh address (a fresh bucket) for every attempt.
      [this.#failuresByAddress, asker?.address === undefined ? undefined : addressGroup(asker.address), "from this address"],
      [this.#failuresByPage, asker?.page, "on this sign-in page"],
    ];
    for (const [throttle, who, where] of bounds) {
      if (who === undefined) continue;
      const retryAfterSeconds = throttle.charge(who);
      if (retryAfterSeconds !== undefined) {
        for (const [chargedThrottle, chargedWho] of charged) chargedThrottle.refund(chargedWho);
        return { accepted: false, status: 429, retryAfterSeconds, problem: `Too many keys were refused ${where}. Try again in ${retryAfterSeconds} s.` };
      }
      charged.push([throttle, who]);
    }
    const check = await this.#askService(apiKey);
    if (check.accepted || check.status !== 401) {
      for (const [throttle, who] of charged) throttle.refund(who);
      return check;
    }
    const delayMs = Math.max(0, ...charged.map(([throttle, who]) => throttle.delayMs(who)));
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    return check;
  }

  /** Asks the service whether a key is good (`GET /api/account`), never saying the key. */
  async #askService(apiKey: string): Promise<KeyCheck> {
    let client: LinkShortClient;
    try {
      client = this.#checkClient(apiKey);
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
    const kept = this.#known.get(accountId);
    if (kept !== undefined) return kept;
    const made = make();
    const current = () => this.#known.peek(accountId) === made;
    void made.then(
      (person) => {
        if (current()) this.#clients.add(person.client);
      },
      () => {
        if (current()) this.#known.delete(accountId);
      },
    );
    this.#known.set(accountId, made);
    return made;
  }

  /** A person let go of (the least recently seen, past MAX_PEOPLE): their client is forgotten here and told to the server. */
  #letGo(person: Promise<Person>): void {
    void person.then(
      (gone) => {
        this.#clients.delete(gone.client);
        this.options.letGo(gone.client);
      },
      () => undefined,
    );
  }

  /**
   * The person a key sent as a header acts as, once the service has accepted it (asked again after
   * a while, so a key the service revoked stops working here too); else why not. A key the service
   * refused is refused again for a while without asking it.
   */
  async personForHeaderKey(apiKey: string, address: string): Promise<Person | Refusal> {
    let accountId: string;
    try {
      accountId = this.#checkClient(apiKey).accountId;
    } catch {
      return { accepted: false, status: 401, problem: "this is not an API key" };
    }
    const checkedAt = this.#headerKeysChecked.peek(accountId);
    if (checkedAt === undefined || this.#now() - checkedAt > KEY_CHECK_MS) {
      if (this.#refusedHeaderKeys.has(accountId)) return { accepted: false, status: 401, problem: "the service refused this key a moment ago" };
      // A key accepted before is asked about again outside the failure bounds: a flood from the same address (a proxy's) does not hold its owner back.
      const check = await this.checkKey(apiKey, checkedAt === undefined ? { address } : undefined);
      if (!check.accepted) {
        if (check.status === 401) this.#refusedHeaderKeys.add(accountId);
        return check;
      }
      this.#headerKeysChecked.set(accountId, this.#now());
    }
    return this.person(apiKey);
  }

  async #make(client: LinkShortClient): Promise<Person> {
    return { client, admin: this.options.admin && (await keyIsAdministrators(client, this.options.say)) };
  }
}
