import { deflateSync } from "node:zlib";
import { clickChart, type Statistics } from "@linkshort/client";
import type { ImageContent } from "./define";

/** A link's or QR code's statistics drawn as a PNG chart (the client's renderer), as MCP image content, when asked for. */
export function statisticsChart(stats: Statistics, title: string, unit: "clicks" | "scans"): () => ImageContent {
  return () => ({ data: Buffer.from(clickChart(stats, { title, unit, deflate: deflateSync }).png()).toString("base64"), mimeType: "image/png" });
}
