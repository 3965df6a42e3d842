/**
 * Each account's click history on Postgres, shared by the replicas: its sampling times and a
 * revision one row, each link's checkpoints (the text the client's history encodes) a row. Only
 * the replica holding the account's sweep lease writes (it samples: its reads for the index), and
 * only on top of the revision it loaded, both checked in the write's transaction: a write on top of
 * an older copy would drop what another replica saved since, so it is refused and the writer loads
 * again. A write sends only the links whose text changed since the revision it stands on.
 */
import type { ClickHistoryState, ClickHistoryStore } from "@linkshort/client";
import { holdsLease } from "./index-store";
import { StoreConflictError, type PostgresStore } from "./postgres";

/** A click history store replicas share: what it holds now, and whether another replica saved since this one loaded. */
export interface SharedClickHistoryStore extends ClickHistoryStore {
  load(): Promise<ClickHistoryState | undefined>;
  changedSinceLoad(): Promise<boolean>;
}

interface Times {
  runningSince: number | null;
  lastSampleAt: number | null;
}

const timeOrNull = (value: string | null) => (value === null ? null : Number(value));

export class PostgresClickHistoryStore implements SharedClickHistoryStore {
  readonly #store: PostgresStore;
  readonly #account: string;
  readonly #holder: string;
  /** Nothing loaded yet (or the last load failed): the store has moved on as far as this replica knows. */
  #loaded = false;
  /** The revision last loaded or written, and what it holds: a write sends what differs from it. */
  #revision = 0;
  #times: Times = { runningSince: null, lastSampleAt: null };
  #links = new Map<string, string>();

  /** `holder`: this replica's name on the account's sweep lease (`PostgresIndexStore.holder`). */
  constructor(store: PostgresStore, account: string, holder: string) {
    this.#store = store;
    this.#account = account;
    this.#holder = holder;
  }

  async load(): Promise<ClickHistoryState | undefined> {
    return this.#store.transaction(async (client) => {
      // The times and the links as of one moment.
      await client.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
      const head = await client.query<{ running_since: string | null; last_sample_at: string | null; revision: string }>(
        "SELECT running_since, last_sample_at, revision FROM mcp_click_histories WHERE account = $1",
        [this.#account],
      );
      const row = head.rows[0];
      const links =
        row === undefined
          ? []
          : (await client.query<{ id: string; checkpoints: string }>("SELECT id, checkpoints FROM mcp_click_links WHERE account = $1", [this.#account])).rows;
      this.#revision = row === undefined ? 0 : Number(row.revision);
      this.#times = { runningSince: timeOrNull(row?.running_since ?? null), lastSampleAt: timeOrNull(row?.last_sample_at ?? null) };
      this.#links = new Map(links.map((link) => [link.id, link.checkpoints]));
      this.#loaded = true;
      if (row === undefined) return undefined;
      return { version: 1, account: this.#account, ...this.#times, links: Object.fromEntries(this.#links) };
    });
  }

  async save(state: ClickHistoryState): Promise<void> {
    if (state.account !== this.#account) throw new Error("this click history is of another account than its store's");
    const upserted = Object.entries(state.links).filter(([id, text]) => this.#links.get(id) !== text);
    const deleted = [...this.#links.keys()].filter((id) => !(id in state.links));
    const times: Times = { runningSince: state.runningSince, lastSampleAt: state.lastSampleAt };
    const sameTimes = times.runningSince === this.#times.runningSince && times.lastSampleAt === this.#times.lastSampleAt;
    if (this.#loaded && this.#revision > 0 && sameTimes && upserted.length === 0 && deleted.length === 0) return;
    const revision = await this.#store.transaction(async (client) => {
      if (!(await holdsLease(client, this.#account, this.#holder)))
        throw new StoreConflictError("another replica holds this account's sweep: its samples are the click history's");
      const written = await client.query<{ revision: string }>(
        `INSERT INTO mcp_click_histories (account, running_since, last_sample_at) VALUES ($1, $2, $3)
         ON CONFLICT (account) DO UPDATE SET running_since = excluded.running_since, last_sample_at = excluded.last_sample_at, revision = mcp_click_histories.revision + 1
         WHERE mcp_click_histories.revision = $4 RETURNING revision`,
        [this.#account, times.runningSince, times.lastSampleAt, this.#revision],
      );
      if (written.rowCount === 0) {
        throw new StoreConflictError("another replica saved the click history since this one loaded it");
      }
      if (upserted.length > 0) {
        await client.query(
          `INSERT INTO mcp_click_links (account, id, checkpoints) SELECT $1, key::bigint, value FROM jsonb_each_text($2::jsonb)
           ON CONFLICT (account, id) DO UPDATE SET checkpoints = excluded.checkpoints`,
          [this.#account, JSON.stringify(Object.fromEntries(upserted))],
        );
      }
      if (deleted.length > 0) await client.query("DELETE FROM mcp_click_links WHERE account = $1 AND id = ANY($2::bigint[])", [this.#account, deleted]);
      return Number(written.rows[0]!.revision);
    });
    this.#revision = revision;
    this.#times = times;
    for (const [id, text] of upserted) this.#links.set(id, text);
    for (const id of deleted) this.#links.delete(id);
  }

  async changedSinceLoad(): Promise<boolean> {
    const rows = await this.#store.query<{ revision: string }>("SELECT revision FROM mcp_click_histories WHERE account = $1", [this.#account]);
    return !this.#loaded || Number(rows[0]?.revision ?? 0) !== this.#revision;
  }
}
