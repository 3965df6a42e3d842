/**
 * A key's rate budget shared by the replicas: each request takes a slot of the server's current
 * window (named by its reset, which every replica reads alike from `X-RateLimit-Reset`) in
 * Postgres before it leaves, so replicas together send no more than the window allows; a window
 * spent elsewhere holds this replica's requests until its reset. When no replica knows the window
 * (after a reset), one request of them all goes to learn it, as the client's probe does within a
 * process, and opens the shared count (at start, each replica's first request may be such a probe). Pacing within a replica stays the client's own limiter. A store that
 * cannot be reached leaves the client's pacing alone (the server's limit answers still hold every
 * replica back).
 *
 * A replica takes its slots of a known window a few at a time (`batchOf`: at most a fiftieth of the
 * window, so one for a small limit) and spends them without asking the store again; what it has
 * not spent after RETURN_AFTER_MS without a request goes back to the shared count. The count in
 * the store holds every slot handed out, spent or not: the replicas together never pass the limit.
 *
 * A slot is worth its window only while a request can still reach the server in it: one the store
 * handed out too near the window's end (a loaded machine answers late) is left unused, and the request
 * waits for the next window (else it would count there, where no replica counted it). A request that
 * reached the server in the next window all the same is counted there by the first answer of that
 * window each replica reads: it brings the store's count up to the server's.
 */
import { AbortedError, RateLimiter, type RateLimitHeadroom } from "@linkshort/client";
import type { PostgresStore } from "./postgres";

type Clock = Parameters<RateLimiter["acquire"]>[0];
type AcquireWait = Parameters<RateLimiter["acquire"]>[1];
type Answer = Parameters<RateLimiter["observe"]>[0];

/** How long a replica waits before looking again while another replica's request learns the window. */
const PROBE_WAIT_MS = 100;
/** How long one replica's request may hold the others while it learns the window (its answer opens the count sooner). */
const PROBE_SECONDS = 10;
/** Added after a reset before requests leave again, for clock granularity (as the client's limiter does). */
const RESET_MARGIN_MS = 20;
/** The most slots a replica takes of a window at once, and the share of the window a batch may be at most. */
const MAX_BATCH = 20;
const BATCH_SHARE = 50;
/** A slot of a window that ends sooner than this is not used: the request could reach the server in the next one. */
const LAST_SLOT_MS = 250;
/** Slots taken and not spent for this long go back to the window (so another replica may use them). */
export const RETURN_AFTER_MS = 1_000;

/** How many slots a replica takes at once of a window of `limit`. */
export const batchOf = (limit: number) => Math.max(1, Math.min(MAX_BATCH, Math.floor(limit / BATCH_SHARE)));

/** Whether a slot of the window that ends at `resetAt` (epoch ms) comes too late to be used at `now`. */
const tooLate = (resetAt: number, now: number) => resetAt - now < LAST_SLOT_MS;

/**
 * Part of the statement that counts a learned window ($1 the account, $2 its reset in seconds): the
 * probe row holds every replica's next learner until that window ends (no longer, as the learner's
 * claim did). In the same statement as the window's row, so that no replica finds neither (it would
 * learn the window a second time).
 */
const LEARNED = `INSERT INTO mcp_rate_windows (account, resets_at, used) VALUES ($1, -1, $2::bigint)
  ON CONFLICT (account, resets_at) DO UPDATE SET used = excluded.used`;

/** How many requests of the window that ends at `resetAt` the server had counted when it answered (0 if the answer names another). */
function serverCount(response: Answer, resetAt: number, now: number): number {
  // The answer read alone, apart from this replica's requests in flight (its own limiter's estimate subtracts them).
  const alone = new RateLimiter();
  alone.observe(response, now);
  const word = alone.headroom(now);
  return word?.resetAt === resetAt ? word.limit - word.remaining : 0;
}

export class SharedRateBudget extends RateLimiter {
  #clearedAt = 0;
  readonly #local = new RateLimiter();
  /** Requests this replica sent to learn the window (no replica knew it): counted once their answer names it. */
  #uncounted = 0;
  /** Slots this replica took of the window that resets at `resetsAt` (seconds) and has not spent yet. */
  #held = { resetsAt: 0, slots: 0 };
  #lastSpent = 0;
  #giveBack: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: PostgresStore,
    private readonly account: string,
  ) {
    super();
  }

  /** A request leaves at once when this replica holds a slot of the window it knows and its own pacing allows it. */
  override tryAcquire(now: number): boolean {
    const window = this.#local.headroom(now);
    if (window?.resetAt === undefined || !this.#holds(window.resetAt, now) || !this.#local.tryAcquire(now)) return false;
    this.#spend();
    return true;
  }

  #holds(resetAt: number, now: number): boolean {
    return this.#held.slots > 0 && this.#held.resetsAt === Math.round(resetAt / 1000) && !tooLate(resetAt, now);
  }

  #spend(): void {
    this.#held.slots -= 1;
    this.#lastSpent = Date.now();
  }

  override async acquire(clock: Clock, wait: AcquireWait): Promise<number> {
    let waited = await this.#local.acquire(clock, wait);
    try {
      for (;;) {
        const now = clock.now();
        const window = this.#local.headroom(now);
        if (window?.resetAt !== undefined && this.#holds(window.resetAt, now)) {
          this.#spend();
          return waited;
        }
        // Nothing known here yet (the client's probe): a slot of the window another replica knows, or the request that learns it.
        if (window === undefined && this.#local.sendsNoWindows()) return waited;
        const slot = await this.#takeSlot(window?.limit, window?.resetAt, now);
        if (slot === "unpaced" || slot === "learns") return waited;
        const until = slot === "wait" ? undefined : "until" in slot ? slot.until : slot.taken * 1000;
        if (slot !== "wait" && "taken" in slot && !tooLate(until!, clock.now())) return waited;
        // The replicas spent the window, or the store handed out its slot too late: wait for its reset. Or another replica's request learns the window: wait for its answer.
        const pause = until === undefined ? PROBE_WAIT_MS : Math.max(PROBE_WAIT_MS, until - now + RESET_MARGIN_MS);
        if (waited + pause > wait.maxWaitMs) throw wait.tooLong(pause);
        await clock.sleep(pause, wait.signal);
        if (wait.signal?.aborted) throw new AbortedError();
        waited += pause;
      }
    } catch (error) {
      this.#local.release();
      throw error;
    }
  }

  /**
   * A slot of the window that ends at `resetAt` (or of the newest window a replica knows, when this
   * one's ended), named by its reset in seconds: when the replicas have used all `limit` of it, until
   * when. When no replica knows the current window, one request of all replicas goes to learn it
   * ("learns"); the others "wait". A store that cannot be reached: "unpaced".
   */
  async #takeSlot(
    limit: number | undefined,
    resetAt: number | undefined,
    now: number,
  ): Promise<{ taken: number } | "learns" | "wait" | { until: number } | "unpaced"> {
    const seconds = Math.floor(now / 1000);
    const reset = resetAt === undefined ? null : Math.round(resetAt / 1000);
    try {
      // The common case in one statement: a batch of slots of the window this replica knows, as many as it still has.
      if (reset !== null && limit !== undefined) {
        const taken = await this.store.query<{ slots: number }>(
          `UPDATE mcp_rate_windows AS counted SET used = counted.used + free.slots
           FROM (SELECT LEAST($3::integer, window_limit - used) AS slots FROM mcp_rate_windows WHERE account = $1 AND resets_at = $2 AND used < window_limit FOR UPDATE) AS free
           WHERE counted.account = $1 AND counted.resets_at = $2 RETURNING free.slots`,
          [this.account, reset, batchOf(limit)],
        );
        if (taken.length === 1) {
          this.#hold(reset, taken[0]!.slots - 1);
          return { taken: reset };
        }
      }
      const current = await this.store.query<{ resets_at: string; used: number }>(
        "SELECT resets_at, used FROM mcp_rate_windows WHERE account = $1 AND resets_at > $2 AND ($3::bigint IS NULL OR resets_at = $3) ORDER BY resets_at DESC LIMIT 1",
        [this.account, seconds, reset],
      );
      const known = current[0];
      if (known !== undefined) {
        const taken =
          reset !== null
            ? []
            : await this.store.query(
                "UPDATE mcp_rate_windows SET used = used + 1 WHERE account = $1 AND resets_at = $2 AND used < window_limit RETURNING used",
                [this.account, known.resets_at],
              );
        return taken.length === 1 ? { taken: Number(known.resets_at) } : { until: Number(known.resets_at) * 1000 };
      }
      if (reset !== null && limit !== undefined) {
        // This replica learned the window first: it opens the shared count with this request (no replica learns it again).
        const opened = await this.store.query(
          `WITH learned AS (${LEARNED})
           INSERT INTO mcp_rate_windows (account, resets_at, used, window_limit) VALUES ($1, $2, 1, $3)
           ON CONFLICT (account, resets_at) DO UPDATE SET used = mcp_rate_windows.used + 1 WHERE mcp_rate_windows.used < mcp_rate_windows.window_limit RETURNING used`,
          [this.account, reset, limit],
        );
        await this.#clearExpired(seconds);
        return opened.length === 1 ? { taken: reset } : { until: reset * 1000 };
      }
      // No replica knows the window now: one request of them all goes to learn it (the row of reset -1 holds until when).
      const probe = await this.store.query(
        `INSERT INTO mcp_rate_windows (account, resets_at, used) VALUES ($1, -1, $2)
         ON CONFLICT (account, resets_at) DO UPDATE SET used = excluded.used WHERE mcp_rate_windows.used <= $3 RETURNING used`,
        [this.account, seconds + PROBE_SECONDS, seconds],
      );
      if (probe.length === 0) return "wait";
      this.#uncounted += 1;
      return "learns";
    } catch {
      // The store cannot be reached: the client's own pacing (and the server's limit answers) hold.
      return "unpaced";
    }
  }

  /** Keeps `slots` of the window that resets at `resetsAt` for this replica's next requests; what is left of another window is the server's again. */
  #hold(resetsAt: number, slots: number): void {
    if (this.#held.resetsAt !== resetsAt) this.#held = { resetsAt, slots: 0 };
    this.#held.slots += slots;
    this.#lastSpent = Date.now();
    if (this.#held.slots > 0 && this.#giveBack === undefined) this.#giveBackWhenIdle();
  }

  #giveBackWhenIdle(): void {
    // Unref'd: slots held never keep a process alive.
    this.#giveBack = setTimeout(() => {
      this.#giveBack = undefined;
      const now = Date.now();
      const held = this.#held;
      if (held.slots === 0 || held.resetsAt * 1000 <= now) return;
      if (now - this.#lastSpent < RETURN_AFTER_MS) return this.#giveBackWhenIdle();
      const slots = held.slots;
      held.slots = 0;
      void this.store
        .query("UPDATE mcp_rate_windows SET used = GREATEST(0, used - $3) WHERE account = $1 AND resets_at = $2", [this.account, held.resetsAt, slots])
        .catch(() => undefined);
    }, RETURN_AFTER_MS).unref();
  }

  override observe(response: Answer, now: number): void {
    const before = this.#local.headroom(now)?.resetAt;
    this.#local.observe(response, now);
    const window = this.#local.headroom(now);
    // No rate headers, or a learner's answer read after the window it names had ended (it counted there): another request may learn the window.
    if (this.#local.sendsNoWindows() || (window?.resetAt === undefined && this.#uncounted > 0)) {
      this.#uncounted = 0;
      void this.store.query("DELETE FROM mcp_rate_windows WHERE account = $1 AND resets_at = -1", [this.account]).catch(() => undefined);
    }
    if (window?.resetAt === undefined || window.resetAt === before) return;
    // This replica's first answer of the window: the requests that learned it count in it, and so do those the
    // server counted there that took a slot of the window before (the count is at least the server's); no
    // replica learns it again (nor waits any longer for one to).
    const learners = this.#uncounted;
    this.#uncounted = 0;
    void this.store
      .query(
        `WITH learned AS (${LEARNED})
         INSERT INTO mcp_rate_windows (account, resets_at, used, window_limit) VALUES ($1, $2, GREATEST($4::integer, $5::integer), $3)
         ON CONFLICT (account, resets_at) DO UPDATE SET used = GREATEST(mcp_rate_windows.used + $4, $5)`,
        [this.account, Math.round(window.resetAt / 1000), window.limit, learners, serverCount(response, window.resetAt, now)],
      )
      .then(() => this.#clearExpired(Math.floor(now / 1000)))
      .catch(() => undefined);
  }

  /**
   * Windows an hour past, of every account (those no replica serves any longer too), and probes long
   * over: done as a window opens, at most once a minute for an account on a replica. Rows another
   * transaction holds are left for the next time, never waited for (no deadlock with a window being
   * counted), and a cleanup that fails is no failure of the request.
   */
  async #clearExpired(seconds: number): Promise<void> {
    if (seconds - this.#clearedAt < 60) return;
    this.#clearedAt = seconds;
    await this.store
      .query(
        "DELETE FROM mcp_rate_windows WHERE ctid IN (SELECT ctid FROM mcp_rate_windows WHERE resets_at BETWEEN 0 AND $1 OR (resets_at = -1 AND used < $1) FOR UPDATE SKIP LOCKED)",
        [seconds - 3600],
      )
      .catch(() => undefined);
  }

  override blockUntil(until: number): void {
    this.#local.blockUntil(until);
  }

  override release(): void {
    this.#local.release();
  }

  override headroom(now: number): RateLimitHeadroom | undefined {
    return this.#local.headroom(now);
  }

  override sendsNoWindows(): boolean {
    return this.#local.sendsNoWindows();
  }

  override isIdle(now: number): boolean {
    return this.#local.isIdle(now);
  }
}
