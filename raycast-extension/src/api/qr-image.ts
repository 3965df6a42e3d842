import { Clipboard, environment } from "@raycast/api";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import QRCode from "qrcode";

/**
 * A QR code's picture, as PNG bytes (base64). The service's own image (`{link}.png`, served next to
 * the code's tracking link) holds what the code really encodes (a Wi-Fi network, a contact card,
 * ...) in its colours; only when it cannot be loaded is one drawn here, from the tracking link.
 */
export type QrPicture = { png: string } & ({ source: "service"; url: string } | { source: "local"; reason: string });

/** Where the service serves a QR code's image: next to its tracking link `{site}/qr/{code}`. */
export function qrImageUrl(link: string, format: "png" | "svg" = "png"): string {
  return `${link}.${format}`;
}

const IMAGE_TIMEOUT_MS = 30_000;

/** A QR image drawn here from any text, as PNG bytes (base64). */
export async function drawQrPng(content: string): Promise<string> {
  const dataUrl = await QRCode.toDataURL(content, { margin: 2, width: 360 });
  return dataUrl.slice(dataUrl.indexOf(",") + 1);
}

/** The service's image of the QR code, or a local drawing of its link that says why. */
export async function loadQrPicture(link: string): Promise<QrPicture> {
  const url = qrImageUrl(link);
  let reason: string;
  try {
    // A public image, not an API call: no key is sent, and the client (JSON only) has no part in it.
    const response = await fetch(url, { signal: AbortSignal.timeout(IMAGE_TIMEOUT_MS) });
    const type = response.headers.get("content-type") ?? "";
    if (response.ok && type.startsWith("image/png")) {
      return { source: "service", url, png: Buffer.from(await response.arrayBuffer()).toString("base64") };
    }
    reason = `the service answered ${response.status}${type ? ` (${type.split(";")[0]})` : ""} for its image`;
  } catch {
    reason = "the service's image could not be loaded";
  }
  return { source: "local", reason, png: await drawQrPng(link) };
}

/** Markdown for the picture, saying so when it is not the service's own image. */
export function qrPictureMarkdown(picture: QrPicture | undefined, alt = "QR code"): string {
  if (!picture) return "";
  const image = `![${alt}](data:image/png;base64,${picture.png})`;
  if (picture.source === "service") return image;
  return `${image}\n\n> **Drawn here, not the service's image** (${picture.reason}): it encodes the link above in black and white, not the code's own content or colours.`;
}

/** Copies the picture to the clipboard as a PNG file. */
export async function copyQrPicture(picture: QrPicture, name: string): Promise<void> {
  const file = join(environment.supportPath, `${name.replace(/[^A-Za-z0-9-]+/g, "-") || "qr-code"}.png`);
  await writeFile(file, Buffer.from(picture.png, "base64"));
  await Clipboard.copy({ file });
}
