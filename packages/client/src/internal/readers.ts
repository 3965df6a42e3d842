/**
 * Plain-JavaScript readers derived from the answer schemas.
 *
 * Every answer passes through its schema, and on a loopback round trip zod's general machinery
 * (a payload and an issue list per field) costs more than everything else the client does. The
 * schemas stay the one definition of each shape: each leaf is built with `normaliser` and each
 * reshaping with `reshaped`, which register the plain function they wrap, and `readerOf` composes
 * those functions along the schema's objects, arrays and optionals. Anything a reader does not
 * accept goes to zod itself, which stays the judge of what is valid and the author of every message.
 */
import * as z from "zod/v4";

/** What a reader returns for a value it does not accept; a leaf's message is what zod reports for it. */
export class Rejected {
  constructor(
    readonly message: string,
    readonly path: PropertyKey[] = [],
  ) {}
}

type Reader = (value: unknown) => unknown;

const registered = new WeakMap<z.core.$ZodType, Reader>();
const compiled = new WeakMap<z.core.$ZodType, Reader | null>();

function report(context: z.RefinementCtx, rejected: Rejected): never {
  context.addIssue({ code: "custom", message: rejected.message, path: rejected.path });
  return z.NEVER;
}

/** A leaf of an answer: any value in, `read`'s result out, or `read`'s rejection as the issue. */
export function normaliser<T>(read: (value: unknown) => T | Rejected) {
  const schema = z.unknown().transform((value, context): T => {
    const result = read(value);
    return result instanceof Rejected ? report(context, result) : result;
  });
  registered.set(schema, read);
  return schema;
}

/** `schema.transform(finish)`, with `finish` known to readers. */
export function reshaped<S extends z.ZodType, T>(schema: S, finish: (value: z.output<S>) => T | Rejected) {
  const result = schema.transform((value, context): T => {
    const finished = finish(value);
    return finished instanceof Rejected ? report(context, finished) : finished;
  });
  const inner = readerOf(schema);
  if (inner) {
    registered.set(result, (value) => {
      const read = inner(value);
      return read instanceof Rejected ? read : finish(read as z.output<S>);
    });
  }
  return result;
}

const REJECTED = new Rejected("rejected");

/** A JSON object: not null and not an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function compile(schema: z.core.$ZodType): Reader | undefined {
  const leaf = registered.get(schema);
  if (leaf) return leaf;
  if (schema instanceof z.ZodOptional) {
    const inner = readerOf(schema.unwrap());
    if (!inner) return undefined;
    return (value) => (value === undefined ? undefined : inner(value));
  }
  if (schema instanceof z.ZodArray) {
    const element = readerOf(schema.element);
    if (!element) return undefined;
    return (value) => {
      if (!Array.isArray(value)) return REJECTED;
      const items = new Array<unknown>(value.length);
      for (let index = 0; index < value.length; index += 1) {
        const read = element(value[index]);
        if (read instanceof Rejected) return read;
        items[index] = read;
      }
      return items;
    };
  }
  if (schema instanceof z.ZodString) {
    return (schema.def.checks ?? []).length === 0 ? (value) => (typeof value === "string" ? value : REJECTED) : undefined;
  }
  if (schema instanceof z.ZodObject) {
    if (schema.def.catchall) return undefined;
    const shape: Record<string, z.core.$ZodType> = schema.shape;
    const keys = Object.keys(shape);
    const fields = keys.map((key) => shape[key]!);
    const reads = fields.map((field) => readerOf(field));
    if (!reads.every((read): read is Reader => read !== undefined)) return undefined;
    const optional = fields.map((field) => field instanceof z.ZodOptional);
    return (value) => {
      if (!isPlainObject(value)) return REJECTED;
      const result: Record<string, unknown> = {};
      for (let index = 0; index < keys.length; index += 1) {
        const key = keys[index]!;
        const field = reads[index]!(value[key]);
        if (field instanceof Rejected) return field;
        // zod leaves an optional key out when it is absent and reads as undefined.
        if (field === undefined && optional[index] && !(key in value)) continue;
        result[key] = field;
      }
      return result;
    };
  }
  return undefined;
}

/** The plain reader of a schema built from the pieces above, or undefined if it has parts only zod can read. */
export function readerOf(schema: z.core.$ZodType): Reader | undefined {
  let reader = compiled.get(schema);
  if (reader === undefined) {
    reader = compile(schema) ?? null;
    compiled.set(schema, reader);
  }
  return reader ?? undefined;
}
