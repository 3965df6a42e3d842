import { LinkShortClient, type CoreClientOptions, type TransportRequest, type TransportResponse } from "../src/core";

export const API_KEY = "sk_test_5f2c9a71d04e4b8c";
export const BASE_URL = "https://short.example";

export type Reply = Partial<TransportResponse> & { json?: unknown } | Error;
export type Handler = (request: TransportRequest, index: number) => Reply | Promise<Reply>;

/** A clock whose sleep advances time at once, recording every wait. */
export class FakeClock {
  time = Date.UTC(2026, 10, 21, 12, 0, 0);
  readonly sleeps: number[] = [];
  now = () => this.time;
  sleep = async (ms: number) => {
    this.sleeps.push(ms);
    this.time += ms;
  };
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
