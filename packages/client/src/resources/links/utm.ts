import * as z from "zod/v4";

/** The campaign fields of Google's UTM convention, written into a link's `parameters` as `utm_<field>`. */
export const UTM_FIELDS = ["source", "medium", "campaign", "term", "content"] as const;
export type UtmField = (typeof UTM_FIELDS)[number];

/** Longer is not a campaign name: analytics tools cut such values, and a crafted megabyte stops here. */
const MAX_UTM_LENGTH = 500;

const utmValue = z
  .string("must be text")
  .max(MAX_UTM_LENGTH, `must be at most ${MAX_UTM_LENGTH} characters`)
  .refine((value) => value.trim() !== "", "must not be empty");

export const UtmSchema = z.strictObject(
  Object.fromEntries(UTM_FIELDS.map((field) => [field, utmValue.optional()])) as Record<UtmField, z.ZodOptional<typeof utmValue>>,
  `must be an object of ${UTM_FIELDS.join(", ")}`,
);
export type Utm = z.output<typeof UtmSchema>;

interface Parameter {
  name: string;
  value: string;
}

/**
 * A checked link body as the API takes it: the `utm` fields become `utm_<field>` parameters,
 * replacing parameters of the same name; the other parameters keep their order.
 */
export function withUtm<T extends { utm?: Utm; parameters?: Parameter[] }>(body: T): Omit<T, "utm"> {
  const { utm, ...rest } = body;
  if (utm === undefined) return rest;
  const written = UTM_FIELDS.filter((field) => utm[field] !== undefined).map((field) => ({ name: `utm_${field}`, value: utm[field]!.trim() }));
  if (written.length === 0) return rest;
  const replaced = new Set(written.map((parameter) => parameter.name));
  return { ...rest, parameters: [...(rest.parameters ?? []).filter((parameter) => !replaced.has(parameter.name)), ...written] };
}
