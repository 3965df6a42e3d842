/**
 * The sign-ins on Postgres, shared by every replica and kept across restarts: clients, codes,
 * grants (the person's key in them only wrapped) and refresh tokens (by their SHA-256). A code or
 * refresh token is taken once under a row lock, so two replicas never both accept it. The
 * secrets every replica must share (the tokens' and the confirmations' keys) are made once here.
 *
 * A grant read by a replica is trusted there for a short while (each request to /mcp asks for its
 * grant), never past GRANT_TRUST_MS, and only while the replica listens for revocations: a grant
 * revoked on any replica is announced (NOTIFY) in the same transaction, and every replica forgets
 * it on the notice. While the listening connection is down, nothing is trusted (every request asks).
 */
import { randomBytes } from "node:crypto";
import { BoundedCache } from "../auth/bounded-cache";
import type { AuthStore, Grant, OAuthClient, PendingCode, Taken } from "../auth/store";
import { clientRow, clientSignedInRow, saveClientRow } from "./client-rows";
import type { Listening, PostgresStore } from "./postgres";

/** The longest a replica trusts a grant it read without asking again, should a revocation's notice not reach it (a connection silently dead). */
export const GRANT_TRUST_MS = 2_000;
/** The channel a revoked grant's id is announced on. */
const REVOKED_CHANNEL = "mcp_grant_revoked";
const MAX_TRUSTED = 10_000;

/** The secret of this name, made at random by the first replica to ask and the same for all after. */
export async function sharedSecret(store: PostgresStore, name: string): Promise<Uint8Array> {
  const made = await store.query<{ value: Buffer }>("INSERT INTO mcp_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING value", [
    name,
    randomBytes(32),
  ]);
  // Another replica made it first (perhaps at this very moment): a statement of its own sees it, where the insert's snapshot may not.
  const value = made[0]?.value ?? (await store.query<{ value: Buffer }>("SELECT value FROM mcp_secrets WHERE name = $1", [name]))[0]!.value;
  return new Uint8Array(value);
}

/** Takes a one-time secret's row: "fresh" the first time, "used" (with its grant) after, "unknown" when absent or expired. */
async function take<T>(
  store: PostgresStore,
  table: "mcp_oauth_codes" | "mcp_oauth_refresh_tokens",
  hash: string,
  now: number,
  value: (row: { record?: unknown; grant_id: string }) => T,
): Promise<Taken<T>> {
  const rows = await store.query<{ was_used: boolean; grant_id: string; record?: unknown }>(
    `WITH found AS (SELECT hash, used AS was_used FROM ${table} WHERE hash = $1 AND expires_at > $2 FOR UPDATE)
     UPDATE ${table} AS taken SET used = true FROM found WHERE taken.hash = found.hash RETURNING found.was_used, taken.*`,
    [hash, now],
  );
  const row = rows[0];
  if (row === undefined) return { state: "unknown" };
  return row.was_used ? { state: "used", grantId: row.grant_id } : { state: "fresh", value: value(row) };
}

export class PostgresAuthStore implements AuthStore {
  /** Grants read lately, by id, each trusted for `trustMs` after it was read. */
  readonly #trusted: BoundedCache<string, Grant>;
  #revocations: Listening | undefined;
  /** Counts the notices and the gaps: a read that saw it change while it ran is not trusted. */
  #noticesSeen = 0;

  constructor(
    private readonly store: PostgresStore,
    trustMs = GRANT_TRUST_MS,
  ) {
    this.#trusted = new BoundedCache({ max: MAX_TRUSTED, ttlMs: trustMs });
  }

  #listen(): Listening {
    this.#revocations ??= this.store.listen(REVOKED_CHANNEL, {
      notice: (grantId) => {
        this.#noticesSeen += 1;
        this.#trusted.delete(grantId);
      },
      gapped: () => {
        this.#noticesSeen += 1;
        this.#trusted.clear();
      },
    });
    return this.#revocations;
  }

  saveClient(client: OAuthClient): Promise<void> {
    return saveClientRow(this.store, client);
  }

  client(clientId: string): Promise<OAuthClient | undefined> {
    return clientRow(this.store, clientId);
  }

  clientSignedIn(clientId: string, now: number): Promise<void> {
    return clientSignedInRow(this.store, clientId, now);
  }

  async saveCode(codeHash: string, code: PendingCode): Promise<void> {
    // Codes live a minute: the ones past their time go as new ones come (by the expiry index).
    await this.store.query("DELETE FROM mcp_oauth_codes WHERE expires_at < $1", [code.expiresAt - 3600]);
    await this.store.query("INSERT INTO mcp_oauth_codes (hash, grant_id, record, expires_at) VALUES ($1, $2, $3, $4)", [
      codeHash,
      code.grant.id,
      code,
      code.expiresAt,
    ]);
  }

  async peekCode(codeHash: string, now: number): Promise<Taken<PendingCode>> {
    const rows = await this.store.query<{ used: boolean; grant_id: string; record: PendingCode }>(
      "SELECT used, grant_id, record FROM mcp_oauth_codes WHERE hash = $1 AND expires_at > $2",
      [codeHash, now],
    );
    const row = rows[0];
    if (row === undefined) return { state: "unknown" };
    return row.used ? { state: "used", grantId: row.grant_id } : { state: "fresh", value: row.record };
  }

  takeCode(codeHash: string, now: number): Promise<Taken<PendingCode>> {
    return take(this.store, "mcp_oauth_codes", codeHash, now, (row) => row.record as PendingCode);
  }

  async saveGrant(grant: Grant): Promise<void> {
    await this.store.query("DELETE FROM mcp_oauth_grants WHERE expires_at < $1", [grant.expiresAt - 60 * 24 * 3600]);
    await this.store.query(
      "INSERT INTO mcp_oauth_grants (id, record, expires_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET record = excluded.record, expires_at = excluded.expires_at",
      [grant.id, grant, grant.expiresAt],
    );
  }

  async grant(grantId: string, now: number): Promise<Grant | undefined> {
    const revocations = this.#listen();
    const trusted = this.#trusted.peek(grantId);
    if (trusted !== undefined && revocations.live) return trusted.expiresAt > now ? trusted : undefined;
    const noticesBefore = this.#noticesSeen;
    const listenedBefore = revocations.live;
    const rows = await this.store.query<{ record: Grant }>("SELECT record FROM mcp_oauth_grants WHERE id = $1 AND expires_at > $2", [grantId, now]);
    const grant = rows[0]?.record;
    if (grant === undefined) this.#trusted.delete(grantId);
    else if (listenedBefore && revocations.live && noticesBefore === this.#noticesSeen) {
      this.#trusted.set(grantId, grant);
    }
    return grant;
  }

  async revokeGrant(grantId: string): Promise<void> {
    this.#trusted.delete(grantId);
    await this.store.transaction(async (client) => {
      await client.query("DELETE FROM mcp_oauth_grants WHERE id = $1", [grantId]);
      await client.query("DELETE FROM mcp_oauth_refresh_tokens WHERE grant_id = $1", [grantId]);
      // Sent to every listening replica when this commits.
      await client.query("SELECT pg_notify($1, $2)", [REVOKED_CHANNEL, grantId]);
    });
    this.#trusted.delete(grantId);
  }

  async saveRefreshToken(tokenHash: string, grantId: string, expiresAt: number, replaces?: string): Promise<void> {
    await this.store.query("DELETE FROM mcp_oauth_refresh_tokens WHERE expires_at < $1", [expiresAt - 60 * 24 * 3600]);
    // The grant's tokens before the one this replaces (by the grant index).
    await this.store.query("DELETE FROM mcp_oauth_refresh_tokens WHERE grant_id = $1 AND hash IS DISTINCT FROM $2", [grantId, replaces ?? null]);
    await this.store.query("INSERT INTO mcp_oauth_refresh_tokens (hash, grant_id, expires_at) VALUES ($1, $2, $3)", [tokenHash, grantId, expiresAt]);
  }

  takeRefreshToken(tokenHash: string, now: number): Promise<Taken<string>> {
    return take(this.store, "mcp_oauth_refresh_tokens", tokenHash, now, (row) => row.grant_id);
  }
}
