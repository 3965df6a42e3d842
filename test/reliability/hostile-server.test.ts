import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  LinkShortClient,
  LinkShortError,
  RateLimitError,
  ResponseError,
  TimeoutError,
  TooManyPagesError,
  type LinkShortClientOptions,
} from '@linkshort/client';

/**
 * The client against a server that misbehaves on purpose: a body dripped a byte at a time, an
 * endless body, a rate-limit reset in milliseconds, storms of limit answers that say "retry now",
 * a list that never ends, and answers that echo the API key in disguise. Each test is bounded in
 * time and size by small limits set here, and asserts what a user of the client would see.
 */
type Handler = (request: IncomingMessage, response: ServerResponse) => void;

let server: Server;
let baseUrl: string;
let handler: Handler;
let requests: Array<{ method: string; url: string; authorization: string }>;
let keyCounter = 0;

/** A fresh key per test, so that no test inherits another's limiter (they are shared per base URL and key). */
function freshKey(shape = 'sk_hostile'): string {
  keyCounter += 1;
  return `${shape}_${keyCounter}_${Date.now().toString(36)}`;
}

function client(options: Partial<LinkShortClientOptions> = {}): LinkShortClient {
  return new LinkShortClient({ baseUrl, apiKey: freshKey(), maxRetries: 0, ...options });
}

function json(response: ServerResponse, body: unknown, headers: Record<string, string> = {}, status = 200): void {
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** Runs `call`, returning what it threw (or undefined) and how long it took. */
async function outcome(call: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = Date.now();
  const error = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error, ms: Date.now() - started };
}

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push({ method: request.method ?? '', url: request.url ?? '', authorization: String(request.headers.authorization ?? '') });
    request.resume();
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

beforeEach(() => {
  requests = [];
  handler = (_request, response) => json(response, { error: 0, message: 'ok' });
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('a body dripped one byte at a time', () => {
  it('fails with TimeoutError once timeoutMs is spent, body included', async () => {
    let drip: NodeJS.Timeout | undefined;
    handler = (_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.write('{"error":0,"message":"');
      let sent = 0;
      drip = setInterval(() => {
        sent += 1;
        // Bounded: after 4 s the answer completes, so the unfixed client ends too (and succeeds).
        if (sent >= 40) {
          clearInterval(drip);
          response.end('"}');
        } else response.write('a');
      }, 100);
      response.on('close', () => clearInterval(drip));
    };
    const { error, ms } = await outcome(() => client({ timeoutMs: 600 }).links.delete(1));
    clearInterval(drip);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(ms).toBeLessThan(600 + 900);
  });

  it('counts the time before the headers too (headers dripped)', async () => {
    let drip: NodeJS.Timeout | undefined;
    handler = (_request, response) => {
      const socket = response.socket!;
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n');
      let sent = 0;
      drip = setInterval(() => {
        sent += 1;
        if (sent >= 40 || socket.destroyed) {
          clearInterval(drip);
          if (!socket.destroyed) socket.end('Content-Length: 27\r\n\r\n{"error":0,"message":"ok!"}');
        } else socket.write(`X-Drip-${sent}: a\r\n`);
      }, 100);
    };
    const { error, ms } = await outcome(() => client({ timeoutMs: 600 }).links.delete(1));
    clearInterval(drip);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(ms).toBeLessThan(600 + 900);
  });
});

describe('a huge answer', () => {
  const CAP = 256 * 1024;

  /** Streams `total` bytes of a never-valid body as fast as the socket takes them; returns what was written. */
  function flood(total: number, status: number, declareLength: boolean): { written: () => number } {
    let written = 0;
    handler = (_request, response) => {
      response.writeHead(status, { 'Content-Type': 'application/json', ...(declareLength ? { 'Content-Length': String(total) } : {}) });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const pump = () => {
        while (written < total && !response.destroyed) {
          written += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
        if (!response.destroyed) response.end();
      };
      pump();
    };
    return { written: () => written };
  }

  it.each([
    ['chunked, status 500 (which would be retried)', false],
    ['with a Content-Length past the cap', true],
  ])('%s: stops reading at maxBodyBytes with a ResponseError, downloads it once, never retries', async (_name, declareLength) => {
    const server = flood(64 * 1024 * 1024, 500, declareLength);
    const { error, ms } = await outcome(() => client({ maxBodyBytes: CAP, maxRetries: 2 }).links.get(1));
    expect(error).toBeInstanceOf(ResponseError);
    expect((error as Error).message).toMatch(/larger than .*262144 bytes/);
    expect(requests).toHaveLength(1);
    expect(server.written()).toBeLessThan(16 * 1024 * 1024);
    expect(ms).toBeLessThan(5000);
  });

  it('an answer within the cap is read as usual', async () => {
    const urls = Array.from({ length: 500 }, (_, i) => ({
      id: i + 1,
      alias: `a${i}`,
      shorturl: `https://s.io/a${i}`,
      longurl: `https://example.com/${'p'.repeat(200)}/${i}`,
      title: 't',
      description: '',
      clicks: 0,
      date: '2026-01-01 00:00:00',
    }));
    handler = (_request, response) => json(response, { error: 0, data: { result: 500, perpage: 500, currentpage: 1, nextpage: null, maxpage: 1, urls } });
    const page = await client({ maxBodyBytes: 1024 * 1024 }).links.list();
    expect(page.items).toHaveLength(500);
  });
});

describe('a far reset', () => {
  it('X-RateLimit-Reset in milliseconds with Remaining -5 does not block later calls, nor other clients of the key', async () => {
    const apiKey = freshKey();
    let calls = 0;
    handler = (_request, response) => {
      calls += 1;
      const headers =
        calls === 1
          ? { 'X-RateLimit-Limit': '30', 'X-RateLimit-Remaining': '-5', 'X-RateLimit-Reset': String(Date.now() + 60_000) }
          : { 'X-RateLimit-Limit': '30', 'X-RateLimit-Remaining': '28', 'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 60) };
      json(response, { error: 0, message: 'ok' }, headers);
    };
    await client({ apiKey }).links.delete(1);
    // A new client of the same key (as a later n8n execution makes) shares the limiter.
    const later = await outcome(() => client({ apiKey, rateLimit: { maxWaitMs: 5_000 } }).links.delete(2));
    expect(later.error).toBeUndefined();
    expect(later.ms).toBeLessThan(2_000);
    expect(requests).toHaveLength(2);
  });

  it('a limit answer with a reset in milliseconds waits out its Retry-After instead', async () => {
    const apiKey = freshKey();
    let calls = 0;
    handler = (_request, response) => {
      calls += 1;
      if (calls === 1) {
        json(
          response,
          { error: 429, message: 'Too Many API Requests.', 'Retry-After': 1 },
          { 'X-RateLimit-Limit': '30', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(Date.now() + 60_000) },
        );
      } else json(response, { error: 0, message: 'ok' });
    };
    const { error, ms } = await outcome(() => client({ apiKey, rateLimit: { maxWaitMs: 5_000 } }).links.delete(1));
    expect(error).toBeUndefined();
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(3_000);
  });
});

describe('a storm of limit answers saying "retry now"', () => {
  it.each([
    ['body Retry-After 0', (response: ServerResponse) => json(response, { error: 429, message: 'Too Many API Requests.', 'Retry-After': 0 })],
    ['body Retry-After -3', (response: ServerResponse) => json(response, { error: 429, message: 'Too Many API Requests.', 'Retry-After': -3 })],
    ['HTTP 429 with Retry-After: 0', (response: ServerResponse) => json(response, { error: 1 }, { 'Retry-After': '0' }, 429)],
    [
      'HTTP 429 with a reset already past',
      (response: ServerResponse) =>
        json(
          response,
          { error: 1 },
          { 'Retry-After': '-1', 'X-RateLimit-Limit': '30', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(Math.floor(Date.now() / 1000) - 5) },
          429,
        ),
    ],
  ])('%s: a minimum wait between tries, then RateLimitError within maxWaitMs', async (_name, answer) => {
    handler = (_request, response) => answer(response);
    const { error, ms } = await outcome(() => client({ rateLimit: { maxWaitMs: 2_500 } }).links.create({ url: 'https://example.com/storm' }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(requests.length).toBeLessThanOrEqual(3);
    expect(ms).toBeLessThan(4_000);
  });
});

describe('a list that never ends', () => {
  it('Return All stops after maxPages with a clear error', async () => {
    handler = (request, response) => {
      const page = Number(new URL(request.url ?? '/', baseUrl).searchParams.get('page') ?? 1);
      // Bounded: past page 300 the bomb ends with an empty page, so the unfixed client ends too.
      const urls =
        page > 300
          ? []
          : [1, 2].map((n) => ({
              id: page * 10 + n,
              alias: `p${page}n${n}`,
              shorturl: `https://s.io/p${page}n${n}`,
              longurl: 'https://example.com',
              clicks: 0,
              date: '2026-01-01 00:00:00',
            }));
      json(response, { error: 0, data: { result: 2e9, perpage: 2, currentpage: page, nextpage: page + 1, maxpage: 1e9, urls } });
    };
    const { error } = await outcome(() => client({ maxPages: 50 }).links.list({ limit: 2 }).toArray());
    expect(error).toBeInstanceOf(TooManyPagesError);
    expect((error as Error).message).toMatch(/50 pages.*maxPages/);
    expect(requests).toHaveLength(50);
  });

  it('a walk that ends within maxPages reads every item', async () => {
    handler = (request, response) => {
      const page = Number(new URL(request.url ?? '/', baseUrl).searchParams.get('page') ?? 1);
      const urls = [1, 2].map((n) => ({
        id: page * 10 + n,
        alias: `p${page}n${n}`,
        shorturl: `https://s.io/p${page}n${n}`,
        longurl: 'https://example.com',
        clicks: 0,
        date: '2026-01-01 00:00:00',
      }));
      json(response, { error: 0, data: { result: 20, perpage: 2, currentpage: page, nextpage: page < 10 ? page + 1 : null, maxpage: 10, urls } });
    };
    expect(await client({ maxPages: 10 }).links.list({ limit: 2 }).toArray()).toHaveLength(20);
  });
});

describe('the key echoed back in disguise', () => {
  const KEY = 'Zk3/y+Q9=v/0é';
  const echoes: Record<string, (key: string) => string> = {
    raw: (key) => key,
    'PHP-escaped slashes': (key) => key.replace(/\//g, '\\/'),
    'JSON-escaped': (key) => JSON.stringify(key).slice(1, -1),
    'PHP JSON (escaped slashes and \\u escapes)': (key) =>
      JSON.stringify(key)
        .slice(1, -1)
        .replace(/\//g, '\\/')
        .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    'URL-encoded': (key) => encodeURIComponent(key),
    'URL-encoded, lower-case hex': (key) => encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
    'form-encoded': (key) => new URLSearchParams({ k: key }).toString().slice(2),
  };

  it.each(Object.entries(echoes))('%s: never in a ResponseError, its excerpt, or an API error message', async (_name, encode) => {
    for (const apiKey of [KEY, 'k/1']) {
      for (const answer of [
        (r: ServerResponse) => {
          r.writeHead(200, { 'Content-Type': 'text/html' });
          r.end(`<html>bad key ${encode(apiKey)} here</html>`);
        },
        (r: ServerResponse) => {
          r.writeHead(200, { 'Content-Type': 'application/json' });
          r.end(`{"error":0,"data":"${encode(apiKey)}"`);
        },
        (r: ServerResponse) => {
          r.writeHead(200, { 'Content-Type': 'application/json' });
          r.end(`{"error":1,"message":"Key ${encode(apiKey)} is not valid"}`);
        },
      ]) {
        handler = (_request, response) => answer(response);
        const { error } = await outcome(() => client({ apiKey }).links.delete(1));
        expect(error).toBeInstanceOf(LinkShortError);
        const seen = `${(error as Error).message} ${(error as ResponseError).excerpt ?? ''} ${JSON.stringify(error)}`;
        for (const disguise of Object.values(echoes)) expect(seen).not.toContain(disguise(apiKey));
        expect(seen).toContain('[redacted]');
      }
    }
  });
});

describe('a probe that takes long', () => {
  it("a call waiting behind the key's first request gives up at its own timeout", async () => {
    const apiKey = freshKey();
    let release: (() => void) | undefined;
    handler = (_request, response) => {
      // The first request of the key (the limiter's probe) hangs until the test lets it go.
      if (requests.length === 1) release = () => json(response, { error: 0, message: 'slow' });
      else
        json(
          response,
          { error: 0, message: 'ok' },
          { 'X-RateLimit-Limit': '30', 'X-RateLimit-Remaining': '20', 'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 60) },
        );
    };
    const slow = client({ apiKey, timeoutMs: 10_000 }).links.delete(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const quick = await outcome(() => client({ apiKey, timeoutMs: 500 }).links.delete(2));
    release?.();
    await slow;
    expect(quick.error).toBeInstanceOf(TimeoutError);
    expect(quick.ms).toBeLessThan(500 + 500);
  });
});
