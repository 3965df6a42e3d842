import { seededRandom } from "../seeded-random";

/** The ways a deployed server, proxy or network fails, injected on demand for tests. */
export const FAULT_KINDS = ["5xx", "drop", "delay", "html", "empty", "malformed", "429"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRule {
  kind: FaultKind;
  /**
   * Which requests, matched against `METHOD /path`: literal text, `^` anchoring it at the start, `$`
   * at the end, and `*` standing for any run of characters (`^POST /api/url/add$`, `^DELETE `,
   * `^GET /api/url/*$`). Every API route when absent. Not a regular expression: a pattern that
   * backtracks could hold the server for seconds on one request.
   */
  route?: string;
  /** How many requests it hits before it is spent; unlimited when absent. */
  times?: number;
  /** The chance that a matching request is hit (default 1). */
  probability?: number;
  /**
   * `before`: the request is not carried out. `after`: it is carried out (the state changes) and
   * then the answer is lost or spoiled, as when a connection drops after the server committed.
   */
  when?: "before" | "after";
  /** For `delay`: how long to hold the answer (default 5 s). */
  delayMs?: number;
  /** For `5xx`: the status (default 503). */
  status?: number;
}

const MAX_DELAY_MS = 600_000;
const ROUTE_SPECIALS = /[\\.+?()[\]{}|^$]/;

/**
 * A matcher for a rule's route: literal pieces between `*`, each found with `indexOf` from where
 * the previous one ended, so matching takes time linear in the pattern times the path, never more.
 */
function routeMatcher(route: string): (target: string) => boolean {
  const anchoredStart = route.startsWith("^");
  const anchoredEnd = route.endsWith("$") && route.length > (anchoredStart ? 1 : 0);
  const pieces = route.slice(anchoredStart ? 1 : 0, anchoredEnd ? -1 : undefined).split("*");
  return (target) => {
    let position = 0;
    for (const [index, piece] of pieces.entries()) {
      const first = index === 0;
      const last = index === pieces.length - 1;
      if (last && anchoredEnd) {
        if (target.length - piece.length < position || !target.endsWith(piece)) return false;
        return pieces.length > 1 || !anchoredStart || target.length === piece.length;
      }
      if (first && anchoredStart) {
        if (!target.startsWith(piece)) return false;
        position = piece.length;
        continue;
      }
      const found = target.indexOf(piece, position);
      if (found < 0) return false;
      position = found + piece.length;
    }
    return true;
  };
}

const isCount = (value: unknown) => typeof value === "number" && Number.isInteger(value) && value >= 0;

/** Checks one rule as it may come from JSON; the error names the field (`rules[2].route: ...`). */
function checkRule(rule: unknown, index: number): FaultRule {
  const field = (name: string) => `rules[${index}]${name ? `.${name}` : ""}`;
  if (typeof rule !== "object" || rule === null || Array.isArray(rule)) throw new Error(`${field("")} must be an object`);
  const { kind, route, times, probability, when, delayMs, status } = rule as Record<string, unknown>;
  if (!FAULT_KINDS.includes(kind as FaultKind)) throw new Error(`${field("kind")}: unknown fault kind "${String(kind)}" (one of ${FAULT_KINDS.join(", ")})`);
  if (route !== undefined) {
    if (typeof route !== "string" || route.length > 200) throw new Error(`${field("route")} must be text of at most 200 characters`);
    if (ROUTE_SPECIALS.test(route.replace(/^\^/, "").replace(/\$$/, ""))) {
      throw new Error(
        `${field("route")}: "${route}" is not a route pattern (literal "METHOD /path", optionally ^ at the start, $ at the end, * for any characters; regular expressions are not accepted)`,
      );
    }
  }
  if (times !== undefined && !isCount(times)) throw new Error(`${field("times")} must be a whole number of 0 or more`);
  if (probability !== undefined && (typeof probability !== "number" || !(probability >= 0 && probability <= 1)))
    throw new Error(`${field("probability")} must be a number from 0 to 1`);
  if (when !== undefined && when !== "before" && when !== "after") throw new Error(`${field("when")} must be "before" or "after"`);
  if (delayMs !== undefined && (!isCount(delayMs) || (delayMs as number) > MAX_DELAY_MS))
    throw new Error(`${field("delayMs")} must be a whole number of milliseconds up to ${MAX_DELAY_MS}`);
  if (status !== undefined && (!isCount(status) || (status as number) < 500 || (status as number) > 599))
    throw new Error(`${field("status")} must be a status from 500 to 599`);
  return rule as FaultRule;
}

export class FaultInjector {
  private rules: Array<FaultRule & { matches?: (target: string) => boolean; used: number }> = [];
  private random: () => number;
  /** How many faults of each kind were injected. */
  readonly injected: Record<string, number> = {};
  /** Each injected fault, with the request's `X-Request-Id` header when it had one (bounded). */
  readonly log: Array<{ kind: FaultKind; when: "before" | "after"; method: string; path: string; requestId?: string }> = [];

  constructor(seed?: number) {
    this.random = seed === undefined ? Math.random : seededRandom(seed);
  }

  static parse(spec: string): FaultRule[] {
    return spec
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const [kind, probability] = part.split(":");
        if (!FAULT_KINDS.includes(kind as FaultKind)) throw new Error(`Unknown fault kind "${kind}" (one of ${FAULT_KINDS.join(", ")})`);
        return { kind: kind as FaultKind, probability: probability === undefined ? 1 : Number(probability) };
      });
  }

  /** Replaces the rules; throws, naming the field, when one is malformed (then nothing changes). */
  set(rules: readonly unknown[]): void {
    if (!Array.isArray(rules)) throw new Error("rules must be an array of fault rules");
    const checked = rules.map(checkRule);
    this.rules = checked.map((rule) => ({ ...rule, ...(rule.route ? { matches: routeMatcher(rule.route) } : {}), used: 0 }));
  }

  clear(): void {
    this.rules = [];
  }

  /** The fault to apply to this request at this moment, if any. */
  pick(method: string, path: string, when: "before" | "after", requestId?: string): FaultRule | undefined {
    const target = `${method} ${path}`;
    for (const rule of this.rules) {
      if ((rule.when ?? "before") !== when) continue;
      if (rule.times !== undefined && rule.used >= rule.times) continue;
      if (rule.matches && !rule.matches(target)) continue;
      if (this.random() >= (rule.probability ?? 1)) continue;
      rule.used += 1;
      this.injected[rule.kind] = (this.injected[rule.kind] ?? 0) + 1;
      if (this.log.length < 100_000) this.log.push({ kind: rule.kind, when, method, path, ...(requestId ? { requestId } : {}) });
      return rule;
    }
    return undefined;
  }
}
