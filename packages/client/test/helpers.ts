import { LinkShortClient, type CoreClientOptions, type TransportRequest, type TransportResponse } from "../src/core";

export const API_KEY = "sk_test_5f2c9a71d04e4b8c";
export const BASE_URL = "https://short.example";

export type Reply = (Partial<TransportResponse> & { json?: unknown }) | Error;
export type Handler = (request: TransportRequest, index: number) => Reply | Promise<Reply>;

/**
 * A virtual clock: `sleep` resolves when virtual time reaches its deadline, and time jumps to the
 * earliest deadline once everything else has settled, so concurrent waits overlap as they would
 * in real time, without real waiting.
 */
export class FakeClock {
  time = Date.UTC(2026, 10, 21, 12, 0, 0);
  readonly sleeps: number[] = [];
  private timers: Array<{ at: number; resolve: () => void }> = [];
  private scheduled = false;

  now = () => this.time;

  sleep = (ms: number): Promise<void> => {
    this.sleeps.push(ms);
    return new Promise((resolve) => {
      this.timers.push({ at: this.time + Math.max(0, ms), resolve });
      this.schedule();
    });
  };

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.timers.length === 0) return;
      const next = Math.min(...this.timers.map((timer) => timer.at));
      this.time = Math.max(this.time, next);
      const due = this.timers.filter((timer) => timer.at <= this.time);
      this.timers = this.timers.filter((timer) => timer.at > this.time);
      for (const timer of due) timer.resolve();
      if (this.timers.length > 0) this.schedule();
    });
  }
}

export interface Sent extends TransportRequest {
  json?: unknown;
  path: string;
  query: Record<string, string>;
}

/** A client over a scripted transport: each request is answered by `handler` (or the next reply in a list). */
export function scripted(handler: Handler | Reply[], options: Partial<CoreClientOptions> = {}) {
  const clock = new FakeClock();
  const sent: Sent[] = [];
  const replies = Array.isArray(handler) ? [...handler] : undefined;
  const transport = async (request: TransportRequest): Promise<TransportResponse> => {
    const url = new URL(request.url);
    sent.push({
      ...request,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      ...(request.body !== undefined ? { json: JSON.parse(request.body) } : {}),
    });
    const reply = replies ? replies.shift() : await (handler as Handler)(request, sent.length - 1);
    if (reply === undefined) throw new Error("no scripted reply left");
    if (reply instanceof Error) throw reply;
    return {
      status: reply.status ?? 200,
      headers: reply.headers ?? {},
      body: reply.body ?? JSON.stringify(reply.json ?? { error: 0 }),
    };
  };
  const client = new LinkShortClient({
    baseUrl: BASE_URL,
    apiKey: API_KEY,
    transport,
    sleep: clock.sleep,
    now: clock.now,
    random: () => 0.5,
    rateLimit: false,
    ...options,
  });
  return { client, sent, clock };
}

/** The rate-limit headers of a window ending at `resetAt` (epoch ms). */
export function rateHeaders(limit: number, remaining: number, resetAt: number) {
  return {
    "x-ratelimit-limit": String(limit),
    "x-ratelimit-remaining": String(remaining),
    "x-ratelimit-reset": String(Math.floor(resetAt / 1000)),
  };
}

/** A list page of links with these click totals, as the service answers it (one page, dated alike). */
export const linksPage = (items: Array<{ id: number; clicks: number }>) => ({
  json: {
    error: "0",
    data: {
      result: items.length,
      perpage: 15,
      currentpage: 1,
      nextpage: null,
      maxpage: 1,
      urls: items.map(({ id, clicks }) => ({
        id,
        alias: `a${id}`,
        shorturl: `https://short.example/a${id}`,
        longurl: "https://example.com",
        clicks: String(clicks),
        title: "",
        description: "",
        date: "2026-11-01 10:00:00",
      })),
    },
  },
});
