/**
 * The sign-ins on Postgres, shared by every replica and kept across restarts: clients, codes,
 * grants (the person's key in them only wrapped) and refresh tokens (by their SHA-256). A code or
 * refresh token is taken once under a row lock, so two replicas never both accept it. The
 * secrets every replica must share (the tokens' and the confirmations' keys) are made once here.
 */
import { randomBytes } from "node:crypto";
import type { AuthStore, Grant, OAuthClient, PendingCode, Taken } from "../auth/store";
import type { PostgresStore } from "./postgres";

/** The secret of this name, made at random by the first replica to ask and the same for all after. */
export async function sharedSecret(store: PostgresStore, name: string): Promise<Uint8Array> {
  const made = await store.query<{ value: Buffer }>("INSERT INTO mcp_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING value", [name, randomBytes(32)]);
  // Another replica made it first (perhaps at this very moment): a statement of its own sees it, where the insert's snapshot may not.
  const value = made[0]?.value ?? (await store.query<{ value: Buffer }>("SELECT value FROM mcp_secrets WHERE name = $1", [name]))[0]!.value;
  return new Uint8Array(value);
}

/** Takes a one-time secret's row: "fresh" the first time, "used" (with its grant) after, "unknown" when absent or expired. */
async function take<T>(store: PostgresStore, table: "mcp_oauth_codes" | "mcp_oauth_refresh_tokens", hash: string, now: number, value: (row: { record?: unknown; grant_id: string }) => T): Promise<Taken<T>> {
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
  constructor(private readonly store: PostgresStore) {}

  async saveClient(client: OAuthClient): Promise<void> {
    await this.store.query("INSERT INTO mcp_oauth_clients (client_id, record) VALUES ($1, $2) ON CONFLICT (client_id) DO UPDATE SET record = excluded.record, saved_at = now()", [client.clientId, client]);
  }

  async client(clientId: string): Promise<OAuthClient | undefined> {
    const rows = await this.store.query<{ record: OAuthClient }>("SELECT record FROM mcp_oauth_clients WHERE client_id = $1", [clientId]);
    return rows[0]?.record;
  }

  async saveCode(codeHash: string, code: PendingCode): Promise<void> {
    // Codes live a minute: the ones past their time go as new ones come (by the expiry index).
    await this.store.query("DELETE FROM mcp_oauth_codes WHERE expires_at < $1", [code.expiresAt - 3600]);
    await this.store.query("INSERT INTO mcp_oauth_codes (hash, grant_id, record, expires_at) VALUES ($1, $2, $3, $4)", [codeHash, code.grant.id, code, code.expiresAt]);
  }

  takeCode(codeHash: string, now: number): Promise<Taken<PendingCode>> {
    return take(this.store, "mcp_oauth_codes", codeHash, now, (row) => row.record as PendingCode);
  }

  async saveGrant(grant: Grant): Promise<void> {
    await this.store.query("DELETE FROM mcp_oauth_grants WHERE expires_at < $1", [grant.expiresAt - 60 * 24 * 3600]);
    await this.store.query("INSERT INTO mcp_oauth_grants (id, record, expires_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET record = excluded.record, expires_at = excluded.expires_at", [grant.id, grant, grant.expiresAt]);
  }

  async grant(grantId: string, now: number): Promise<Grant | undefined> {
    const rows = await this.store.query<{ record: Grant }>("SELECT record FROM mcp_oauth_grants WHERE id = $1 AND expires_at > $2", [grantId, now]);
    return rows[0]?.record;
  }

  async revokeGrant(grantId: string): Promise<void> {
    await this.store.transaction(async (client) => {
      await client.query("DELETE FROM mcp_oauth_grants WHERE id = $1", [grantId]);
      await client.query("DELETE FROM mcp_oauth_refresh_tokens WHERE grant_id = $1", [grantId]);
    });
  }

  async saveRefreshToken(tokenHash: string, grantId: string, expiresAt: number): Promise<void> {
    await this.store.query("DELETE FROM mcp_oauth_refresh_tokens WHERE expires_at < $1", [expiresAt - 60 * 24 * 3600]);
    await this.store.query("INSERT INTO mcp_oauth_refresh_tokens (hash, grant_id, expires_at) VALUES ($1, $2, $3)", [tokenHash, grantId, expiresAt]);
  }

  takeRefreshToken(tokenHash: string, now: number): Promise<Taken<string>> {
    return take(this.store, "mcp_oauth_refresh_tokens", tokenHash, now, (row) => row.grant_id);
  }
}
