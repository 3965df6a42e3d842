import * as z from "zod/v4";
import type { PagePromise } from "../pagination";
import { reshaped } from "../internal/readers";
import { validate } from "../internal/validate";
import { colour, count, email, httpUrl, identifier, logo, nonEmpty, optionalText, phone, required, text, timestamp } from "./fields";
import {
  MessageSchema,
  pagedList,
  PaginationSchema,
  Resource,
  StatisticsSchema,
  type MessageResult,
  type PaginationInput,
  type RequestOptions,
} from "./shared";

export const QR_TYPES = ["text", "vcard", "link", "email", "phone", "sms", "wifi"] as const;
export type QrType = (typeof QR_TYPES)[number];

export const WIFI_ENCRYPTIONS = ["WPA", "WEP", "nopass"] as const;

export const VcardDataSchema = z
  .strictObject({
    firstname: optionalText,
    lastname: optionalText,
    organization: optionalText,
    phone: phone.optional(),
    cell: phone.optional(),
    fax: phone.optional(),
    email: email.optional(),
    site: httpUrl.optional(),
    street: optionalText,
    city: optionalText,
    state: optionalText,
    country: optionalText,
    zip: optionalText,
  })
  .refine((card) => Boolean(card.firstname || card.lastname || card.organization), {
    message: "a vCard needs a first name, last name or organization",
    path: ["firstname"],
  });

/** What `data` must be for each QR type. */
export const QR_DATA_SCHEMAS = {
  text: z.string(required("must be text")).min(1, "must not be empty").max(1000, "must be at most 1000 characters"),
  link: httpUrl,
  phone,
  email: z.strictObject({ email, subject: optionalText, body: optionalText }, "must be {email, subject?, body?}"),
  sms: z.strictObject({ phone, message: optionalText }, "must be {phone, message?}"),
  wifi: z.strictObject(
    {
      ssid: nonEmpty,
      password: optionalText,
      encryption: z.enum(WIFI_ENCRYPTIONS, `must be one of ${WIFI_ENCRYPTIONS.join(", ")}`).optional(),
    },
    "must be {ssid, password?, encryption?}",
  ),
  vcard: VcardDataSchema,
} satisfies Record<QrType, z.ZodType>;

export type QrData = { [T in QrType]: { type: T; data: z.input<(typeof QR_DATA_SCHEMAS)[T]> } }[QrType];

const qrAppearance = {
  background: colour.optional().describe("Background colour written rgb(r,g,b); default white"),
  foreground: colour.optional().describe("Foreground colour written rgb(r,g,b); default black"),
  logo: logo.optional().describe("URL of a .png or .jpg image placed in the middle"),
};

function qrSchema<Shape extends z.ZodRawShape>(shape: Shape) {
  return z
    .strictObject({
      type: z.enum(QR_TYPES, `must be one of ${QR_TYPES.join(", ")}`).describe("What the QR code holds: link, text, email, phone, sms, wifi or vcard"),
      data: z
        .unknown()
        .describe(
          "Depends on type. link: a URL string. text: a string (at most 1000 characters). phone: a phone number string. " +
            "email: {email, subject?, body?}. sms: {phone, message?}. wifi: {ssid, password?, encryption?: WPA, WEP or nopass}. " +
            "vcard: {firstname?, lastname?, organization?, phone?, cell?, fax?, email?, site?, street?, city?, state?, country?, zip?} with at least a name or organization",
        ),
      ...shape,
    })
    .superRefine((input, context) => {
      const { type, data } = input as { type: QrType; data: unknown };
      const result = QR_DATA_SCHEMAS[type].safeParse(data);
      if (result.success) return;
      for (const issue of result.error.issues) {
        context.addIssue({ code: "custom", message: issue.message, path: ["data", ...issue.path] });
      }
    });
}

export const QrCodeCreateSchema = qrSchema({ ...qrAppearance, name: optionalText.describe("A name to find the QR code by") });
export type QrCodeCreateInput = QrData & { background?: string; foreground?: string; logo?: string; name?: string };

export const QrCodeUpdateSchema = qrSchema(qrAppearance);
export type QrCodeUpdateInput = QrData & { background?: string; foreground?: string; logo?: string };

export const QrCodeSchema = z.object({ id: identifier, link: text, scans: count, name: text, date: timestamp });
export type QrCode = z.output<typeof QrCodeSchema>;

export const QrCodeCreatedSchema = z.object({ id: identifier, link: text });
export type QrCodeCreated = z.output<typeof QrCodeCreatedSchema>;

export const QrCodeWithStatsSchema = reshaped(z.object({ details: QrCodeSchema, data: StatisticsSchema }), ({ details, data }) => ({ details, stats: data }));
export type QrCodeWithStats = z.output<typeof QrCodeWithStatsSchema>;

const QrCodePage = pagedList(QrCodeSchema, "qrs");

export class QrCodesResource extends Resource {
  list(params?: PaginationInput, options?: RequestOptions): PagePromise<QrCode> {
    return this.pagedList("qrCodes.list", "/api/qr", QrCodePage, PaginationSchema, params, options);
  }

  /** One QR code and its scan statistics. */
  async get(id: number, options?: RequestOptions): Promise<QrCodeWithStats> {
    const checked = this.id("qrCodes.get", id);
    return this.core.request({ method: "GET", path: `/api/qr/${checked}` }, QrCodeWithStatsSchema, options);
  }

  /** Creates a QR code; `data` must suit its `type`. Never retried once it may have reached the server. */
  async create(input: QrCodeCreateInput, options?: RequestOptions): Promise<QrCodeCreated> {
    const body = validate(QrCodeCreateSchema, input, "qrCodes.create");
    return this.core.request({ method: "POST", path: "/api/qr/add", body }, QrCodeCreatedSchema, options);
  }

  async update(id: number, input: QrCodeUpdateInput, options?: RequestOptions): Promise<MessageResult> {
    const checked = this.idAndBody("qrCodes.update", id, QrCodeUpdateSchema, input);
    return this.core.request({ method: "PUT", path: `/api/qr/${checked.id}/update`, body: checked.body }, MessageSchema, options);
  }

  async delete(id: number, options?: RequestOptions): Promise<MessageResult> {
    const checked = this.id("qrCodes.delete", id);
    return this.core.request({ method: "DELETE", path: `/api/qr/${checked}/delete` }, MessageSchema, options);
  }
}
