import { clickChart, type Statistics } from "@linkshort/client";

/** A link's or QR code's statistics drawn as a PNG chart (the client's renderer), as MCP image content. */
export function statisticsChart(stats: Statistics, title: string, unit: "clicks" | "scans"): { data: string; mimeType: "image/png" } {
  return { data: Buffer.from(clickChart(stats, { title, unit }).png()).toString("base64"), mimeType: "image/png" };
}
