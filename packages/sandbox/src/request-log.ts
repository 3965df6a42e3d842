/** One API request as `sandbox.requests` records it. */
export interface LoggedRequest {
  method: string;
  path: string;
  query: string;
}

const LOGGED_FIELD_LENGTH = 512;
const cut = (text: string) => (text.length > LOGGED_FIELD_LENGTH ? `${text.slice(0, LOGGED_FIELD_LENGTH)}…` : text);

/** The newest requests, bounded in number and in age; old ones leave in batches, so each request costs O(1) on average. */
export class RequestLog {
  readonly entries: LoggedRequest[] = [];
  private readonly times: number[] = [];
  constructor(
    private readonly maxEntries: number,
    private readonly maxAgeMs: number,
  ) {}

  add(method: string, path: string, query: string, now: number): void {
    let old = 0;
    while (old < this.times.length && this.times[old]! <= now - this.maxAgeMs) old += 1;
    const over = this.entries.length + 1 - this.maxEntries;
    const drop = Math.max(old, over > 0 ? over + Math.floor(this.maxEntries / 10) : 0);
    if (drop > 0) {
      this.entries.splice(0, drop);
      this.times.splice(0, drop);
    }
    this.entries.push({ method: cut(method), path: cut(path), query: cut(query) });
    this.times.push(now);
  }
}
