/**
 * Where a click history is kept between runs: one plain JSON-able state, so that a file, n8n's
 * static data or Raycast's Cache each hold it with a few lines (`stateHolderStore`).
 */

/** A click history as stored. */
export interface ClickHistoryState {
  version: 1;
  /** The account (`accountId`); a history of another account is never loaded. */
  account: string;
  /** Since when (epoch seconds) samples have come without a pause longer than the gap, and the last one. */
  runningSince: number | null;
  lastSampleAt: number | null;
  /** Each link's checkpoints, by id, as `encodeLink` writes them. */
  links: Record<string, string>;
}

export interface ClickHistoryStore {
  /** The state last saved; undefined when none. May throw when what is kept cannot be read (the history then starts empty). */
  load(): Promise<unknown>;
  save(state: ClickHistoryState): Promise<void>;
}

/** Keeps the history for the life of the process (the default). */
export class MemoryClickHistoryStore implements ClickHistoryStore {
  #state: string | undefined;

  load(): Promise<unknown> {
    return Promise.resolve(this.#state === undefined ? undefined : (JSON.parse(this.#state) as unknown));
  }

  save(state: ClickHistoryState): Promise<void> {
    this.#state = JSON.stringify(state);
    return Promise.resolve();
  }
}

/**
 * A store over a place that holds one value: n8n's workflow static data
 * (`{ get: () => data.clickHistory, set: (state) => { data.clickHistory = state } }`) or Raycast's
 * Cache (`{ get: () => cache.get(key) && JSON.parse(cache.get(key)), set: (state) => cache.set(key, JSON.stringify(state)) }`).
 */
export function stateHolderStore(holder: { get(): unknown; set(state: ClickHistoryState): void }): ClickHistoryStore {
  return {
    load: () => Promise.resolve().then(() => holder.get()),
    save: (state) => Promise.resolve().then(() => holder.set(state)),
  };
}

/** Why `value` is not a stored click history (undefined: it is one). Each link's text is checked when it is read. */
export function stateProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return "it is not an object";
  const state = value as Partial<ClickHistoryState>;
  if (state.version !== 1) return "its version is not 1";
  if (typeof state.account !== "string") return "it names no account";
  const time = (entry: unknown) => entry === null || (typeof entry === "number" && Number.isFinite(entry));
  if (!time(state.runningSince) || !time(state.lastSampleAt)) return "its sampling times are not numbers";
  if (state.links === null || typeof state.links !== "object" || Array.isArray(state.links)) return "its links are not an object";
  return undefined;
}
