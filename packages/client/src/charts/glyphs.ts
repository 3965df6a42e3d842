/**
 * What the PNG draws for each character of a text, as rectangles of pixels relative to its cell.
 * Letters of the font are drawn; an accented letter is its base letter with its accents (from the
 * character's canonical decomposition); anything else (CJK, emoji, Arabic, a lone accent, ...) is
 * a box holding its code point in hex, as in Unicode's last-resort font. So two texts that differ
 * in any character give different pixels, except for letters another alphabet draws alike (Latin
 * A, Greek Α and Cyrillic А), which every font draws alike too.
 */
import { GLYPH_HEIGHT, GLYPH_WIDTH, sheetGlyph, type Glyph } from "./font";
import { PACKED_LETTERS, PACKED_MARKS } from "./glyph-data";
import { CELL, SCALE, textCells } from "./layout";

/** A rectangle `[x, y, width, height]` in image pixels; y is from the top of the text's cell, and negative above it. */
export type PixelRect = readonly [number, number, number, number];

export interface CharacterShape {
  /** Cells the character takes in the layout (two for a wide one). */
  cells: number;
  rects: readonly PixelRect[];
}

/** Font rows above the cell that accents over capitals and tall letters take. */
export const OVERHANG = 2;
const MARK_HEIGHT = 2;
const BELOW_MARKS = new Set(["\u0326", "\u0327", "\u0328"]);
const DIAERESIS_TONOS = "\u0308\u0301";

/** Letters drawn as another's glyph: one shape in two alphabets, as in every font. */
const LOOKALIKES: Record<string, string> = {
  ...pairs("АВЕКМНОРСТХЅІЈаеорсухѕіј", "ABEKMHOPCTXSIJaeopcyxsij"),
  ...pairs("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧΓΠΦο", "ABEZHIKMNOPTYXГПФo"),
  Đ: "Ð",
  µ: "μ",
  "\u00a0": " ",
};

/** i and j lose their dot under an accent. */
const DOTLESS: Record<string, string> = { i: "ı", j: "ȷ" };

function pairs(from: string, to: string): Record<string, string> {
  const table: Record<string, string> = {};
  [...from].forEach((character, index) => (table[character] = [...to][index] as string));
  return table;
}

function unpack(packed: string, height: number): Map<string, Glyph> {
  const table = new Map<string, Glyph>();
  const characters = [...packed];
  for (let index = 0; index < characters.length; index += 1 + height) {
    table.set(
      characters[index] as string,
      characters.slice(index + 1, index + 1 + height).map((digit) => Number.parseInt(digit, 32)),
    );
  }
  return table;
}

let letters: Map<string, Glyph> | undefined;
let marks: Map<string, Glyph> | undefined;

function letterGlyph(character: string): Glyph | undefined {
  letters ??= unpack(PACKED_LETTERS, GLYPH_HEIGHT);
  const drawnAs = LOOKALIKES[character] ?? character;
  return sheetGlyph(drawnAs) ?? letters.get(drawnAs);
}

/** The glyph with its overhang rows on top, or none when the font cannot draw the character. */
function fullGlyph(character: string): number[] | undefined {
  const direct = letterGlyph(character);
  if (direct) return [0, 0, ...direct];
  const [base, ...accents] = [...character.normalize("NFD")];
  // One accent, or Greek's diaeresis with tonos; more would overlap into shapes that could repeat.
  if (base === undefined || accents.length === 0 || (accents.length > 1 && accents.join("") !== DIAERESIS_TONOS)) return undefined;
  const baseGlyph = letterGlyph(DOTLESS[LOOKALIKES[base] ?? base] ?? base);
  if (!baseGlyph) return undefined;
  marks ??= unpack(PACKED_MARKS, MARK_HEIGHT);
  const rows = [0, 0, ...baseGlyph];
  for (const accent of accents) {
    const mark = marks.get(accent);
    if (!mark) return undefined;
    const freeBelow = baseGlyph[7] === 0 && baseGlyph[8] === 0;
    const freeAbove = baseGlyph[0] === 0 && baseGlyph[1] === 0;
    const top = BELOW_MARKS.has(accent) && freeBelow ? OVERHANG + 7 : freeAbove ? OVERHANG : 0;
    rows[top] = (rows[top] as number) | (mark[0] as number);
    rows[top + 1] = (rows[top + 1] as number) | (mark[1] as number);
  }
  return rows;
}

function glyphRects(rows: readonly number[]): PixelRect[] {
  const rects: PixelRect[] = [];
  rows.forEach((bits, row) => {
    let column = 0;
    while (column < GLYPH_WIDTH) {
      if (!(bits & (1 << (GLYPH_WIDTH - 1 - column)))) {
        column += 1;
        continue;
      }
      const start = column;
      while (column < GLYPH_WIDTH && bits & (1 << (GLYPH_WIDTH - 1 - column))) column += 1;
      rects.push([start * SCALE, (row - OVERHANG) * SCALE, (column - start) * SCALE, SCALE]);
    }
  });
  return rects;
}

/** Hex digits 0-f, 3 pixels wide and 5 high, 15 bits each as three base-32 digits; drawn one image pixel a font pixel (the letters take two). */
const HEX_DIGITS = "urfb4nsv7smfmu9uefuffsiiuvfuufavdqtee93qreud7ud4";
const HEX_DIGIT_WIDTH = 3;
const HEX_DIGIT_HEIGHT = 5;

function hexDigitRects(digit: number, left: number, top: number, rects: PixelRect[]): void {
  const bits = Number.parseInt(HEX_DIGITS.slice(digit * 3, digit * 3 + 3), 32);
  for (let row = 0; row < HEX_DIGIT_HEIGHT; row += 1) {
    for (let column = 0; column < HEX_DIGIT_WIDTH; column += 1) {
      if (bits & (1 << (14 - row * HEX_DIGIT_WIDTH - column))) rects.push([left + column, top + row, 1, 1]);
    }
  }
}

/** A frame holding the code point in two rows of hex digits (4 digits, or 6 beyond the BMP), centred in its cells. */
function hexBox(codePoint: number, cells: number): PixelRect[] {
  const digits = codePoint.toString(16).padStart(codePoint > 0xffff ? 6 : 4, "0");
  const columns = digits.length / 2;
  const padding = cells > 1 ? 1 : 0;
  const width = columns * (HEX_DIGIT_WIDTH + 1) - 1 + 2 + 2 * padding;
  const height = 2 * HEX_DIGIT_HEIGHT + 1 + 4;
  const left = Math.floor((cells * CELL - SCALE - width) / 2);
  const top = 1;
  const rects: PixelRect[] = [
    [left, top, width, 1],
    [left, top + height - 1, width, 1],
    [left, top + 1, 1, height - 2],
    [left + width - 1, top + 1, 1, height - 2],
  ];
  [...digits].forEach((digit, index) => {
    const column = index % columns;
    const row = Math.floor(index / columns);
    hexDigitRects(Number.parseInt(digit, 16), left + 1 + padding + column * (HEX_DIGIT_WIDTH + 1), top + 2 + row * (HEX_DIGIT_HEIGHT + 1), rects);
  });
  return rects;
}

const drawn = new Map<string, CharacterShape>();

/** What the PNG draws for one character (one code point). */
export function characterShape(character: string): CharacterShape {
  const known = drawn.get(character);
  if (known) return known;
  const rows = fullGlyph(character);
  if (!rows) return { cells: textCells(character), rects: hexBox(character.codePointAt(0) as number, textCells(character)) };
  const shape = { cells: 1, rects: glyphRects(rows) };
  drawn.set(character, shape);
  return shape;
}

/** Whether the font draws the character as a letter or sign (rather than as its code point in a box). */
export function fontDraws(character: string): boolean {
  return fullGlyph(character) !== undefined;
}
