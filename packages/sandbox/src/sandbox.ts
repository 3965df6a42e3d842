import type { DateTieOrder } from "./date-ties";
import type { FaultInjector, FaultRule } from "./faults/fault-injector";
import type { LoggedRequest } from "./request-log";
import type { OversizedPages } from "./oversized-pages";
import type { Store } from "./persistence/store";
import type { SeedOption } from "./seed/seed";
import type { Mode } from "./routes/answers";

/** What `startSandbox` takes and what it gives. */

export interface SandboxOptions {
  /** 0 picks a free port. Default 0. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** "deployed" (default) answers as real servers do; "document" as docs/api.md describes. */
  mode?: Mode;
  /** Requests per window and key (default 30 per 60 s). */
  rateLimit?: { limit?: number; windowMs?: number };
  /** Keep state in this JSON file across restarts; in memory when absent. */
  dataFile?: string;
  /**
   * What a new store starts with (default "demo"). `{ links: 100000 }` gives the demo user that
   * many generated links (dated newest first, with titles and descriptions) on top of `base`
   * (default "minimal"): an account of any size in about a second.
   */
  seed?: SeedOption;
  /** Fixed API keys for the seeded admin and user (random when absent). */
  keys?: { admin?: string; user?: string };
  /** Faults injected from the start. */
  faults?: FaultRule[];
  /** How links of the same second are listed by date: "by-id" (default) or "unstable", as MySQL does (`date-ties.ts`). */
  dateTies?: DateTieOrder;
  /** Seed of the fault dice, for repeatable runs. */
  faultSeed?: number;
  /** The clock (epoch ms); injectable for tests. */
  now?: () => number;
  /** The public address used in short URLs (default the listening address). */
  publicUrl?: string;
  /** Largest request body accepted, in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** Serve `/__sandbox/*` control routes (fault injection, mode) over HTTP, to the admin key and JSON only. Default true. */
  control?: boolean;
  /**
   * The largest page a list gives, whatever `limit` asks (its `perpage` then says this size). No
   * maximum by default: deployed servers document none. Set it to test clients against servers
   * that cap their pages.
   */
  maxPageSize?: number;
  /**
   * What a list answers a `limit` above `maxPageSize` (see `oversized-pages.ts`): "cap" (default)
   * a page of that size that says so in `perpage`; "refuse" the deployed servers' error envelope;
   * "echo" a page of that size whose `perpage` repeats the `limit` asked.
   */
  oversizedPages?: OversizedPages;
  /** Bounds of `sandbox.requests`: the newest `maxEntries` (default 50,000) of the last `maxAgeMs` (default 1 hour). */
  requestLog?: { maxEntries?: number; maxAgeMs?: number };
}

export interface Sandbox {
  baseUrl: string;
  adminKey: string;
  userKey: string;
  store: Store;
  faults: FaultInjector;
  mode: Mode;
  /** The largest page a list gives; undefined for no maximum. May be changed while it runs. */
  maxPageSize: number | undefined;
  /** What a list answers a `limit` above `maxPageSize`; may be changed while it runs. */
  oversizedPages: OversizedPages;
  /** How links of the same second are listed by date; may be changed at any time. */
  dateTies: DateTieOrder;
  /**
   * The API requests served, in order (method, path and query, each cut at 512 characters), for
   * request-count assertions: the newest 50,000 of the last hour unless `requestLog` says otherwise.
   */
  requests: LoggedRequest[];
  /** Called (and awaited) before each API request is carried out: tests use it to change data mid-poll. */
  onApiRequest?: (request: { method: string; path: string; query: URLSearchParams }) => void | Promise<void>;
  close(): Promise<void>;
}
