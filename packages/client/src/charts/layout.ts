/**
 * Where everything of a chart goes, in pixels: one layout that the SVG and the PNG both draw,
 * so that the two agree. Text is measured in cells of the pixel font (12 pixels a character at
 * scale 2; the SVG uses a monospace font of the same advance) and cut to its column.
 */
import { GLYPH_HEIGHT, GLYPH_WIDTH } from "./font";
import type { ChartModel, ChartRow } from "./model";

export type ColourName = "background" | "text" | "muted" | "bar" | "unique" | "track" | "frame";

export interface RectShape {
  kind: "rect";
  x: number;
  y: number;
  width: number;
  height: number;
  colour: ColourName;
}

export interface TextShape {
  kind: "text";
  /** The left edge, or the right edge when `align` is "end". */
  x: number;
  /** The top of the text's cell. */
  y: number;
  text: string;
  colour: ColourName;
  align: "start" | "end";
}

export type Shape = RectShape | TextShape;

export interface Layout {
  width: number;
  height: number;
  shapes: Shape[];
}

/** Each font pixel is drawn as a square of this many pixels. */
export const SCALE = 2;
/** The advance of one character: the glyph and one pixel of space, scaled. */
export const CELL = (GLYPH_WIDTH + 1) * SCALE;
export const TEXT_HEIGHT = GLYPH_HEIGHT * SCALE;
export const MIN_WIDTH = 320;
export const MAX_WIDTH = 1600;
export const DEFAULT_WIDTH = 640;
/** From this width the four lists sit in two columns. */
const TWO_COLUMNS_FROM = 800;

const PAD = 16;
const ROW = 26;
const GAP = 8;
const BAR_HEIGHT = 14;
const COUNT_CELLS = 7;
const COLUMN_GAP = 32;

/**
 * Characters East Asian fonts draw two cells wide, and any beyond the BMP (the PNG draws those as
 * six hex digits): counted twice so that a cut label fits in the SVG too.
 */
function cellsOf(codePoint: number): number {
  return codePoint >= 0x1100 &&
    (codePoint <= 0x115f ||
      (codePoint >= 0x2e80 && codePoint <= 0xa4cf) ||
      (codePoint >= 0xac00 && codePoint <= 0xd7a3) ||
      (codePoint >= 0xf900 && codePoint <= 0xfaff) ||
      (codePoint >= 0xfe30 && codePoint <= 0xfe4f) ||
      (codePoint >= 0xff00 && codePoint <= 0xff60) ||
      (codePoint >= 0xffe0 && codePoint <= 0xffe6) ||
      codePoint > 0xffff)
    ? 2
    : 1;
}

/** The text's width in cells. */
export function textCells(text: string): number {
  let cells = 0;
  for (const character of text) cells += cellsOf(character.codePointAt(0) as number);
  return cells;
}

/** The text cut to `cells` cells, ending in an ellipsis when cut. */
export function fitText(text: string, cells: number): string {
  if (textCells(text) <= cells) return text;
  let kept = "";
  let used = 0;
  for (const character of text) {
    const width = cellsOf(character.codePointAt(0) as number);
    if (used + width > cells - 1) break;
    kept += character;
    used += width;
  }
  return `${kept.trimEnd()}\u2026`;
}

const THOUSANDS = /\B(?=(\d{3})+(?!\d))/g;

/** `1,234` up to `999,999`, then `1.2M`, `34M`, `5.6B`: at most seven characters. */
export function formatCount(count: number): string {
  if (count < 1e6) return String(count).replace(THOUSANDS, ",");
  for (const [unit, size] of [
    ["T", 1e12],
    ["B", 1e9],
    ["M", 1e6],
  ] as const) {
    if (count >= size) {
      const value = count / size;
      return `${value < 10 ? (Math.floor(value * 10) / 10).toFixed(1).replace(/\.0$/, "") : Math.floor(value)}${unit}`;
    }
  }
  return String(count);
}

interface Column {
  x: number;
  width: number;
}

function barRows(shapes: Shape[], column: Column, top: number, rows: ChartRow[], scaleMax: number, colours: ColourName[]): number {
  const countWidth = COUNT_CELLS * CELL;
  // Two fifths of the column, but room for "Unique clicks" (13 characters) where the bars keep 96 pixels.
  const roomy = Math.min(13, Math.floor((column.width - countWidth - 2 * GAP - 96) / CELL));
  const labelCells = Math.max(6, Math.min(20, Math.max(Math.floor((column.width * 0.4) / CELL), roomy)));
  const labelWidth = labelCells * CELL;
  const barX = column.x + labelWidth + GAP;
  const barMax = column.width - labelWidth - countWidth - 2 * GAP;
  rows.forEach((row, index) => {
    const y = top + index * ROW;
    const textY = y + Math.floor((ROW - TEXT_HEIGHT) / 2) + 2;
    const barY = textY;
    shapes.push({ kind: "text", x: column.x, y: textY, text: fitText(row.label, labelCells), colour: "text", align: "start" });
    shapes.push({ kind: "rect", x: barX, y: barY, width: barMax, height: BAR_HEIGHT, colour: "track" });
    const length = scaleMax > 0 ? Math.max(2, Math.round((barMax * row.count) / scaleMax)) : 0;
    shapes.push({ kind: "rect", x: barX, y: barY, width: Math.min(barMax, length), height: BAR_HEIGHT, colour: colours[index] ?? "bar" });
    shapes.push({ kind: "text", x: column.x + column.width, y: textY, text: formatCount(row.count), colour: "text", align: "end" });
  });
  return top + rows.length * ROW;
}

/** The requested width within `MIN_WIDTH` and `MAX_WIDTH`, in whole pixels. */
export function clampWidth(requested: number): number {
  return Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, Number.isFinite(requested) ? requested : DEFAULT_WIDTH)));
}

export function layoutChart(model: ChartModel, requestedWidth: number, unit: "clicks" | "scans"): Layout {
  const width = clampWidth(requestedWidth);
  const shapes: Shape[] = [];
  const inner: Column = { x: PAD, width: width - 2 * PAD };
  const titleText = model.title || (unit === "scans" ? "QR code scans" : "Link clicks");
  shapes.push({ kind: "text", x: PAD, y: PAD, text: fitText(titleText, Math.floor(inner.width / CELL)), colour: "text", align: "start" });
  let y = PAD + TEXT_HEIGHT + GAP;
  shapes.push({ kind: "rect", x: PAD, y, width: inner.width, height: 1, colour: "frame" });
  y += GAP;

  if (model.empty) {
    const boxHeight = 72;
    shapes.push({ kind: "rect", x: PAD, y, width: inner.width, height: boxHeight, colour: "track" });
    const message = `No ${unit} yet`;
    const detail = `0 ${unit}, 0 unique: nothing to chart`;
    const centred = (text: string) => Math.max(PAD, Math.floor((width - (textCells(text) * CELL - SCALE)) / 2));
    shapes.push({ kind: "text", x: centred(message), y: y + 14, text: message, colour: "text", align: "start" });
    const fitted = fitText(detail, Math.floor(inner.width / CELL));
    shapes.push({ kind: "text", x: centred(fitted), y: y + 14 + TEXT_HEIGHT + 6, text: fitted, colour: "muted", align: "start" });
    return { width, height: y + boxHeight + PAD, shapes };
  }

  const word = unit === "scans" ? "Scans" : "Clicks";
  y = barRows(
    shapes,
    inner,
    y,
    [
      { label: word, count: model.clicks },
      { label: `Unique ${unit}`, count: model.uniqueClicks },
    ],
    Math.max(model.clicks, model.uniqueClicks),
    ["bar", "unique"],
  );
  y += GAP;

  const columns = width >= TWO_COLUMNS_FROM ? 2 : 1;
  const columnWidth = Math.floor((inner.width - (columns - 1) * COLUMN_GAP) / columns);
  let bottom = y;
  for (let start = 0; start < model.sections.length; start += columns) {
    let rowBottom = y;
    model.sections.slice(start, start + columns).forEach((section, index) => {
      const column = { x: PAD + index * (columnWidth + COLUMN_GAP), width: columnWidth };
      shapes.push({ kind: "rect", x: column.x, y: y + GAP, width: column.width, height: 1, colour: "frame" });
      shapes.push({
        kind: "text",
        x: column.x,
        y: y + GAP + 6,
        text: fitText(section.title, Math.floor(column.width / CELL)),
        colour: "muted",
        align: "start",
      });
      const rowsTop = y + GAP + 6 + TEXT_HEIGHT + 2;
      let end: number;
      if (section.rows.length === 0) {
        shapes.push({
          kind: "text",
          x: column.x,
          y: rowsTop + 4,
          text: fitText("none recorded", Math.floor(column.width / CELL)),
          colour: "muted",
          align: "start",
        });
        end = rowsTop + ROW;
      } else {
        const largest = Math.max(model.clicks, section.rows[0]?.count ?? 0);
        end = barRows(shapes, column, rowsTop, section.rows, largest, []);
      }
      rowBottom = Math.max(rowBottom, end);
    });
    y = rowBottom;
    bottom = y;
  }
  return { width, height: bottom + PAD, shapes };
}
