import type * as z from "zod/v4";
import { LinkCreateSchema, UtmSchema } from "@linkshort/client/core";
import { deviceTargets, geoTargets } from "./link-values";

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
  utmSource: optional(UtmSchema.shape.source),
  utmMedium: optional(UtmSchema.shape.medium),
  utmCampaign: optional(UtmSchema.shape.campaign),
  utmTerm: optional(UtmSchema.shape.term),
  utmContent: optional(UtmSchema.shape.content),
};

/** The client's message for a targeting field, with the line it is about. */
export function targetsError(text: string, key: "location" | "device"): string | undefined {
  const result =
    key === "location"
      ? LinkCreateSchema.shape.geotarget.safeParse(geoTargets(text))
      : LinkCreateSchema.shape.devicetarget.safeParse(deviceTargets(text));
  if (result.success) return undefined;
  const issue = result.error.issues[0];
  if (!issue) return undefined;
  const [line, field] = issue.path;
  const what = field === "link" ? "the link" : key === "location" ? "the country" : "the device";
  return typeof line === "number" ? `line ${line + 1}: ${what} ${issue.message}` : issue.message;
}
