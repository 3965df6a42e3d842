/** The ways a deployed server, proxy or network fails, injected on demand for tests. */
export const FAULT_KINDS = ["5xx", "drop", "delay", "html", "empty", "malformed", "429"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRule {
  kind: FaultKind;
  /** A regular expression matched against `METHOD /path` (e.g. `^POST /api/url/add$`); every API route when absent. */
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

/** A small seeded generator (mulberry32), so that a run with injected faults can be repeated exactly. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class FaultInjector {
  private rules: Array<FaultRule & { pattern?: RegExp; used: number }> = [];
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

  set(rules: FaultRule[]): void {
    for (const rule of rules) {
      if (!FAULT_KINDS.includes(rule.kind)) throw new Error(`Unknown fault kind "${String(rule.kind)}"`);
    }
    this.rules = rules.map((rule) => ({ ...rule, ...(rule.route ? { pattern: new RegExp(rule.route) } : {}), used: 0 }));
  }

  add(rule: FaultRule): void {
    this.set([...this.rules, rule]);
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
      if (rule.pattern && !rule.pattern.test(target)) continue;
      if (this.random() >= (rule.probability ?? 1)) continue;
      rule.used += 1;
      this.injected[rule.kind] = (this.injected[rule.kind] ?? 0) + 1;
      if (this.log.length < 100_000) this.log.push({ kind: rule.kind, when, method, path, ...(requestId ? { requestId } : {}) });
      return rule;
    }
    return undefined;
  }
}
