import type * as z from "zod/v4";
import { LinkCreateSchema, QR_DATA_SCHEMAS, type QrType } from "@linkshort/client/core";

/** The client's own message for one field, so that the form says exactly what the client would. */
function fieldError(schema: z.ZodType, value: unknown): string | undefined {
  const result = schema.safeParse(value);
  return result.success ? undefined : result.error.issues[0]?.message;
}

const optional = (schema: z.ZodType) => (value: string | undefined) => (value ? fieldError(schema, value) : undefined);

/** `useForm` validation for links, from the client's schema. */
export const linkValidation = {
  url: (value: string | undefined) =>
    value ? fieldError(LinkCreateSchema.shape.url, value.trim()) : "The URL is required",
  custom: optional(LinkCreateSchema.shape.custom),
  metatitle: optional(LinkCreateSchema.shape.metatitle),
};

/** The message for a QR code's data, from the client's schema for its type. */
export function qrDataError(type: QrType, data: unknown): string | undefined {
  return fieldError(QR_DATA_SCHEMAS[type], data);
}
