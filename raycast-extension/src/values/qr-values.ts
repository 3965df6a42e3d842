import {
  QR_DATA_SCHEMAS,
  QR_TYPES,
  QrCodeCreateSchema,
  WIFI_ENCRYPTIONS,
  type QrCodeCreateInput,
  type QrCodeUpdateInput,
  type QrData,
  type QrType,
} from "@linkshort/client/core";
import { toRgbColour } from "@linkshort/client/values";

/** The QR form's fields: one set for every type, each type showing its own. */
export interface QrFormValues {
  type: string;
  name: string;
  text: string;
  email: string;
  subject: string;
  phone: string;
  cell: string;
  message: string;
  ssid: string;
  encryption: string;
  wifiPassword: string;
  firstname: string;
  lastname: string;
  organization: string;
  site: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  foreground: string;
  background: string;
  logo: string;
}

export const QR_TYPE_TITLES: Record<QrType, string> = {
  link: "Link",
  text: "Text",
  email: "Email",
  phone: "Phone Call",
  sms: "SMS",
  wifi: "Wi-Fi Network",
  vcard: "Contact Card (vCard)",
};

export const WIFI_ENCRYPTION_TITLES: Record<(typeof WIFI_ENCRYPTIONS)[number], string> = {
  WPA: "WPA/WPA2",
  WEP: "WEP",
  nopass: "None (open network)",
};

export function emptyQrValues(link = ""): QrFormValues {
  return {
    type: "link",
    name: "",
    text: link,
    email: "",
    subject: "",
    phone: "",
    cell: "",
    message: "",
    ssid: "",
    encryption: "WPA",
    wifiPassword: "",
    firstname: "",
    lastname: "",
    organization: "",
    site: "",
    street: "",
    city: "",
    state: "",
    zip: "",
    country: "",
    foreground: "",
    background: "",
    logo: "",
  };
}

const compact = (values: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(values)
      .map(([key, value]) => [key, value.trim()])
      .filter(([, value]) => value !== ""),
  );

const qrType = (value: string): QrType => QR_TYPES.find((type) => type === value) ?? "link";

/** The type and data the client expects, from the form's fields for the chosen type. */
export function qrData(values: QrFormValues): QrData {
  const type = qrType(values.type);
  switch (type) {
    case "link":
    case "text":
      return { type, data: values.text.trim() };
    case "phone":
      return { type, data: values.phone.trim() };
    case "email":
      return {
        type,
        data: { email: values.email.trim(), ...compact({ subject: values.subject, body: values.message }) },
      };
    case "sms":
      return { type, data: { phone: values.phone.trim(), ...compact({ message: values.message }) } };
    case "wifi": {
      const encryption = WIFI_ENCRYPTIONS.find((candidate) => candidate === values.encryption) ?? "WPA";
      const password = encryption === "nopass" ? {} : compact({ password: values.wifiPassword });
      return { type, data: { ssid: values.ssid.trim(), encryption, ...password } };
    }
    case "vcard":
      return {
        type,
        data: compact({
          firstname: values.firstname,
          lastname: values.lastname,
          organization: values.organization,
          phone: values.phone,
          cell: values.cell,
          email: values.email,
          site: values.site,
          street: values.street,
          city: values.city,
          state: values.state,
          zip: values.zip,
          country: values.country,
        }),
      };
  }
}

function appearance(values: QrFormValues) {
  const looks: { foreground?: string; background?: string; logo?: string } = {};
  if (values.foreground.trim()) looks.foreground = toRgbColour(values.foreground.trim());
  if (values.background.trim()) looks.background = toRgbColour(values.background.trim());
  if (values.logo.trim()) looks.logo = values.logo.trim();
  return looks;
}

export function toQrCreateInput(values: QrFormValues): QrCodeCreateInput {
  return { ...qrData(values), ...appearance(values), ...(values.name.trim() ? { name: values.name.trim() } : {}) };
}

export function toQrUpdateInput(values: QrFormValues): QrCodeUpdateInput {
  return { ...qrData(values), ...appearance(values) };
}

/** Which form field shows a problem with a key of the data (or with the whole data, for a plain value). */
const FIELD_OF_DATA_KEY: Record<string, keyof QrFormValues> = {
  email: "email",
  subject: "subject",
  body: "message",
  phone: "phone",
  cell: "cell",
  message: "message",
  ssid: "ssid",
  password: "wifiPassword",
  encryption: "encryption",
  firstname: "firstname",
  lastname: "lastname",
  organization: "organization",
  site: "site",
  street: "street",
  city: "city",
  state: "state",
  zip: "zip",
  country: "country",
};

/** The first problem with the form's data, on the field that shows it, in the client's words. */
export function qrFormIssue(values: QrFormValues): { field: keyof QrFormValues; message: string } | undefined {
  const { type, data } = qrData(values);
  const result = QR_DATA_SCHEMAS[type].safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0];
    if (issue) {
      const key = issue.path[0];
      const whole = type === "phone" ? "phone" : "text";
      const field = typeof key === "string" ? (FIELD_OF_DATA_KEY[key] ?? whole) : whole;
      return { field, message: issue.message };
    }
  }
  for (const field of ["foreground", "background", "logo"] as const) {
    const value = appearance(values)[field];
    if (value === undefined) continue;
    const checked = QrCodeCreateSchema.shape[field].safeParse(value);
    if (!checked.success) return { field, message: checked.error.issues[0]?.message ?? "is not valid" };
  }
  return undefined;
}
