import fc from 'fast-check';
import { LinkShortClient, PIXEL_TYPES, QR_TYPES, ValidationError, type TransportRequest } from '@linkshort/client';

function recordingClient() {
  const sent: TransportRequest[] = [];
  const client = new LinkShortClient({
    baseUrl: 'https://short.example',
    apiKey: 'key-for-validation-tests',
    transport: async (request) => {
      sent.push(request);
      return {
        status: 200,
        headers: {},
        body: JSON.stringify({ error: 0, id: 1, shorturl: 'https://s.io/a', link: 'https://s.io/qr/abcdef', message: 'ok', data: { id: 1 } }),
      };
    },
    sleep: async () => undefined,
    rateLimit: false,
  });
  return { client, sent };
}

const letters = fc.stringMatching(/^[a-z]{1,12}$/);
const httpUrl = fc
  .tuple(fc.constantFrom('http', 'https'), letters, fc.constantFrom('com', 'org', 'io'), fc.stringMatching(/^[a-z0-9/_-]{0,20}$/))
  .map(([scheme, host, tld, path]) => `${scheme}://${host}.${tld}/${path}`);
const alias = fc.stringMatching(/^[A-Za-z0-9-]{3,50}$/);
const timestamp = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 19).replace('T', ' '));
const rgb = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([r, g, b]) => `rgb(${r},${g},${b})`);
const email = fc.tuple(letters, letters).map(([user, host]) => `${user}@${host}.com`);
const phone = fc.stringMatching(/^\+?[0-9]{6,12}$/);

const linkInput = fc.record(
  {
    url: httpUrl,
    custom: alias,
    type: fc.constantFrom('direct', 'frame', 'splash'),
    password: letters,
    domain: httpUrl,
    expiry: timestamp,
    geotarget: fc.array(fc.record({ location: letters, link: httpUrl }), { maxLength: 3 }),
    devicetarget: fc.array(fc.record({ device: letters, link: httpUrl }), { maxLength: 3 }),
    parameters: fc.array(fc.record({ name: letters, value: fc.string() }), { maxLength: 3 }),
    metatitle: fc.string(),
    metadescription: fc.string(),
  },
  { requiredKeys: ['url'] },
);

const qrInput = fc
  .oneof(
    fc.record({ type: fc.constant('text' as const), data: fc.string({ minLength: 1, maxLength: 1000 }) }),
    fc.record({ type: fc.constant('link' as const), data: httpUrl }),
    fc.record({ type: fc.constant('phone' as const), data: phone }),
    fc.record({ type: fc.constant('email' as const), data: fc.record({ email, subject: fc.string(), body: fc.string() }, { requiredKeys: ['email'] }) }),
    fc.record({ type: fc.constant('sms' as const), data: fc.record({ phone, message: fc.string() }, { requiredKeys: ['phone'] }) }),
    fc.record({
      type: fc.constant('wifi' as const),
      data: fc.record({ ssid: letters, password: fc.string(), encryption: fc.constantFrom('WPA', 'WEP', 'nopass') }, { requiredKeys: ['ssid'] }),
    }),
    fc.record({
      type: fc.constant('vcard' as const),
      data: fc.record({ firstname: letters, lastname: fc.string(), email, site: httpUrl }, { requiredKeys: ['firstname'] }),
    }),
  )
  .chain((base) => fc.record({ background: rgb, foreground: rgb }, { requiredKeys: [] }).map((colours) => ({ ...base, ...colours })));

/** Values no field accepts: wrong types, empty or malformed text. */
const badUrl = fc.oneof(
  fc.constant(''),
  fc.constant('example.com'),
  fc.constant('ftp://x.io'),
  fc.constant('http://a b.com'),
  fc.integer(),
  fc.constant(null),
  fc.boolean(),
);
const badAlias = fc.oneof(
  fc.stringMatching(/^[a-z]{0,2}$/),
  fc.stringMatching(/^[a-z]{3,10}[/ _.!?][a-z]{0,5}$/),
  fc.string({ minLength: 51, maxLength: 60 }).map((s) => `a${s.replace(/[^a-z]/g, 'b')}`.padEnd(51, 'c')),
  fc.integer(),
);
const badTimestamp = fc.oneof(
  fc.constant('2026-13-01 00:00:00'),
  fc.constant('2026-02-30 10:00:00'),
  fc.constant('2026-01-01T00:00:00Z'),
  fc.constant('tomorrow'),
  fc.integer(),
);
const badColour = fc.oneof(fc.constant('#ffffff'), fc.constant('rgb(256,0,0)'), fc.constant('red'), fc.integer());

async function expectRejected(call: (client: LinkShortClient) => PromiseLike<unknown>, field: string) {
  const { client, sent } = recordingClient();
  const error = await Promise.resolve(call(client)).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ValidationError)) throw new Error(`expected a ValidationError naming ${field}, got ${String(error)}`);
  if (!error.fields.some((name) => name === field || name.startsWith(`${field}.`))) throw new Error(`expected ${field} among ${error.fields.join(', ')}`);
  if (!error.message.includes(field)) throw new Error(`the message does not name ${field}: ${error.message}`);
  if (sent.length !== 0) throw new Error('a request left despite the invalid input');
}

async function expectSentUnchanged(call: (client: LinkShortClient) => PromiseLike<unknown>, body: unknown) {
  const { client, sent } = recordingClient();
  await call(client);
  if (sent.length !== 1) throw new Error(`expected one request, saw ${sent.length}`);
  expect(JSON.parse(sent[0]!.body ?? 'null')).toEqual(body);
}

describe('input validation, for every operation', () => {
  it('every valid link is sent unchanged, on create and on update', async () => {
    await fc.assert(
      fc.asyncProperty(linkInput, async (input) => {
        await expectSentUnchanged((c) => c.links.create(input), input);
        await expectSentUnchanged((c) => c.links.update(7, input), input);
      }),
      { numRuns: 200 },
    );
  });

  it('every invalid link field is rejected by name before any request', async () => {
    const mutation = fc.oneof(
      badUrl.map((value) => ['url', value] as const),
      badAlias.map((value) => ['custom', value] as const),
      badUrl.filter((v) => v !== null).map((value) => ['domain', value] as const),
      badTimestamp.map((value) => ['expiry', value] as const),
      fc.constantFrom('popup', 'redirect', 0, -1).map((value) => ['type', value] as const),
      badUrl.map((value) => ['geotarget', [{ location: 'Canada', link: value }]] as const),
      fc.constantFrom('x', 3, {}).map((value) => ['parameters', value] as const),
      letters
        .filter(
          (name) =>
            !['url', 'custom', 'type', 'password', 'domain', 'expiry', 'geotarget', 'devicetarget', 'parameters', 'metatitle', 'metadescription'].includes(
              name,
            ),
        )
        .map((name) => [name, 'x'] as const),
    );
    await fc.assert(
      fc.asyncProperty(linkInput, mutation, async (input, [field, value]) => {
        const broken = { ...input, [field]: value } as never;
        await expectRejected((c) => c.links.create(broken), field);
      }),
      { numRuns: 300 },
    );
  });

  it('every valid QR code is sent unchanged; a bad type, data or colour is rejected by name', async () => {
    await fc.assert(
      fc.asyncProperty(qrInput, async (input) => {
        await expectSentUnchanged((c) => c.qrCodes.create(input as never), input);
        await expectSentUnchanged((c) => c.qrCodes.update(3, input as never), input);
      }),
      { numRuns: 200 },
    );
    const mutation = fc.oneof(
      fc.constantFrom('pdf', 'url', '', 5).map((value) => ['type', value] as const),
      badColour.map((value) => ['background', value] as const),
      badColour.map((value) => ['foreground', value] as const),
      fc.constantFrom('logo.gif', 'https://x.io/logo.svg', 5).map((value) => ['logo', value] as const),
    );
    await fc.assert(
      fc.asyncProperty(qrInput, mutation, async (input, [field, value]) => {
        await expectRejected((c) => c.qrCodes.create({ ...input, [field]: value } as never), field);
      }),
      { numRuns: 200 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...QR_TYPES),
        fc.oneof(fc.constant(''), fc.constant(null), fc.integer(), fc.constant({}), fc.constant('not a url')),
        async (type, data) => {
          if (type === 'text' && data === 'not a url') return;
          await expectRejected((c) => c.qrCodes.create({ type, data } as never), 'data');
        },
      ),
      { numRuns: 100 },
    );
  });

  it('pixels, domains, plans, users and the account: valid sent unchanged, invalid rejected by name', async () => {
    const pixel = fc.record({ type: fc.constantFrom(...PIXEL_TYPES), name: letters, tag: letters });
    await fc.assert(
      fc.asyncProperty(pixel, async (input) => expectSentUnchanged((c) => c.pixels.create(input), input)),
      { numRuns: 50 },
    );
    await fc.assert(
      fc.asyncProperty(pixel, fc.constantFrom('type', 'name', 'tag'), fc.constantFrom('', 5, null, 'tiktok'), async (input, field, value) => {
        if (field !== 'type' && value === 'tiktok') return;
        await expectRejected((c) => c.pixels.create({ ...input, [field]: value } as never), field);
      }),
      { numRuns: 100 },
    );

    const domain = fc.record({ domain: httpUrl, redirectroot: httpUrl, redirect404: httpUrl }, { requiredKeys: ['domain'] });
    await fc.assert(
      fc.asyncProperty(domain, async (input) => expectSentUnchanged((c) => c.domains.create(input), input)),
      { numRuns: 50 },
    );
    await fc.assert(
      fc.asyncProperty(
        domain,
        fc.constantFrom('domain', 'redirectroot', 'redirect404'),
        badUrl.filter((v) => v !== null),
        async (input, field, value) => {
          await expectRejected((c) => c.domains.create({ ...input, [field]: value } as never), field);
        },
      ),
      { numRuns: 100 },
    );

    const user = fc.record(
      {
        username: fc.stringMatching(/^[A-Za-z0-9]{3,20}$/),
        email,
        password: fc.string({ minLength: 5, maxLength: 30 }),
        planid: fc.integer({ min: 1, max: 1000 }),
        expiration: timestamp,
      },
      { requiredKeys: ['username', 'email', 'password'] },
    );
    await fc.assert(
      fc.asyncProperty(user, async (input) => expectSentUnchanged((c) => c.users.create(input), input)),
      { numRuns: 50 },
    );
    const badUser = fc.oneof(
      fc.constantFrom('ab', 'a b c', 'x'.repeat(21), 5).map((value) => ['username', value] as const),
      fc.constantFrom('nope', 'a@b', '@b.co', 5).map((value) => ['email', value] as const),
      fc.string({ maxLength: 4 }).map((value) => ['password', value] as const),
      fc.constantFrom(0, -3, 1.5, '2').map((value) => ['planid', value] as const),
      badTimestamp.map((value) => ['expiration', value] as const),
    );
    await fc.assert(
      fc.asyncProperty(user, badUser, async (input, [field, value]) => {
        await expectRejected((c) => c.users.create({ ...input, [field]: value } as never), field);
      }),
      { numRuns: 150 },
    );

    await fc.assert(
      fc.asyncProperty(fc.constantFrom('monthly', 'yearly', 'lifetime'), timestamp, async (type, expiration) => {
        await expectSentUnchanged((c) => c.plans.subscribe(1, 2, { type, expiration }), { type, expiration });
      }),
      { numRuns: 30 },
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('weekly', '', 5), async (type) => expectRejected((c) => c.plans.subscribe(1, 2, { type } as never), 'type')),
      { numRuns: 10 },
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('abc', 'a@', 5), async (value) => expectRejected((c) => c.account.update({ email: value } as never), 'email')),
      { numRuns: 10 },
    );
  });

  it('every id that is not a positive whole number is rejected by name, on every operation that takes one', async () => {
    const badId = fc.oneof(fc.integer({ max: 0 }), fc.double({ noInteger: true }), fc.constantFrom('abc', '../1', '1; DROP', '', null, undefined, '01'));
    const byId: Array<(client: LinkShortClient, id: never) => PromiseLike<unknown>> = [
      (c, id) => c.links.get(id),
      (c, id) => c.links.delete(id),
      (c, id) => c.links.update(id, { url: 'https://a.io' }),
      (c, id) => c.domains.update(id, {}),
      (c, id) => c.domains.delete(id),
      (c, id) => c.pixels.update(id, { tag: 't' }),
      (c, id) => c.pixels.delete(id),
      (c, id) => c.qrCodes.get(id),
      (c, id) => c.qrCodes.update(id, { type: 'text', data: 'x' }),
      (c, id) => c.qrCodes.delete(id),
      (c, id) => c.users.get(id),
      (c, id) => c.users.delete(id),
      (c, id) => c.users.loginLink(id),
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...byId), badId, async (call, id) => expectRejected((c) => call(c, id as never), 'id')),
      { numRuns: 300 },
    );
  });
});
