/**
 * What the sign-in remembers, behind one small interface so that a shared store (Postgres, for
 * replicas) can take the memory one's place. Codes and refresh tokens are kept by their SHA-256
 * only; the person's API key only wrapped (encrypted with the server's secret, see tokens.ts).
 */
import { BoundedCache } from "./bounded-cache";
import { ClientPool, type OAuthClient } from "./client-pool";

export type { OAuthClient } from "./client-pool";

/** The store could not be reached or failed (its message names the store, never a password): sign-ins are refused until it is back. */
export class StoreUnavailableError extends Error {
  override name = "StoreUnavailableError";
}

/** One sign-in of one person at one client: what its access and refresh tokens stand for. */
export interface Grant {
  id: string;
  clientId: string;
  accountId: string;
  /** The person's API key, encrypted with the server's secret (a compact JWE). */
  wrappedKey: string;
  scope: string;
  /** The resource its tokens are for (RFC 8707). */
  resource: string;
  expiresAt: number;
}

/** An authorization code waiting to be exchanged, with what it was issued for. */
export interface PendingCode {
  grant: Grant;
  redirectUri: string;
  codeChallenge: string;
  expiresAt: number;
}

/** What taking a one-time secret (a code, a refresh token) found. */
export type Taken<T> = { state: "fresh"; value: T } | { state: "used"; grantId: string } | { state: "unknown" };

export interface AuthStore {
  saveClient(client: OAuthClient): Promise<void>;
  client(clientId: string): Promise<OAuthClient | undefined>;
  /** A registered client signed someone in: it is kept before any that never did. */
  clientSignedIn(clientId: string, now: number): Promise<void>;
  saveCode(codeHash: string, code: PendingCode): Promise<void>;
  /** What taking the code would find now, without taking it. */
  peekCode(codeHash: string, now: number): Promise<Taken<PendingCode>>;
  /** The code, once: later takes answer "used" with the grant it made, until it expires. */
  takeCode(codeHash: string, now: number): Promise<Taken<PendingCode>>;
  saveGrant(grant: Grant): Promise<void>;
  /** The grant unless it was revoked or has expired. */
  grant(grantId: string, now: number): Promise<Grant | undefined>;
  revokeGrant(grantId: string): Promise<void>;
  /**
   * A grant's new refresh token. The grant's older tokens go, but for the one it `replaces` (kept,
   * used, so that its replay still ends the sign-in): a refresh loop keeps two rows, not one a refresh.
   */
  saveRefreshToken(tokenHash: string, grantId: string, expiresAt: number, replaces?: string): Promise<void>;
  /** The refresh token's grant, once: a token used before answers "used" (a replay). */
  takeRefreshToken(tokenHash: string, now: number): Promise<Taken<string>>;
}

interface OneTime<T> {
  value: T;
  grantId: string;
  used: boolean;
  expiresAt: number;
}

/** Bounds that keep a flood of abandoned sign-ins from filling the memory (registrations: `client-pool.ts`). */
const MAX_PENDING = 100_000;

function take<T>(entries: BoundedCache<string, OneTime<T>>, hash: string, now: number, use = true): Taken<T> {
  const entry = entries.peek(hash);
  if (entry === undefined || entry.expiresAt <= now) {
    entries.delete(hash);
    return { state: "unknown" };
  }
  if (entry.used) return { state: "used", grantId: entry.grantId };
  if (use) entry.used = true;
  return { state: "fresh", value: entry.value };
}

/** The store of one process: sign-ins end with it (a restart signs everyone out). */
export class MemoryAuthStore implements AuthStore {
  readonly #clients = new ClientPool();
  readonly #codes = new BoundedCache<string, OneTime<PendingCode>>({ max: MAX_PENDING });
  /** The oldest sign-ins go first when the bound is reached (they expire first too). */
  readonly #grants = new BoundedCache<string, Grant>({ max: MAX_PENDING });
  /** Two a grant at most, as many grants as are kept. */
  readonly #refreshTokens = new BoundedCache<string, OneTime<string>>({ max: 2 * MAX_PENDING });
  /** Each grant's refresh tokens kept (its current one and the one that one replaced), by hash. */
  readonly #refreshTokensOfGrant = new BoundedCache<string, string[]>({ max: MAX_PENDING });

  saveClient(client: OAuthClient): Promise<void> {
    this.#clients.save(client);
    return Promise.resolve();
  }

  client(clientId: string): Promise<OAuthClient | undefined> {
    return Promise.resolve(this.#clients.get(clientId));
  }

  clientSignedIn(clientId: string, now: number): Promise<void> {
    this.#clients.signedIn(clientId, now);
    return Promise.resolve();
  }

  saveCode(codeHash: string, code: PendingCode): Promise<void> {
    this.#codes.set(codeHash, { value: code, grantId: code.grant.id, used: false, expiresAt: code.expiresAt });
    return Promise.resolve();
  }

  peekCode(codeHash: string, now: number): Promise<Taken<PendingCode>> {
    return Promise.resolve(take(this.#codes, codeHash, now, false));
  }

  takeCode(codeHash: string, now: number): Promise<Taken<PendingCode>> {
    return Promise.resolve(take(this.#codes, codeHash, now));
  }

  saveGrant(grant: Grant): Promise<void> {
    this.#grants.set(grant.id, grant);
    return Promise.resolve();
  }

  grant(grantId: string, now: number): Promise<Grant | undefined> {
    const grant = this.#grants.peek(grantId);
    return Promise.resolve(grant !== undefined && grant.expiresAt > now ? grant : undefined);
  }

  revokeGrant(grantId: string): Promise<void> {
    this.#grants.delete(grantId);
    for (const hash of this.#refreshTokensOfGrant.peek(grantId) ?? []) this.#refreshTokens.delete(hash);
    this.#refreshTokensOfGrant.delete(grantId);
    return Promise.resolve();
  }

  saveRefreshToken(tokenHash: string, grantId: string, expiresAt: number, replaces?: string): Promise<void> {
    const kept = replaces === undefined ? [] : [replaces];
    for (const hash of this.#refreshTokensOfGrant.peek(grantId) ?? []) if (hash !== replaces) this.#refreshTokens.delete(hash);
    this.#refreshTokensOfGrant.set(grantId, [...kept, tokenHash]);
    this.#refreshTokens.set(tokenHash, { value: grantId, grantId, used: false, expiresAt });
    return Promise.resolve();
  }

  takeRefreshToken(tokenHash: string, now: number): Promise<Taken<string>> {
    return Promise.resolve(take(this.#refreshTokens, tokenHash, now));
  }
}
