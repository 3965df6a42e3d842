/**
 * A small PNG reader for tests: it checks every chunk's CRC, inflates the image data with
 * node:zlib (which also checks the Adler-32 sum) and undoes the scanline filters, so that a test
 * can look at the pixels a person would see.
 */
import { crc32, inflateSync } from "node:zlib";

export interface DecodedPng {
  width: number;
  height: number;
  /** The colour of a pixel as `#rrggbb`. */
  colourAt(x: number, y: number): string;
}

const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

export function decodePng(bytes: Uint8Array): DecodedPng {
  const data = Buffer.from(bytes);
  if (!data.subarray(0, 8).equals(SIGNATURE)) throw new Error("not a PNG signature");
  let offset = 8;
  let width = 0;
  let height = 0;
  let bitDepth = 0;
  let colourType = -1;
  let palette: string[] = [];
  const idat: Buffer[] = [];
  let ended = false;
  while (offset < data.length) {
    const length = data.readUInt32BE(offset);
    const type = data.toString("latin1", offset + 4, offset + 8);
    const body = data.subarray(offset + 8, offset + 8 + length);
    const crc = data.readUInt32BE(offset + 8 + length);
    if (crc32(data.subarray(offset + 4, offset + 8 + length)) !== crc) throw new Error(`bad CRC in ${type}`);
    if (type === "IHDR") {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      bitDepth = body[8] as number;
      colourType = body[9] as number;
      if (body[12] !== 0) throw new Error("interlaced PNGs are not read here");
    } else if (type === "PLTE") {
      palette = [];
      for (let index = 0; index < length; index += 3) palette.push(`#${body.subarray(index, index + 3).toString("hex")}`);
    } else if (type === "IDAT") idat.push(body);
    else if (type === "IEND") ended = true;
    offset += 12 + length;
  }
  if (!ended) throw new Error("no IEND chunk");
  if (bitDepth !== 8 || (colourType !== 3 && colourType !== 2 && colourType !== 6))
    throw new Error(`unsupported PNG: depth ${bitDepth}, colour type ${colourType}`);
  const channels = colourType === 3 ? 1 : colourType === 2 ? 3 : 4;
  const stride = width * channels;
  const raw = inflateSync(Buffer.concat(idat));
  if (raw.length !== (stride + 1) * height) throw new Error(`image data is ${raw.length} bytes, expected ${(stride + 1) * height}`);
  const pixels = new Uint8Array(stride * height);
  for (let row = 0; row < height; row += 1) {
    const filter = raw[row * (stride + 1)] as number;
    for (let column = 0; column < stride; column += 1) {
      const value = raw[row * (stride + 1) + 1 + column] as number;
      const left = column >= channels ? (pixels[row * stride + column - channels] as number) : 0;
      const up = row > 0 ? (pixels[(row - 1) * stride + column] as number) : 0;
      const upLeft = row > 0 && column >= channels ? (pixels[(row - 1) * stride + column - channels] as number) : 0;
      const predictor = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter];
      if (predictor === undefined) throw new Error(`unknown filter ${filter} on row ${row}`);
      pixels[row * stride + column] = (value + predictor) & 0xff;
    }
  }
  return {
    width,
    height,
    colourAt(x, y) {
      const at = y * stride + x * channels;
      if (channels === 1) {
        const colour = palette[pixels[at] as number];
        if (colour === undefined) throw new Error(`palette index ${pixels[at]} out of range`);
        return colour;
      }
      return `#${Buffer.from(pixels.subarray(at, at + 3)).toString("hex")}`;
    },
  };
}

export interface Bar {
  /** The first row of the bar. */
  top: number;
  left: number;
  /** The bar's length in pixels, along its middle row. */
  length: number;
}

/**
 * The bars of `colours` in the image, top to bottom: rows that hold a run of those colours at
 * least `minLength` long, grouped into bars of consecutive rows.
 */
export function barsOf(image: DecodedPng, colours: string[], minLength = 2): Bar[] {
  const wanted = new Set(colours);
  const rows: Array<{ y: number; left: number; length: number } | undefined> = [];
  for (let y = 0; y < image.height; y += 1) {
    let best: { y: number; left: number; length: number } | undefined;
    let runStart = -1;
    for (let x = 0; x <= image.width; x += 1) {
      const inside = x < image.width && wanted.has(image.colourAt(x, y));
      if (inside && runStart < 0) runStart = x;
      if (!inside && runStart >= 0) {
        if (x - runStart >= minLength && (!best || x - runStart > best.length)) best = { y, left: runStart, length: x - runStart };
        runStart = -1;
      }
    }
    rows.push(best);
  }
  const bars: Bar[] = [];
  let y = 0;
  while (y < image.height) {
    if (!rows[y]) {
      y += 1;
      continue;
    }
    const top = y;
    while (y < image.height && rows[y] && rows[y]!.left === rows[top]!.left) y += 1;
    const middle = rows[Math.floor((top + y - 1) / 2)]!;
    bars.push({ top, left: middle.left, length: middle.length });
  }
  return bars;
}
