/**
 * The client reads answers with plain readers derived from the zod schemas (packages/client/src/internal/readers.ts)
 * and only asks zod when a reader refuses. These properties hold the two to the same verdict and
 * the same value, for the schema of every endpoint.
 */
import { deepStrictEqual } from 'node:assert';
import fc from 'fast-check';
import * as z from 'zod/v4';
import { LinkShortClient } from '@linkshort/client';
import { count, flag, identifier, isDecimalString, text } from '../../packages/client/src/resources/fields';
import { HttpCore } from '../../packages/client/src/internal/http';
import { readerOf, Rejected } from '../../packages/client/src/internal/readers';

type Call = (client: LinkShortClient) => PromiseLike<unknown>;

const calls: Record<string, Record<string, Call>> = {
  account: { get: (c) => c.account.get(), update: (c) => c.account.update({ email: 'a@b.co' }) },
  domains: {
    list: (c) => c.domains.list(),
    create: (c) => c.domains.create({ domain: 'https://go.example.com' }),
    update: (c) => c.domains.update(1, { redirectroot: 'https://example.com' }),
    delete: (c) => c.domains.delete(1),
  },
  splashPages: { list: (c) => c.splashPages.list() },
  overlays: { list: (c) => c.overlays.list() },
  links: {
    list: (c) => c.links.list(),
    get: (c) => c.links.get(1),
    create: (c) => c.links.create({ url: 'https://example.com' }),
    update: (c) => c.links.update(1, { url: 'https://example.com' }),
    delete: (c) => c.links.delete(1),
  },
  pixels: {
    list: (c) => c.pixels.list(),
    create: (c) => c.pixels.create({ type: 'gapixel', name: 'n', tag: 't' }),
    update: (c) => c.pixels.update(1, { tag: 't' }),
    delete: (c) => c.pixels.delete(1),
  },
  qrCodes: {
    list: (c) => c.qrCodes.list(),
    get: (c) => c.qrCodes.get(1),
    create: (c) => c.qrCodes.create({ type: 'text', data: 'x' }),
    update: (c) => c.qrCodes.update(1, { type: 'text', data: 'y' }),
    delete: (c) => c.qrCodes.delete(1),
  },
  plans: { list: (c) => c.plans.list(), subscribe: (c) => c.plans.subscribe(1, 2, { type: 'monthly' }) },
  users: {
    list: (c) => c.users.list(),
    get: (c) => c.users.get(1),
    create: (c) => c.users.create({ username: 'abc', email: 'a@b.co', password: '12345' }),
    delete: (c) => c.users.delete(1),
    loginLink: (c) => c.users.loginLink(1),
  },
};

/** A client whose transport answers locally: nothing leaves the process. */
const offlineClient = () =>
  new LinkShortClient({
    baseUrl: 'https://short.example',
    apiKey: 'k',
    transport: async () => ({ status: 200, headers: {}, body: '' }),
    sleep: async () => undefined,
  });

/** The schema each endpoint reads its answer with, caught on its way into the HTTP core. */
async function answerSchemas(): Promise<Array<[string, z.ZodType]>> {
  const seen: Array<[string, z.ZodType]> = [];
  let current = '';
  const spy = jest.spyOn(HttpCore.prototype, 'request').mockImplementation(async (_request, schema) => {
    seen.push([current, schema as z.ZodType]);
    throw new Error('not sent');
  });
  const client = offlineClient();
  for (const [resource, methods] of Object.entries(calls)) {
    for (const [method, call] of Object.entries(methods)) {
      current = `${resource}.${method}`;
      await Promise.resolve(call(client)).then(undefined, () => undefined);
    }
  }
  spy.mockRestore();
  return seen;
}

const leafValues = fc.oneof(
  fc.constantFrom(0, 1, -3, 2.5, '0', '1', '42', '-7', '3.25', '', 'x', '1e3', ' 12', null, undefined, true, false, [], {}, NaN, Infinity),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.integer(), fc.integer().map(String), fc.string({ maxLength: 6 }), fc.constant(null)), { maxKeys: 3 }),
  fc.anything({ maxDepth: 1 }),
);

/** Values shaped like the schema's input, with every leaf anything from valid to absurd. */
function valuesFor(schema: z.ZodType, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 6) return leafValues;
  if (schema instanceof z.ZodPipe) return valuesFor(schema.def.in as z.ZodType, depth + 1);
  if (schema instanceof z.ZodOptional) return fc.oneof(fc.constant(undefined), valuesFor(schema.unwrap() as z.ZodType, depth + 1));
  if (schema instanceof z.ZodArray) return fc.oneof(fc.array(valuesFor(schema.element as z.ZodType, depth + 1), { maxLength: 3 }), leafValues);
  if (schema instanceof z.ZodObject) {
    const shape = schema.shape as Record<string, z.ZodType>;
    const record = fc.record(Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, valuesFor(field, depth + 1)])), {
      requiredKeys: Object.keys(shape).filter((_, index) => index % 2 === 0),
    });
    return fc.oneof({ weight: 8, arbitrary: record }, { weight: 1, arbitrary: leafValues });
  }
  return leafValues;
}

describe('answer readers agree with zod', () => {
  let schemas: Array<[string, z.ZodType]>;
  beforeAll(async () => {
    // Beside the endpoints' schemas, shapes the endpoints do not use yet, with every piece optional.
    const pieces = z.object({
      a: count.optional(),
      b: z.string().optional(),
      c: z.array(text).optional(),
      d: identifier,
      e: z.object({ f: flag, g: z.array(z.object({ h: count })) }).optional(),
    });
    schemas = [...(await answerSchemas()), ['pieces', pieces]];
  });

  it('every endpoint of every resource is covered, and every answer schema has a reader', () => {
    const client = offlineClient();
    for (const [resource, methods] of Object.entries(calls)) {
      const prototype = Object.getPrototypeOf((client as unknown as Record<string, object>)[resource]);
      // `links.watch` and `links.watchTotals` tell watchers of this client's changes and reads: no request, no answer to read.
      const names = Object.getOwnPropertyNames(prototype).filter(
        (name) => name !== 'constructor' && !(resource === 'links' && (name === 'watch' || name === 'watchTotals')),
      );
      expect(Object.keys(methods).sort()).toEqual(names.sort());
    }
    expect(schemas.map(([name]) => name).filter((name) => name !== 'pieces')).toHaveLength(
      Object.values(calls).reduce((sum, methods) => sum + Object.keys(methods).length, 0),
    );
    for (const [name, schema] of schemas) expect([name, readerOf(schema) !== undefined]).toEqual([name, true]);
  });

  it('same verdict and same value on values shaped like each answer', () => {
    for (const [name, schema] of schemas) {
      const read = readerOf(schema)!;
      fc.assert(
        fc.property(valuesFor(schema), (value) => {
          const fast = read(value);
          const slow = schema.safeParse(value);
          if (fast instanceof Rejected) {
            if (slow.success) throw new Error(`${name}: the reader refused what zod accepts: ${JSON.stringify(value)}`);
          } else {
            if (!slow.success) throw new Error(`${name}: the reader accepted what zod refuses: ${JSON.stringify(value)}`);
            deepStrictEqual(fast, slow.data, name);
          }
        }),
        { numRuns: 300 },
      );
    }
  });

  it('same verdict on arbitrary JSON', () => {
    for (const [name, schema] of schemas) {
      const read = readerOf(schema)!;
      fc.assert(
        fc.property(fc.jsonValue(), (value) => {
          const fast = read(value);
          const slow = schema.safeParse(value);
          expect([name, fast instanceof Rejected]).toEqual([name, !slow.success]);
          if (slow.success) deepStrictEqual(fast, slow.data, name);
        }),
        { numRuns: 100 },
      );
    }
  });
});

describe('isDecimalString', () => {
  it('accepts exactly what /^-?\\d+(\\.\\d+)?$/ accepts', () => {
    const decimalish = fc.stringMatching(/^[-+ .0-9e٣]{0,8}$/);
    fc.assert(
      fc.property(fc.oneof(decimalish, fc.string(), fc.double().map(String)), (value) => {
        expect([value, isDecimalString(value)]).toEqual([value, /^-?\d+(\.\d+)?$/.test(value)]);
      }),
      { numRuns: 3000 },
    );
  });
});
