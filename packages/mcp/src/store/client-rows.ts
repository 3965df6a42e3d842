/**
 * Registered clients on Postgres (`mcp_oauth_clients`), bounded as the memory store bounds them
 * (`auth/client-pool.ts`): a registration nobody signed in with is kept a day at most
 * (NEVER_USED_SECONDS), at most MAX_NEVER_USED_PER_ADDRESS of them from one address and
 * MAX_NEVER_USED in all (the oldest go first); a client that signed someone in is kept until no
 * grant it made can still be alive, and is never pushed out by registrations.
 */
import { MAX_NEVER_USED, MAX_NEVER_USED_PER_ADDRESS } from "../auth/client-pool";
import type { OAuthClient } from "../auth/store";
import { GRANT_SECONDS } from "../auth/tokens";
import type { PostgresStore } from "./postgres";

export const NEVER_USED_SECONDS = 24 * 60 * 60;
/** A used client is let go this long after its last sign-in: every grant it made has ended by then. */
const USED_SECONDS = GRANT_SECONDS + 24 * 60 * 60;

export async function saveClientRow(store: PostgresStore, client: OAuthClient): Promise<void> {
  const address = client.registeredFrom ?? "";
  await store.query(`DELETE FROM mcp_oauth_clients WHERE used_at IS NULL AND saved_at < now() - make_interval(secs => $1)`, [NEVER_USED_SECONDS]);
  await store.query(
    `INSERT INTO mcp_oauth_clients (client_id, record, registered_from, used_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (client_id) DO UPDATE SET record = excluded.record, registered_from = excluded.registered_from, used_at = excluded.used_at, saved_at = now()`,
    [client.clientId, client, address, client.usedAt ?? null],
  );
  if (client.usedAt !== undefined) return;
  // The address's own oldest go first, then the oldest of all; used clients are never among them.
  await store.query(
    `DELETE FROM mcp_oauth_clients WHERE client_id IN
       (SELECT client_id FROM mcp_oauth_clients WHERE used_at IS NULL AND registered_from = $1 ORDER BY saved_at DESC, client_id DESC OFFSET $2)`,
    [address, MAX_NEVER_USED_PER_ADDRESS],
  );
  await store.query(
    `DELETE FROM mcp_oauth_clients WHERE client_id IN
       (SELECT client_id FROM mcp_oauth_clients WHERE used_at IS NULL ORDER BY saved_at DESC, client_id DESC OFFSET $1)`,
    [MAX_NEVER_USED],
  );
}

export async function clientRow(store: PostgresStore, clientId: string): Promise<OAuthClient | undefined> {
  const rows = await store.query<{ record: OAuthClient }>(
    "SELECT record FROM mcp_oauth_clients WHERE client_id = $1 AND (used_at IS NOT NULL OR saved_at >= now() - make_interval(secs => $2))",
    [clientId, NEVER_USED_SECONDS],
  );
  return rows[0]?.record;
}

export async function clientSignedInRow(store: PostgresStore, clientId: string, now: number): Promise<void> {
  await store.query("UPDATE mcp_oauth_clients SET used_at = $2 WHERE client_id = $1", [clientId, now]);
  await store.query("DELETE FROM mcp_oauth_clients WHERE used_at < $1", [now - USED_SECONDS]);
}
