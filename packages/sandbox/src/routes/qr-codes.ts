import { randomBytes } from "node:crypto";
import { QR_TYPES } from "@linkshort/client/core";
import QRCode from "qrcode";
import { UnstableDateOrder } from "../date-ties";
import { newestFirst, type QrRecord } from "../persistence/state";
import { qrContent } from "../views/addresses";
import { qrUrl } from "../views/addresses";
import { qrView, statsView } from "./answers";
import { timestamp } from "../views/dates";
import { emptyStats } from "../visits/stats";
import { isEmail, Failure, isUrl, mine, ok, oneOf, owned, paginate, removeItem, route, text, type ApiBody, type ApiContext, type Route } from "./shared";

const RGB = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/;

function qrData(type: string, data: unknown): unknown {
  const record = (data ?? {}) as Record<string, unknown>;
  const bad = (what: string) => new Failure(`Please enter valid ${what}.`);
  switch (type) {
    case "text":
      if (typeof data !== "string" || !data.trim()) throw bad("text");
      return data;
    case "link":
      if (!isUrl(data)) throw new Failure("Please enter a valid URL.");
      return data;
    case "phone":
      if (typeof data !== "string" || !/^\+?[0-9][0-9 ().-]{2,30}$/.test(data)) throw bad("phone number");
      return data;
    case "email":
      if (typeof data !== "object" || !isEmail(text(record.email))) throw bad("email");
      return { email: record.email, subject: text(record.subject), body: text(record.body) };
    case "sms":
      if (typeof data !== "object" || !/^\+?[0-9][0-9 ().-]{2,30}$/.test(text(record.phone))) throw bad("phone number");
      return { phone: record.phone, message: text(record.message) };
    case "wifi":
      if (typeof data !== "object" || !text(record.ssid)) throw bad("wifi network name");
      return { ssid: record.ssid, password: text(record.password), encryption: text(record.encryption, "WPA") || "WPA" };
    case "vcard":
      if (typeof data !== "object" || data === null || Array.isArray(data)) throw bad("vCard data");
      if (!text(record.firstname) && !text(record.lastname) && !text(record.organization)) throw bad("vCard name");
      return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, text(value)]));
    default:
      throw new Failure("Invalid QR type.");
  }
}

function colour(value: unknown, fallback: string): string {
  if (value === undefined || value === null || value === "") return fallback;
  const match = RGB.exec(text(value));
  if (!match || match.slice(1).some((part) => Number(part) > 255)) throw new Failure("Please enter a valid color in rgb(r,g,b) format.");
  return text(value);
}

function logo(value: unknown, fallback: string | null): string | null {
  if (value === undefined || value === null || value === "") return fallback;
  if (!/\.(png|jpe?g)$/i.test(text(value).split(/[?#]/)[0] ?? "")) throw new Failure("Logo must be a png or jpg image.");
  return text(value);
}

/** Refuses a QR code whose content does not fit in one (its image could not be drawn). */
function checkQrCapacity(qr: QrRecord, baseUrl: string): void {
  const content = qrContent(qr, baseUrl);
  try {
    QRCode.create(content, {});
  } catch {
    throw new Failure(`The QR data is too long for a QR code (${Buffer.byteLength(content)} bytes once encoded).`);
  }
}

function createQr(context: ApiContext): ApiBody {
  const { body, store } = context;
  const type = text(body.type);
  if (!oneOf(QR_TYPES, type)) throw new Failure("Invalid QR type.");
  const data = qrData(type, body.data);
  let code: string;
  do code = randomBytes(3).toString("hex");
  while (store.state.qrs.some((qr) => qr.code === code));
  const qr = {
    id: store.nextId("qrs"),
    userId: context.user.id,
    code,
    type,
    data,
    background: colour(body.background, "rgb(255,255,255)"),
    foreground: colour(body.foreground, "rgb(0,0,0)"),
    logo: logo(body.logo, null),
    name: text(body.name) || `${type.toUpperCase()} QR code`,
    date: timestamp(context.now),
    stats: emptyStats(),
  };
  checkQrCapacity(qr, context.baseUrl);
  store.state.qrs.push(qr);
  return ok({ id: qr.id, link: qrUrl(qr, context.baseUrl) });
}

function updateQr(context: ApiContext): ApiBody {
  const qr = owned(context.store.state.qrs, context, "QR");
  const { body } = context;
  const type = body.type === undefined ? qr.type : text(body.type);
  if (!oneOf(QR_TYPES, type)) throw new Failure("Invalid QR type.");
  if (body.data === undefined) throw new Failure("Please enter the QR data.");
  const changes = {
    type,
    data: qrData(type, body.data),
    background: colour(body.background, qr.background),
    foreground: colour(body.foreground, qr.foreground),
    logo: logo(body.logo, qr.logo),
  };
  checkQrCapacity({ ...qr, ...changes }, context.baseUrl);
  Object.assign(qr, changes);
  return ok({ message: "QR has been updated successfully." });
}

const unstableDateOrder = new UnstableDateOrder();

export const qrCodeRoutes: Route[] = [
  route("GET", "/api/qr", (c) => {
    const newest = mine(c.store.state.qrs, c).sort(newestFirst);
    const { slice, info } = paginate(c.dateTies === "unstable" ? unstableDateOrder.order(newest) : newest, c);
    return ok({ data: { ...info, qrs: slice.map((qr) => qrView(qr, c.baseUrl, c.mode)) } }, c.mode, true);
  }),
  route("GET", "/api/qr/{id}", (c) => {
    const qr = owned(c.store.state.qrs, c, "QR");
    return ok({ details: qrView(qr, c.baseUrl, c.mode), data: statsView(qr.stats, c.mode, "qr") });
  }),
  route("POST", "/api/qr/add", createQr),
  route("PUT", "/api/qr/{id}/update", updateQr),
  route("DELETE", "/api/qr/{id}/delete", (c) => {
    removeItem(c.store.state.qrs, owned(c.store.state.qrs, c, "QR"));
    return ok({ message: "QR Code has been deleted successfully." });
  }),
];
