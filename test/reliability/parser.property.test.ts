import fc from 'fast-check';
import { LinkShortClient, LinkShortError, type TransportResponse } from '@linkshort/client';

const API_KEY = 'sk_live_9d8c7b6a5f4e3d2c1b0a';

type Call = (client: LinkShortClient) => PromiseLike<unknown>;

/** One call per endpoint shape the client parses. */
const calls: Array<[string, Call]> = [
  ['account.get', (c) => c.account.get()],
  ['account.update', (c) => c.account.update({ email: 'a@b.co' })],
  ['domains.list', (c) => c.domains.list()],
  ['domains.create', (c) => c.domains.create({ domain: 'https://go.example.com' })],
  ['overlays.list', (c) => c.overlays.list()],
  ['links.list', (c) => c.links.list()],
  ['links.get', (c) => c.links.get(1)],
  ['links.create', (c) => c.links.create({ url: 'https://example.com' })],
  ['links.update', (c) => c.links.update(1, { url: 'https://example.com' })],
  ['links.delete', (c) => c.links.delete(1)],
  ['pixels.create', (c) => c.pixels.create({ type: 'gapixel', name: 'n', tag: 't' })],
  ['qrCodes.get', (c) => c.qrCodes.get(1)],
  ['qrCodes.create', (c) => c.qrCodes.create({ type: 'text', data: 'x' })],
  ['plans.list', (c) => c.plans.list()],
  ['users.list', (c) => c.users.list()],
  ['users.get', (c) => c.users.get(1)],
  ['users.create', (c) => c.users.create({ username: 'abc', email: 'a@b.co', password: '12345' })],
  ['users.loginLink', (c) => c.users.loginLink(1)],
];

function clientAnswering(response: TransportResponse) {
  return new LinkShortClient({
    baseUrl: 'https://short.example',
    apiKey: API_KEY,
    transport: async () => response,
    sleep: async () => undefined,
    maxRetries: 1,
    rateLimit: false,
  });
}

/** Fails the property if anything but a LinkShortError escapes, or the key shows anywhere in it. */
async function onlyLinkShortErrors(call: Call, response: TransportResponse) {
  try {
    await call(clientAnswering(response));
  } catch (error) {
    if (!(error instanceof LinkShortError)) throw new Error(`escaped ${(error as Error)?.constructor?.name}: ${String(error)}`);
    const text = `${error.message} ${JSON.stringify(error)} ${error.stack ?? ''}`;
    if (text.includes(API_KEY)) throw new Error(`the key leaked into ${error.name}: ${error.message}`);
  }
}

const withKey = (text: fc.Arbitrary<string>) =>
  fc.oneof(
    text,
    text.map((t) => `${t}${API_KEY}${t}`),
  );
const status = fc.oneof(
  fc.constant(200),
  fc.constant(403),
  fc.constant(404),
  fc.constant(429),
  fc.constant(500),
  fc.constant(502),
  fc.integer({ min: 100, max: 599 }),
);
const headers = fc.dictionary(fc.constantFrom('x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after', 'content-type'), fc.string());
const callArb = fc.constantFrom(...calls);

/** Bodies shaped like the API's, with values replaced by anything. */
const envelope = fc.record(
  {
    error: fc.oneof(fc.constant(0), fc.constant('0'), fc.constant(1), fc.constant(429), fc.constant(false), fc.anything()),
    message: withKey(fc.string()),
    data: fc.oneof(
      fc.anything(),
      fc.record({
        result: fc.anything(),
        perpage: fc.anything(),
        currentpage: fc.anything(),
        nextpage: fc.anything(),
        maxpage: fc.anything(),
        urls: fc.array(fc.anything()),
      }),
      fc.array(fc.dictionary(fc.string(), fc.anything())),
    ),
    details: fc.anything(),
    id: fc.oneof(fc.integer(), fc.string(), fc.double(), fc.bigInt().map(String)),
    shorturl: fc.anything(),
    'Retry-After': fc.oneof(fc.integer(), fc.string(), fc.double()),
  },
  { requiredKeys: [] },
);

describe('the response parser never lets anything but a LinkShortError escape, and never shows the key', () => {
  it('arbitrary JSON values', async () => {
    await fc.assert(
      fc.asyncProperty(callArb, status, headers, fc.jsonValue(), async ([, call], code, head, value) => {
        await onlyLinkShortErrors(call, { status: code, headers: head, body: JSON.stringify(value) });
      }),
      { numRuns: 400 },
    );
  });

  it('envelopes with wrong types, huge numbers and unicode', async () => {
    await fc.assert(
      fc.asyncProperty(callArb, status, envelope, async ([, call], code, body) => {
        const text = JSON.stringify(body, (_key, value: unknown) => (typeof value === 'bigint' ? `${value}` : value));
        await onlyLinkShortErrors(call, { status: code, headers: {}, body: text ?? '' });
      }),
      { numRuns: 600 },
    );
  });

  it('truncated JSON', async () => {
    await fc.assert(
      fc.asyncProperty(callArb, envelope, fc.nat(), async ([, call], body, cut) => {
        const text = JSON.stringify(body, (_key, value: unknown) => (typeof value === 'bigint' ? `${value}` : value)) ?? '';
        await onlyLinkShortErrors(call, { status: 200, headers: {}, body: text.slice(0, cut % (text.length + 1)) });
      }),
      { numRuns: 300 },
    );
  });

  it('HTML pages and arbitrary text, with the key echoed', async () => {
    const html = withKey(fc.string({ unit: 'grapheme' })).map((t) => `<!DOCTYPE html><html><body>${t}</body></html>`);
    await fc.assert(
      fc.asyncProperty(callArb, status, fc.oneof(html, withKey(fc.string({ unit: 'binary' }))), async ([, call], code, body) => {
        await onlyLinkShortErrors(call, { status: code, headers: { 'content-type': 'text/html' }, body });
      }),
      { numRuns: 300 },
    );
  });

  it('deeply nested JSON', async () => {
    for (const depth of [100, 10_000, 200_000]) {
      for (const [, call] of calls) {
        await onlyLinkShortErrors(call, { status: 200, headers: {}, body: `{"error":0,"data":${'['.repeat(depth)}${']'.repeat(depth)}}` });
      }
    }
  });
});
