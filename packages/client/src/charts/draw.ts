/** A layout drawn as SVG text or as the pixels of a PNG, in a light or a dark palette. */
import { characterShape } from "./glyphs";
import { CELL, SCALE, type ColourName, type Layout } from "./layout";
import { encodeIndexedPng, type Deflate } from "./png";

export type Theme = "light" | "dark";

/** A chart drawn both ways from one layout. */
export interface ClickChart {
  width: number;
  height: number;
  /** What the chart shows, as one line of text: alt text for the image, and for screen readers. */
  description: string;
  svg(): string;
  png(): Uint8Array;
}

const COLOUR_ORDER: readonly ColourName[] = ["background", "text", "muted", "bar", "unique", "track", "frame"];

/** The charts' colours in each theme; a front end that draws statistics itself (the MCP view) takes these. */
export const CHART_PALETTES: Readonly<Record<Theme, Readonly<Record<ColourName, string>>>> = {
  light: { background: "#ffffff", text: "#1f2328", muted: "#59636e", bar: "#0969da", unique: "#54aeff", track: "#eef1f4", frame: "#d1d9e0" },
  dark: { background: "#161b22", text: "#e6edf3", muted: "#9198a1", bar: "#4493f8", unique: "#1f6feb", track: "#262c36", frame: "#3d444d" },
};

/** The palette as `[r, g, b]` in `COLOUR_ORDER`, the PNG's palette indices. */
export function paletteOf(theme: Theme): Array<[number, number, number]> {
  return COLOUR_ORDER.map((name) => {
    const hex = CHART_PALETTES[theme][name];
    return [Number.parseInt(hex.slice(1, 3), 16), Number.parseInt(hex.slice(3, 5), 16), Number.parseInt(hex.slice(5, 7), 16)];
  });
}

/** The colour index of a palette entry, for tests that read pixels. */
export function colourIndex(name: ColourName): number {
  return COLOUR_ORDER.indexOf(name);
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character] as string);
}

/** Monospace at 19 pixels advances about 11.4 pixels a character, inside the layout's 12-pixel cells. */
const SVG_FONT = `font-family="'DejaVu Sans Mono', Menlo, Consolas, 'Liberation Mono', monospace" font-size="19"`;

export function drawSvg(layout: Layout, theme: Theme, description: string): string {
  const colours = CHART_PALETTES[theme];
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${layout.width}" height="${layout.height}" viewBox="0 0 ${layout.width} ${layout.height}" role="img" aria-label="${escapeXml(description)}">`,
    `<title>${escapeXml(description)}</title>`,
    `<rect width="${layout.width}" height="${layout.height}" fill="${colours.background}"/>`,
    `<g ${SVG_FONT}>`,
  ];
  for (const shape of layout.shapes) {
    if (shape.kind === "rect") {
      if (shape.width > 0) parts.push(`<rect x="${shape.x}" y="${shape.y}" width="${shape.width}" height="${shape.height}" fill="${colours[shape.colour]}"/>`);
    } else {
      const anchor = shape.align === "end" ? ` text-anchor="end"` : "";
      // The baseline sits where the pixel font's baseline does: seven font pixels below the top.
      parts.push(`<text x="${shape.x}" y="${shape.y + 7 * SCALE}" fill="${colours[shape.colour]}"${anchor}>${escapeXml(shape.text)}</text>`);
    }
  }
  parts.push("</g></svg>");
  return parts.join("");
}

export function drawPng(layout: Layout, theme: Theme, deflate?: Deflate): Uint8Array {
  const { width, height } = layout;
  const pixels = new Uint8Array(width * height);
  const fill = (x0: number, y0: number, w: number, h: number, colour: number) => {
    const left = Math.max(0, x0);
    const right = Math.min(width, x0 + w);
    if (right <= left) return;
    for (let y = Math.max(0, y0); y < Math.min(height, y0 + h); y += 1) pixels.fill(colour, y * width + left, y * width + right);
  };
  for (const shape of layout.shapes) {
    const colour = colourIndex(shape.colour);
    if (shape.kind === "rect") {
      fill(shape.x, shape.y, shape.width, shape.height, colour);
      continue;
    }
    const characters = [...shape.text].map(characterShape);
    const textWidth = characters.reduce((cells, character) => cells + character.cells, 0) * CELL - SCALE;
    let x = shape.align === "end" ? shape.x - textWidth : shape.x;
    for (const character of characters) {
      for (const [left, top, rectWidth, rectHeight] of character.rects) fill(x + left, shape.y + top, rectWidth, rectHeight, colour);
      x += character.cells * CELL;
    }
  }
  return encodeIndexedPng(width, height, pixels, paletteOf(theme), deflate);
}
