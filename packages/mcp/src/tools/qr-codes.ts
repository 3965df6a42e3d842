/** The QR code tools: create_qr_code, get_qr_code and list_qr_codes; a code's answer carries its PNG as image content. */
import { QR_DATA_SCHEMAS, QrCodeCreateSchema, type QrCodeCreateInput as ClientQrCodeCreateInput } from "@linkshort/client";
import * as z from "zod/v4";
import { CreatedQrCodeOutput, QrCodePageOutput, QrCodeWithStatsOutput } from "./outputs";
import { fetchQrImage } from "./qr-image";
import { statisticsChart, statisticsView } from "./chart";
import { AnswerWithImage, CREATE, described, define, idOf, READ, type ToolContext } from "./define";
import { onePageOf, PageInput } from "./paging";

/** Types whose `data` is an object. */
const OBJECT_DATA_TYPES = new Set(["email", "sms", "wifi", "vcard"]);
/** Longer text is not a QR code's data: it is left as it is, for the client to refuse. */
const MAX_DATA_TEXT = 64 * 1024;

/**
 * Form-based clients (n8n's MCP Client in its manual mode, the Inspector) send a field whose schema
 * lists several shapes as text: for the types whose data is an object, JSON text of that object is
 * read as the object. Anything else stays as sent, for the client's check to name.
 */
function dataFromText(args: unknown): unknown {
  if (args === null || typeof args !== "object") return args;
  const { type, data } = args as { type?: unknown; data?: unknown };
  if (typeof type !== "string" || !OBJECT_DATA_TYPES.has(type) || typeof data !== "string" || data.length > MAX_DATA_TEXT) return args;
  const text = data.trim();
  if (!text.startsWith("{")) return args;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? { ...args, data: parsed } : args;
  } catch {
    return args;
  }
}

const QrCodeCreateInput = z.preprocess(dataFromText, z.strictObject(described(QrCodeCreateSchema)));

/**
 * The same input with `data`'s shapes spelled out, so that clients which build a form from the
 * schema (the Inspector, n8n's MCP Client) can send an object for e-mail, SMS, Wi-Fi and vCard codes.
 * Which shape goes with which `type` is the client's rule, checked before anything is sent.
 */
const QrCodeCreateListedInput = z.strictObject(described(QrCodeCreateSchema)).extend({
  data: z
    .union([z.string(), QR_DATA_SCHEMAS.email, QR_DATA_SCHEMAS.sms, QR_DATA_SCHEMAS.wifi, QR_DATA_SCHEMAS.vcard])
    .describe(
      "By type: link a URL, text up to 1000 characters, phone a number; email, sms, wifi, vcard (at least a name or organization) their object, or its JSON text",
    ),
});

/** A QR code's answer with its image (PNG as image content), or with why there is none. */
async function withQrImage(
  structured: Record<string, unknown>,
  link: string,
  { client, signal }: ToolContext,
  chart?: AnswerWithImage["chart"],
  view?: AnswerWithImage["viewChart"],
): Promise<AnswerWithImage> {
  const image = await fetchQrImage(link, client.baseUrl, signal);
  if (!image.ok) return new AnswerWithImage({ ...structured, image: { unavailable: image.reason } }, undefined, chart, view);
  return new AnswerWithImage(
    { ...structured, image: { url: image.url, bytes: image.png.length } },
    { data: image.png.toString("base64"), mimeType: "image/png" },
    chart,
    view,
  );
}

export const createQrCode = define({
  name: "create_qr_code",
  title: "Create a QR code",
  description:
    "Creates a QR code (for a URL, text, e-mail, phone, SMS, Wi-Fi network or contact card) and returns its id, its " +
    "link (the image is at that link with .png or .svg appended) and the QR code's image.",
  input: QrCodeCreateInput,
  listedInput: QrCodeCreateListedInput,
  output: CreatedQrCodeOutput,
  annotations: CREATE,
  // The input schema has checked `type`; the client checks `data` against it before anything is sent.
  run: async (args, context) => {
    const created = await context.client.qrCodes.create(args as ClientQrCodeCreateInput, { signal: context.signal });
    return withQrImage(created, created.link, context);
  },
});

export const getQrCode = define({
  name: "get_qr_code",
  title: "Get a QR code with its image",
  description:
    "Returns one QR code (id from list_qr_codes or create_qr_code): its link, name, scans and scan statistics, its image, and a chart of its scans as a second image.",
  input: z.strictObject(idOf("QR code")),
  output: QrCodeWithStatsOutput,
  annotations: READ,
  statisticsView: true,
  run: async ({ id }, context) => {
    const qrCode = await context.client.qrCodes.get(id, { signal: context.signal });
    const title = qrCode.details.name || qrCode.details.link.replace(/^https?:\/\//, "");
    return withQrImage(
      qrCode,
      qrCode.details.link,
      context,
      await statisticsChart(qrCode.stats, title, "scans"),
      await statisticsView(qrCode.stats, title, "scans"),
    );
  },
});

export const listQrCodes = define({
  name: "list_qr_codes",
  title: "List QR codes",
  description: "Lists the account's QR codes (id, link, scans, name), one page at a time; morePages says whether another page follows.",
  input: PageInput,
  output: QrCodePageOutput,
  annotations: READ,
  run: onePageOf("qrCodes", (client, params, signal) => client.qrCodes.list(params, { signal })),
});
