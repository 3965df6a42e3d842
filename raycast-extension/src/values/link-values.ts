import {
  REDIRECT_TYPES,
  UTM_FIELDS,
  type LinkCreateInput,
  type LinkDetails,
  type LinkUpdateInput,
  type RedirectType,
  type Utm,
} from "@linkshort/client/core";
import { aliasFromShortUrl, formatTimestamp, timestampParts } from "@linkshort/client/values";

/** The names of the client's link inputs that take a free text, on creation and on update alike. */
type TextInputName = {
  [K in keyof LinkCreateInput & keyof LinkUpdateInput]-?: NonNullable<LinkCreateInput[K]> extends string
    ? string extends NonNullable<LinkCreateInput[K]>
      ? K
      : never
    : never;
}[keyof LinkCreateInput & keyof LinkUpdateInput];

/** A link's optional text that the form shows as typed: trimmed, sent when filled in (a new link) or changed (an edit). */
interface LinkTextField {
  name: TextInputName;
  title: string;
  control: "field" | "area";
  placeholder?: string;
  info?: string;
  /** Its value in a loaded link. */
  fromDetails: (details: LinkDetails) => string;
}

/**
 * The link's plain text fields, in the form's order (after the expiry): an entry here is the
 * form's field, its blank and loaded values, and its part of both inputs.
 */
const TEXT_FIELDS = [
  { name: "metatitle", title: "Meta Title", control: "field", fromDetails: (details) => details.title },
  {
    name: "metadescription",
    title: "Meta Description",
    control: "area",
    fromDetails: (details) => details.description,
  },
] as const satisfies readonly LinkTextField[];

type LinkTextName = (typeof TEXT_FIELDS)[number]["name"];

export const LINK_TEXT_FIELDS: ReadonlyArray<LinkTextField & { name: LinkTextName }> = TEXT_FIELDS;

const textValues = (valueOf: (field: LinkTextField) => string) =>
  Object.fromEntries(LINK_TEXT_FIELDS.map((field) => [field.name, valueOf(field)])) as Record<LinkTextName, string>;

/**
 * The link form's fields, with one text each of LINK_TEXT_FIELDS. `type` is "" in an edit for
 * "unchanged": the API does not return it.
 */
export interface LinkFormValues extends Record<LinkTextName, string> {
  url: string;
  custom: string;
  domain: string;
  type: string;
  password: string;
  expiry: Date | null;
  geotarget: string;
  devicetarget: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  utmTerm: string;
  utmContent: string;
}

/** The form field of each UTM field of the client's input. */
export const UTM_FORM_FIELDS = {
  source: "utmSource",
  medium: "utmMedium",
  campaign: "utmCampaign",
  term: "utmTerm",
  content: "utmContent",
} as const satisfies Record<(typeof UTM_FIELDS)[number], keyof LinkFormValues>;

const emptyUtm = { utmSource: "", utmMedium: "", utmCampaign: "", utmTerm: "", utmContent: "" };

/** The UTM fields filled in, as the client's `utm` (undefined when none is). */
export function utmInput(values: LinkFormValues): Utm | undefined {
  const utm: Utm = {};
  for (const field of UTM_FIELDS) {
    const value = values[UTM_FORM_FIELDS[field]].trim();
    if (value) utm[field] = value;
  }
  return Object.keys(utm).length > 0 ? utm : undefined;
}

/** Targeting as the form writes it: one `name = https://…` a line. */
function targetLines(text: string): Array<[name: string, link: string]> {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .map((line) => {
      const at = line.indexOf("=");
      return at < 0 ? [line, ""] : [line.slice(0, at).trim(), line.slice(at + 1).trim()];
    });
}

export const geoTargets = (text: string) => targetLines(text).map(([location, link]) => ({ location, link }));
export const deviceTargets = (text: string) => targetLines(text).map(([device, link]) => ({ device, link }));

export function targetsToText(map: Record<string, string>): string {
  return Object.entries(map)
    .map(([name, link]) => `${name} = ${link}`)
    .join("\n");
}

const localTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** An API timestamp read as wall-clock time here, as the form writes one. */
export function dateFromTimestamp(value: string | null): Date | null {
  const parts = value ? timestampParts(value.length === 10 ? `${value} 00:00:00` : value) : null;
  if (!parts) return null;
  const [year, month, day, hour, minute, second] = parts;
  return new Date(year, month - 1, day, hour, minute, second);
}

/** The values for a new link: empty, with the Default Domain preference as the domain. */
export function newLinkValues(url: string, defaultDomain: string | undefined): LinkFormValues {
  return {
    url,
    custom: "",
    domain: defaultDomain?.trim() ?? "",
    type: "direct",
    password: "",
    expiry: null,
    ...textValues(() => ""),
    geotarget: "",
    devicetarget: "",
    ...emptyUtm,
  };
}

/**
 * The values of a loaded link, for editing: every field the API returns. The alias and domain
 * come from its short URL (the domain is "" when it is the service's own); the API does not return
 * the redirect type or the password, so they start as "unchanged".
 */
export function linkValuesFromDetails(details: LinkDetails, serviceUrl: string): LinkFormValues {
  const custom = aliasFromShortUrl(details.shorturl);
  const origin = details.shorturl.slice(0, details.shorturl.lastIndexOf(`/${custom}`));
  return {
    url: details.longurl,
    custom,
    domain: origin === serviceUrl ? "" : origin,
    type: "",
    password: "",
    expiry: dateFromTimestamp(details.expiry),
    ...textValues((field) => field.fromDetails(details)),
    geotarget: targetsToText(details.location),
    devicetarget: targetsToText(details.device),
    // The API does not return a link's parameters: UTM fields start empty, and only those typed are sent.
    ...emptyUtm,
  };
}

/** The client's input for a new link: only what was filled in, the expiry in the local time zone. */
export function toLinkInput(values: LinkFormValues): LinkCreateInput {
  const input: LinkCreateInput = { url: values.url.trim() };
  if (values.custom.trim()) input.custom = values.custom.trim();
  if (values.domain) input.domain = values.domain;
  const type = redirectType(values.type);
  if (type && type !== "direct") input.type = type;
  if (values.password) input.password = values.password;
  if (values.expiry) input.expiry = formatTimestamp(values.expiry, localTimeZone());
  for (const { name } of LINK_TEXT_FIELDS) if (values[name].trim()) input[name] = values[name].trim();
  if (values.geotarget.trim()) input.geotarget = geoTargets(values.geotarget);
  if (values.devicetarget.trim()) input.devicetarget = deviceTargets(values.devicetarget);
  const utm = utmInput(values);
  if (utm) input.utm = utm;
  return input;
}

const redirectType = (value: string): RedirectType | undefined => REDIRECT_TYPES.find((type) => type === value);

const sameText = (a: string, b: string) => a.trim() === b.trim();

/**
 * The client's input for an edit: the long URL, which the API requires on every update, and only
 * the fields the user changed from `initial`. A field left alone is never sent, so an edit never
 * moves a link to another domain or clears what the form could not show.
 */
export function toLinkUpdate(initial: LinkFormValues, values: LinkFormValues, serviceUrl: string): LinkUpdateInput {
  const input: LinkUpdateInput = { url: values.url.trim() };
  if (!sameText(initial.custom, values.custom)) input.custom = values.custom.trim();
  // The service's own domain has no entry of its own in the API: it is named by the service URL.
  if (initial.domain !== values.domain) input.domain = values.domain || serviceUrl;
  const type = redirectType(values.type);
  if (type && values.type !== initial.type) input.type = type;
  if (values.password) input.password = values.password;
  if (values.expiry && values.expiry.getTime() !== initial.expiry?.getTime())
    input.expiry = formatTimestamp(values.expiry, localTimeZone());
  for (const { name } of LINK_TEXT_FIELDS)
    if (!sameText(initial[name], values[name])) input[name] = values[name].trim();
  if (!sameText(initial.geotarget, values.geotarget)) input.geotarget = geoTargets(values.geotarget);
  if (!sameText(initial.devicetarget, values.devicetarget)) input.devicetarget = deviceTargets(values.devicetarget);
  const utm = utmInput(values);
  if (utm) input.utm = utm;
  return input;
}
