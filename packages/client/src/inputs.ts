/**
 * The one definition of every input the client accepts. Each is checked before a request leaves,
 * and what passes is sent as given. Front ends derive their dropdowns and form checks from here.
 */
import * as z from "zod/v4";
import { UtmSchema } from "./utm";

export const PIXEL_TYPES = [
  "gtmpixel",
  "gapixel",
  "fbpixel",
  "adwordspixel",
  "linkedinpixel",
  "twitterpixel",
  "adrollpixel",
  "quorapixel",
  "pinterest",
  "bing",
  "snapchat",
  "reddit",
] as const;
export type PixelType = (typeof PIXEL_TYPES)[number];

export const QR_TYPES = ["text", "vcard", "link", "email", "phone", "sms", "wifi"] as const;
export type QrType = (typeof QR_TYPES)[number];

export const REDIRECT_TYPES = ["direct", "frame", "splash"] as const;
export type RedirectType = (typeof REDIRECT_TYPES)[number];

export const LINK_ORDERS = ["date", "click"] as const;
export const PLAN_TYPES = ["monthly", "yearly", "lifetime"] as const;
export const USER_FILTERS = ["admin", "free", "pro"] as const;
export const WIFI_ENCRYPTIONS = ["WPA", "WEP", "nopass"] as const;

export const ALIAS_PATTERN = /^[A-Za-z0-9-]{3,50}$/;
export const TIMESTAMP_PATTERN = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
export const RGB_PATTERN = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/;
/** The longest e-mail address SMTP carries (RFC 5321: a 256-octet path, less its angle brackets). */
export const MAX_EMAIL_LENGTH = 254;
export const USERNAME_PATTERN = /^[A-Za-z0-9]{3,20}$/;
const PHONE_PATTERN = /^\+?[0-9][0-9 ().-]{2,30}$/;
const IMAGE_PATTERN = /\.(png|jpe?g)$/i;

export function isHttpUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/**
 * `local@domain.tld`: one `@` with text before it, no white space, and a dot inside the domain
 * with text on both sides. One pass over the value: the pattern this replaces
 * (/^[^\s@]+@[^\s@]+\.[^\s@]+$/) backtracked quadratically over a domain of dots.
 */
export function isEmail(value: string): boolean {
  if (value.length > MAX_EMAIL_LENGTH || /\s/.test(value)) return false;
  const at = value.indexOf("@");
  if (at < 1 || value.indexOf("@", at + 1) !== -1) return false;
  const domain = value.slice(at + 1);
  const dot = domain.indexOf(".", 1);
  return dot !== -1 && dot < domain.length - 1;
}

export function isTimestamp(value: string): boolean {
  const match = TIMESTAMP_PATTERN.exec(value);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second
  );
}

export function isRgbColour(value: string): boolean {
  const match = RGB_PATTERN.exec(value);
  return match !== null && match.slice(1).every((part) => Number(part) <= 255);
}

/** Formats a date as the API's `YYYY-MM-DD HH:MM:SS`, as wall-clock time in `timeZone` (UTC by default). */
export function formatTimestamp(date: Date, timeZone = "UTC"): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    })
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

const required = (what = "is required") => ({ error: (issue: { input: unknown }) => (issue.input === undefined ? "is required" : what) });

export const httpUrl = z.string(required("must be a text URL")).refine(isHttpUrl, "must be a valid http or https URL");
export const timestampInput = z.string(required()).refine(isTimestamp, "must be a date and time formatted YYYY-MM-DD HH:MM:SS");
const nonEmpty = z.string(required("must be text")).min(1, "must not be empty");
const optionalText = z.string("must be text").optional();
const colour = z.string("must be text").refine(isRgbColour, "must be a colour written rgb(r,g,b) with each value from 0 to 255");
const logo = z.string("must be text").refine((value) => IMAGE_PATTERN.test(value.split(/[?#]/)[0] ?? ""), "must be the URL or path of a .png or .jpg image");
// The length is checked first, and alone: a longer value is refused before any other check reads it.
const email = z
  .string(required("must be text"))
  .max(MAX_EMAIL_LENGTH, { message: `must be at most ${MAX_EMAIL_LENGTH} characters`, abort: true })
  .refine(isEmail, "must be a valid e-mail address");
const phone = z.string(required("must be text")).regex(PHONE_PATTERN, "must be a phone number (digits, spaces, + ( ) . -)");
const password = z.string(required("must be text")).min(5, "must be at least 5 characters");
const positiveInteger = z.number(required("must be a number")).int("must be a whole number").positive("must be positive");

// Ids past Number.MAX_SAFE_INTEGER cannot be held exactly: "9007199254740993" would be sent as ...992.
export const IdSchema = z.union([z.number().int().positive(), z.string().regex(/^[1-9]\d*$/).transform(Number).refine(Number.isSafeInteger)], {
  error: (issue) => (issue.input === undefined ? "is required" : "must be a positive whole number"),
});

export const PaginationSchema = z.strictObject({
  limit: positiveInteger.optional(),
  page: positiveInteger.optional(),
});
/**
 * A list's page size is a number, or `"large"`: as large a page as the account's server gives
 * (see `page-size.ts`), for callers that read many items. The schemas check numbers; the list
 * resolves `"large"` to one before they see it.
 */
export type PageLimit = number | "large";
export type PaginationInput = Omit<z.input<typeof PaginationSchema>, "limit"> & { limit?: PageLimit };

export const LinkListSchema = PaginationSchema.extend({
  order: z.enum(LINK_ORDERS, `must be one of ${LINK_ORDERS.join(", ")}`).optional(),
});
export type LinkListInput = Omit<z.input<typeof LinkListSchema>, "limit"> & { limit?: PageLimit };

export const AccountUpdateSchema = z
  .strictObject({ email: email.optional(), password: password.optional() })
  .refine((input) => input.email !== undefined || input.password !== undefined, {
    message: "give email, password or both",
    path: ["email"],
    when: (payload) => payload.issues.length === 0,
  });
export type AccountUpdateInput = z.input<typeof AccountUpdateSchema>;

export const DomainCreateSchema = z.strictObject({
  domain: httpUrl,
  redirectroot: httpUrl.optional(),
  redirect404: httpUrl.optional(),
});
export type DomainCreateInput = z.input<typeof DomainCreateSchema>;

export const DomainUpdateSchema = z.strictObject({
  redirectroot: httpUrl.optional(),
  redirect404: httpUrl.optional(),
});
export type DomainUpdateInput = z.input<typeof DomainUpdateSchema>;

const geoTarget = z.strictObject({ location: nonEmpty, link: httpUrl });
const deviceTarget = z.strictObject({ device: nonEmpty, link: httpUrl });
const parameter = z.strictObject({ name: nonEmpty, value: z.string("must be text") });

/**
 * On create, `type` may also name a custom splash page by its id (a number) or a CTA overlay as
 * `overlay-<id>`.
 */
export const LinkTypeSchema = z.union(
  [z.enum(REDIRECT_TYPES), z.number().int().positive(), z.string().regex(/^[1-9]\d*$/), z.string().regex(/^overlay-[1-9]\d*$/)],
  { error: `must be ${REDIRECT_TYPES.join(", ")}, a splash page id or overlay-<id>` },
);

const linkFields = {
  url: httpUrl,
  custom: z.string("must be text").regex(ALIAS_PATTERN, "must be 3 to 50 letters, digits or hyphens").optional(),
  password: z.string("must be text").min(1, "must not be empty").optional(),
  domain: httpUrl.optional(),
  expiry: timestampInput.optional(),
  geotarget: z.array(geoTarget, "must be a list of {location, link}").optional(),
  devicetarget: z.array(deviceTarget, "must be a list of {device, link}").optional(),
  parameters: z.array(parameter, "must be a list of {name, value}").optional(),
  /** Campaign fields, written into `parameters` as `utm_source` and so on. */
  utm: UtmSchema.optional(),
  metatitle: optionalText,
  metadescription: optionalText,
};

export const LinkCreateSchema = z.strictObject({ ...linkFields, type: LinkTypeSchema.optional() });
export type LinkCreateInput = z.input<typeof LinkCreateSchema>;

export const LinkUpdateSchema = z.strictObject({
  ...linkFields,
  type: z.enum(REDIRECT_TYPES, `must be one of ${REDIRECT_TYPES.join(", ")}`).optional(),
});
export type LinkUpdateInput = z.input<typeof LinkUpdateSchema>;

const pixelType = z.enum(PIXEL_TYPES, `must be one of ${PIXEL_TYPES.join(", ")}`);

export const PixelCreateSchema = z.strictObject({ type: pixelType, name: nonEmpty, tag: nonEmpty });
export type PixelCreateInput = z.input<typeof PixelCreateSchema>;

export const PixelUpdateSchema = z.strictObject({ name: nonEmpty.optional(), tag: nonEmpty });
export type PixelUpdateInput = z.input<typeof PixelUpdateSchema>;

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

const qrAppearance = { background: colour.optional(), foreground: colour.optional(), logo: logo.optional() };

function qrSchema<Shape extends z.ZodRawShape>(shape: Shape) {
  return z
    .strictObject({ type: z.enum(QR_TYPES, `must be one of ${QR_TYPES.join(", ")}`), data: z.unknown(), ...shape })
    .superRefine((input, context) => {
      const { type, data } = input as { type: QrType; data: unknown };
      const result = QR_DATA_SCHEMAS[type].safeParse(data);
      if (result.success) return;
      for (const issue of result.error.issues) {
        context.addIssue({ code: "custom", message: issue.message, path: ["data", ...issue.path] });
      }
    });
}

export const QrCodeCreateSchema = qrSchema({ ...qrAppearance, name: optionalText });
export type QrCodeCreateInput = QrData & { background?: string; foreground?: string; logo?: string; name?: string };

export const QrCodeUpdateSchema = qrSchema(qrAppearance);
export type QrCodeUpdateInput = QrData & { background?: string; foreground?: string; logo?: string };

export const PlanSubscribeSchema = z.strictObject({
  type: z.enum(PLAN_TYPES, { error: (issue) => (issue.input === undefined ? "is required" : `must be one of ${PLAN_TYPES.join(", ")}`) }),
  expiration: timestampInput.optional(),
});
export type PlanSubscribeInput = z.input<typeof PlanSubscribeSchema>;

export const UserListSchema = z.strictObject({
  filter: z.enum(USER_FILTERS, `must be one of ${USER_FILTERS.join(", ")}`).optional(),
  email: z.string("must be text").min(1, "must not be empty").optional(),
});
export type UserListInput = z.input<typeof UserListSchema>;

export const UserCreateSchema = z.strictObject({
  username: z.string(required("must be text")).regex(USERNAME_PATTERN, "must be 3 to 20 letters or digits"),
  email,
  password,
  planid: positiveInteger.optional(),
  expiration: timestampInput.optional(),
});
export type UserCreateInput = z.input<typeof UserCreateSchema>;
