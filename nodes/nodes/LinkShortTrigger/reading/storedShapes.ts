import { z } from 'zod/v4';

/**
 * The pieces the states kept in static data are declared with, as zod schemas: each state's schema
 * gives its type (`z.infer`) and the check of what is stored (static data can hold anything: edited
 * by hand, kept by another version). A check only asks whether the stored value has the shape
 * (`safeParse(...).success`); the value itself is gone on from as stored, unknown keys and all.
 */
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
/** The guard a schema gives. */
export const matches =
	<T>(schema: z.ZodType<T>) =>
	(value: unknown): value is T =>
		schema.safeParse(value).success;

export const idSchema = z.int().nonnegative();
export const idListSchema = z.array(idSchema);
/**
 * An object whose every own enumerable value is `value` (any object but an array, as `Object.values`
 * reads it); not `z.record`, which also asks for a plain object and reads symbol keys.
 */
export const mapOf = <T extends z.ZodType>(value: T) => z.object({}).catchall(value);
export const countMapSchema = mapOf(z.number().nonnegative());
export const dateOrNullSchema = z.string().nullable();
/** A finite number of epoch milliseconds. */
export const timeSchema = z.number();
export const isTime = matches(timeSchema);
/** The latest moment a JavaScript Date holds (epoch milliseconds). */
const LAST_MOMENT = 8.64e15;
/** A moment the events compute with: whole epoch milliseconds a Date can hold, not before 1970. */
export const momentSchema = z.int().min(0).max(LAST_MOMENT);
