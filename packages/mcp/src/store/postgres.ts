/**
 * The shared store (`--store postgres://…`): one connection pool, the schema made and migrated by
 * the server itself, and every failure to reach it worded with the store's address without its
 * password. The pool opens connections as queries need them, so the server recovers by itself
 * when Postgres is back.
 */
import { Client, Pool, type PoolClient, type QueryResultRow } from "pg";
import { migrate } from "./schema";

import { StoreUnavailableError } from "../auth/store";
import { StoreConflictError } from "./store-conflict";

export { StoreConflictError, StoreUnavailableError };

/** The store's address as messages may show it: without the password (and any query, which may hold one). */
export function shownStoreUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const user = parsed.username === "" ? "" : `${decodeURIComponent(parsed.username)}@`;
    return `${parsed.protocol}//${user}${parsed.host}${parsed.pathname}`;
  } catch {
    return "the configured store";
  }
}

/** Why a query failed, as a short reason: a network code, or Postgres's own message (which never holds the password). */
function reasonOf(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === "string" && /^E[A-Z]+$/.test(code)) return code;
  return typeof message === "string" && message !== "" ? message.slice(0, 200) : "unknown error";
}

/** How long a lost listening connection waits before it connects again. */
const LISTEN_AGAIN_MS = 1_000;

/** What a listener is told: each notice's payload, and each time notices may have been missed (the connection lost, or made again). */
export interface NoticeHandlers {
  notice: (payload: string) => void;
  gapped: () => void;
}

/**
 * A connection of its own that LISTENs on one channel, made again when lost. `live` only while it
 * is connected and listening: a notice sent meanwhile reaches it.
 */
export class Listening {
  #live = false;
  #closed = false;
  #client: Client | undefined;
  #again: NodeJS.Timeout | undefined;

  constructor(
    private readonly connect: () => Client,
    private readonly channel: string,
    private readonly handlers: NoticeHandlers,
  ) {
    void this.#listen();
  }

  get live(): boolean {
    return this.#live;
  }

  async #listen(): Promise<void> {
    if (this.#closed) return;
    const client = this.connect();
    this.#client = client;
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      this.#live = false;
      this.handlers.gapped();
      void client.end().catch(() => undefined);
      if (!this.#closed) this.#again = setTimeout(() => void this.#listen(), LISTEN_AGAIN_MS).unref();
    };
    client.on("error", onLost);
    client.on("end", onLost);
    client.on("notification", (message) => {
      if (message.channel === this.channel) this.handlers.notice(message.payload ?? "");
    });
    try {
      await client.connect();
      await client.query(`LISTEN "${this.channel}"`);
    } catch {
      onLost();
      return;
    }
    if (lost || this.#closed) return;
    // Notices sent before this moment were missed.
    this.handlers.gapped();
    this.#live = true;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#live = false;
    clearTimeout(this.#again);
    await this.#client?.end().catch(() => undefined);
  }
}

export interface PostgresStoreOptions {
  /** How long a connection attempt may take. Default 5 s. */
  connectTimeoutMs?: number;
  /** Connections kept at most. Default 10. */
  maxConnections?: number;
}

export class PostgresStore {
  readonly shown: string;
  readonly #pool: Pool;
  readonly #url: string;
  readonly #connectTimeoutMs: number;
  readonly #listening: Listening[] = [];

  private constructor(url: string, options: PostgresStoreOptions) {
    this.shown = shownStoreUrl(url);
    this.#url = url;
    this.#connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
    this.#pool = new Pool({
      connectionString: url,
      connectionTimeoutMillis: this.#connectTimeoutMs,
      max: options.maxConnections ?? 10,
      idleTimeoutMillis: 30_000,
      // A query that Postgres does not answer (stopped mid-query) fails rather than hang a sign-in.
      query_timeout: 15_000,
      application_name: "linkshort-mcp",
    });
    // An idle connection Postgres closed (a restart) is dropped from the pool; the next query opens a new one.
    this.#pool.on("error", () => undefined);
  }

  /** Connects, makes or migrates the schema, and answers the store; a clear error naming the store when it cannot. */
  static async open(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const store = new PostgresStore(url, options);
    try {
      await store.transaction((client) => migrate(client));
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  #unavailable(error: unknown): StoreUnavailableError {
    return new StoreUnavailableError(`the store ${this.shown} cannot be used (${reasonOf(error)})`);
  }

  async query<Row extends QueryResultRow>(text: string, values: unknown[] = []): Promise<Row[]> {
    try {
      return (await this.#pool.query<Row>(text, values)).rows;
    } catch (error) {
      throw this.#unavailable(error);
    }
  }

  /** Runs `work` in one transaction, committed when it returns, rolled back when it throws. */
  async transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    let client: PoolClient;
    try {
      client = await this.#pool.connect();
    } catch (error) {
      throw this.#unavailable(error);
    }
    let broken = false;
    try {
      await client.query("BEGIN");
      const result = await work(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => (broken = true));
      throw error instanceof StoreUnavailableError || error instanceof StoreConflictError ? error : this.#unavailable(error);
    } finally {
      client.release(broken);
    }
  }

  /** Listens on `channel` (a fixed name of ours) on a connection of its own, until the store closes. */
  listen(channel: string, handlers: NoticeHandlers): Listening {
    const connect = () =>
      new Client({ connectionString: this.#url, connectionTimeoutMillis: this.#connectTimeoutMs, keepAlive: true, application_name: "linkshort-mcp listener" });
    const listening = new Listening(connect, channel, handlers);
    this.#listening.push(listening);
    return listening;
  }

  async close(): Promise<void> {
    await Promise.all(this.#listening.splice(0).map((listening) => listening.close()));
    await this.#pool.end().catch(() => undefined);
  }
}
