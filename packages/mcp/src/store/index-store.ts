/**
 * Each account's link index on Postgres, shared by the replicas: its links one row each, its meta
 * (the frontier, the sweep under way) one row with a revision that every save moves on. One
 * replica at a time holds the account's sweep lease (a row with an expiry, renewed while it reads,
 * free to take once its holder stops renewing it, as a killed replica does); only the holder reads
 * the service for the index and writes the meta, checked in the same transaction (a holder that
 * lost its lease writes nothing of the sweep). The others write only the links their own tool
 * calls changed, and load the index again when its revision has moved.
 */
import { randomUUID } from "node:crypto";
import type { PoolClient } from "pg";
import type { IndexChanges, IndexMeta, LinkIndexStore, StoredIndex, StoredLink } from "@linkshort/client";
import { StoreConflictError, type PostgresStore } from "./postgres";

/**
 * A store that replicas share (`--store postgres://…`): one replica at a time holds an account's
 * sweep lease and reads the service for the index; the others load what it saved.
 */
export interface SharedIndexStore extends LinkIndexStore {
  readonly leaseMs: number;
  /** Takes or renews this replica's lease on the account's sweep; false while another holds it. */
  takeLease(): Promise<boolean>;
  releaseLease(): Promise<void>;
  /** Whether the store holds what this replica has not loaded (with `linksOnly`, of the links: the meta alone is what a reader needs only before it reads). */
  changedSinceLoad(linksOnly?: boolean): Promise<boolean>;
}

/** How long a lease lasts unless renewed: a replica killed mid-sweep is replaced within this and a retry. */
export const DEFAULT_LEASE_MS = 30_000;

/** Whether `holder` holds the account's sweep lease, checked inside the transaction of a write that needs it (and kept until it ends). */
export async function holdsLease(client: PoolClient, account: string, holder: string): Promise<boolean> {
  const held = await client.query("SELECT 1 FROM mcp_sweep_leases WHERE account = $1 AND holder = $2 AND expires_at > clock_timestamp() FOR SHARE", [
    account,
    holder,
  ]);
  return held.rowCount !== 0;
}

export class PostgresIndexStore implements SharedIndexStore {
  readonly leaseMs: number;
  readonly #store: PostgresStore;
  readonly #account: string;
  /** This replica's name on the account's lease (the click history's writes check it too). */
  readonly holder = randomUUID();
  #holding = false;
  /** The revision last loaded (or written on top of it by this replica alone). */
  #revision = 0;
  /** The same for the links alone (a save of the meta only, e.g. a quiet sync's time, does not move it). */
  #linksRevision = 0;

  constructor(store: PostgresStore, account: string, leaseMs = DEFAULT_LEASE_MS) {
    this.#store = store;
    this.#account = account;
    this.leaseMs = leaseMs;
  }

  async load(): Promise<StoredIndex | undefined> {
    return this.#store.transaction(async (client) => {
      // One snapshot (the index checks what it loads, and starts empty from a damaged one): the meta and the links as of the same moment.
      await client.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
      const meta = await client.query<{ meta: IndexMeta; revision: string; links_revision: string }>(
        "SELECT meta, revision, links_revision FROM mcp_link_indexes WHERE account = $1",
        [this.#account],
      );
      const row = meta.rows[0];
      if (row === undefined) {
        this.#revision = 0;
        this.#linksRevision = 0;
        return undefined;
      }
      const links = await client.query<{ link: StoredLink }>("SELECT link FROM mcp_indexed_links WHERE account = $1", [this.#account]);
      this.#revision = Number(row.revision);
      this.#linksRevision = Number(row.links_revision);
      return { meta: row.meta, links: links.rows.map((entry) => entry.link) };
    });
  }

  async save(changes: IndexChanges): Promise<void> {
    const writesMeta = this.#holding;
    const written = await this.#store.transaction(async (client) => {
      if (writesMeta) {
        if (!(await holdsLease(client, this.#account, this.holder))) {
          this.#holding = false;
          throw new StoreConflictError("another replica took over this account's sweep");
        }
      }
      if (changes.reset) await client.query("DELETE FROM mcp_indexed_links WHERE account = $1", [this.#account]);
      const upserted: StoredLink[] = changes.reset ? changes.all() : changes.upserted;
      if (upserted.length > 0) {
        await client.query(
          `INSERT INTO mcp_indexed_links (account, id, link) SELECT $1, (link->>'id')::bigint, link FROM jsonb_array_elements($2::jsonb) AS link
           ON CONFLICT (account, id) DO UPDATE SET link = excluded.link`,
          [this.#account, JSON.stringify(upserted)],
        );
      }
      if (!changes.reset && changes.deleted.length > 0)
        await client.query("DELETE FROM mcp_indexed_links WHERE account = $1 AND id = ANY($2::bigint[])", [this.#account, changes.deleted]);
      const linksMoved = changes.reset === true || upserted.length > 0 || changes.deleted.length > 0 ? 1 : 0;
      const revision = await client.query<{ revision: string; links_revision: string }>(
        `INSERT INTO mcp_link_indexes (account, meta) VALUES ($1, $2) ON CONFLICT (account) DO UPDATE SET
           ${writesMeta ? "meta = excluded.meta," : ""} revision = mcp_link_indexes.revision + 1, links_revision = mcp_link_indexes.links_revision + $3
         RETURNING revision, links_revision`,
        [this.#account, changes.meta, linksMoved],
      );
      return { revision: Number(revision.rows[0]!.revision), links: Number(revision.rows[0]!.links_revision), linksMoved };
    });
    // On top of what this replica had: still current. Otherwise another wrote between, and the next check loads again.
    if (written.revision === this.#revision + 1) this.#revision = written.revision;
    if (written.links === this.#linksRevision + written.linksMoved) this.#linksRevision = written.links;
  }

  /** Takes the account's sweep lease, or renews it; false while another replica holds it. */
  async takeLease(): Promise<boolean> {
    const rows = await this.#store.query<{ holder: string }>(
      `INSERT INTO mcp_sweep_leases (account, holder, expires_at) VALUES ($1, $2, clock_timestamp() + $3 * interval '1 millisecond')
       ON CONFLICT (account) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
       WHERE mcp_sweep_leases.holder = excluded.holder OR mcp_sweep_leases.expires_at <= clock_timestamp() RETURNING holder`,
      [this.#account, this.holder, this.leaseMs],
    );
    this.#holding = rows.length === 1;
    return this.#holding;
  }

  async releaseLease(): Promise<void> {
    if (!this.#holding) return;
    this.#holding = false;
    await this.#store.query("DELETE FROM mcp_sweep_leases WHERE account = $1 AND holder = $2", [this.#account, this.holder]);
  }

  async changedSinceLoad(linksOnly = false): Promise<boolean> {
    const rows = await this.#store.query<{ revision: string; links_revision: string }>(
      "SELECT revision, links_revision FROM mcp_link_indexes WHERE account = $1",
      [this.#account],
    );
    if (linksOnly) return Number(rows[0]?.links_revision ?? 0) !== this.#linksRevision;
    return Number(rows[0]?.revision ?? 0) !== this.#revision;
  }
}
