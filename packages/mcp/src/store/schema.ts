/**
 * The store's schema, made and migrated by the server itself: each version's statements run once,
 * in order, in one transaction under an advisory lock (replicas starting together migrate once).
 * A store newer than this server is refused rather than written with an older idea of it.
 * Tables are named `mcp_*`.
 */
import type { PoolClient } from "pg";

/** The advisory lock the migration holds (any fixed number; this one spells "lsmc"). */
const MIGRATION_LOCK = 0x6c736d63;

export const MIGRATIONS: readonly string[] = [
  // 1: the sign-ins, each account's link index, the sweep's lease and the rate budget of a key.
  `CREATE TABLE mcp_secrets (name text PRIMARY KEY, value bytea NOT NULL, made_at timestamptz NOT NULL DEFAULT now());
   CREATE TABLE mcp_oauth_clients (client_id text PRIMARY KEY, record jsonb NOT NULL, saved_at timestamptz NOT NULL DEFAULT now());
   CREATE TABLE mcp_oauth_grants (id text PRIMARY KEY, record jsonb NOT NULL, expires_at bigint NOT NULL);
   CREATE TABLE mcp_oauth_codes (hash text PRIMARY KEY, grant_id text NOT NULL, record jsonb NOT NULL, used boolean NOT NULL DEFAULT false, expires_at bigint NOT NULL);
   CREATE TABLE mcp_oauth_refresh_tokens (hash text PRIMARY KEY, grant_id text NOT NULL, used boolean NOT NULL DEFAULT false, expires_at bigint NOT NULL);
   CREATE INDEX mcp_oauth_grants_expiry ON mcp_oauth_grants (expires_at);
   CREATE INDEX mcp_oauth_codes_expiry ON mcp_oauth_codes (expires_at);
   CREATE INDEX mcp_oauth_refresh_tokens_expiry ON mcp_oauth_refresh_tokens (expires_at);
   CREATE INDEX mcp_oauth_refresh_tokens_grant ON mcp_oauth_refresh_tokens (grant_id);
   CREATE TABLE mcp_link_indexes (account text PRIMARY KEY, meta jsonb NOT NULL, revision bigint NOT NULL DEFAULT 1, links_revision bigint NOT NULL DEFAULT 1);
   CREATE TABLE mcp_indexed_links (account text NOT NULL, id bigint NOT NULL, link jsonb NOT NULL, PRIMARY KEY (account, id));
   CREATE TABLE mcp_sweep_leases (account text PRIMARY KEY, holder text NOT NULL, expires_at timestamptz NOT NULL);
   CREATE TABLE mcp_rate_windows (account text NOT NULL, resets_at bigint NOT NULL, used integer NOT NULL, window_limit integer NOT NULL DEFAULT 0, PRIMARY KEY (account, resets_at));`,
  // 2: each account's click history: its sampling times and revision one row, each link's checkpoints (as the client encodes them) a row.
  `CREATE TABLE mcp_click_histories (account text PRIMARY KEY, running_since bigint, last_sample_at bigint, revision bigint NOT NULL DEFAULT 1);
   CREATE TABLE mcp_click_links (account text NOT NULL, id bigint NOT NULL, checkpoints text NOT NULL, PRIMARY KEY (account, id));`,
  // 3: registered clients bounded (store/client-rows.ts): the address each came from, and when it last signed someone in (those with a grant count as used).
  `ALTER TABLE mcp_oauth_clients ADD COLUMN registered_from text NOT NULL DEFAULT '', ADD COLUMN used_at bigint;
   UPDATE mcp_oauth_clients AS client SET used_at = extract(epoch FROM client.saved_at)::bigint
     WHERE EXISTS (SELECT 1 FROM mcp_oauth_grants AS grants WHERE grants.record->>'clientId' = client.client_id);
   CREATE INDEX mcp_oauth_clients_never_used ON mcp_oauth_clients (saved_at) WHERE used_at IS NULL;
   CREATE INDEX mcp_oauth_clients_never_used_from ON mcp_oauth_clients (registered_from, saved_at) WHERE used_at IS NULL;
   CREATE INDEX mcp_oauth_clients_used ON mcp_oauth_clients (used_at) WHERE used_at IS NOT NULL;`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Brings the schema to SCHEMA_VERSION inside the caller's transaction. */
export async function migrate(client: PoolClient): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
  await client.query("CREATE TABLE IF NOT EXISTS mcp_schema_version (version integer NOT NULL)");
  const { rows } = await client.query<{ version: number }>("SELECT version FROM mcp_schema_version");
  const current = rows[0]?.version ?? 0;
  if (current > SCHEMA_VERSION) {
    throw new Error(`its schema is version ${current}, newer than this server's ${SCHEMA_VERSION}: run the newer server, or a store of its own`);
  }
  for (let version = current + 1; version <= SCHEMA_VERSION; version += 1) await client.query(MIGRATIONS[version - 1]!);
  if (rows.length === 0) await client.query("INSERT INTO mcp_schema_version (version) VALUES ($1)", [SCHEMA_VERSION]);
  else if (current !== SCHEMA_VERSION) await client.query("UPDATE mcp_schema_version SET version = $1", [SCHEMA_VERSION]);
}
