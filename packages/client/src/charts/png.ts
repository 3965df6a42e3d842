/**
 * An indexed-colour PNG writer with a deflate of its own, for hosts that have none to give: n8n's
 * scanner allows no `zlib` in a node. It uses one block of the fixed Huffman codes; its matches
 * look back one pixel (runs along a scanline) and one scanline (rows like the row above), which is
 * most of a chart, at about three times the bytes of `node:zlib`. Hosts that may use `node:zlib`
 * (MCP, Raycast) give theirs, as they give the client a transport (`Deflate`).
 */

/** zlib data (RFC 1950) of the bytes given at the level given: `node:zlib`'s `deflateSync`. */
export type Deflate = (data: Uint8Array, options: { level: number }) => Uint8Array;

/**
 * A chart's rows repeat rows far above them, which only zlib's long lazy matching finds: level 8
 * is within 3% of level 9's bytes at half its time, and a third smaller than the default level 6.
 */
const HOST_DEFLATE_LEVEL = 8;

let crcTable: Uint32Array | undefined;

function crc32(bytes: Uint8Array, start: number, end: number): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n += 1) {
      let c = n;
      for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let index = start; index < end; index += 1) crc = crcTable[(crc ^ (bytes[index] as number)) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  const length = bytes.length;
  let index = 0;
  while (index < length) {
    // 5552 bytes is the most that keeps b below 2^32 before the modulo.
    const end = Math.min(index + 5552, length);
    for (; index < end; index += 1) {
      a += bytes[index] as number;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

class BitWriter {
  private bytes = new Uint8Array(4096);
  private length = 0;
  private bitBuffer = 0;
  private bitCount = 0;

  /** Writes `count` bits of `value`, least significant first (deflate's order for data). */
  bits(value: number, count: number): void {
    this.bitBuffer |= value << this.bitCount;
    this.bitCount += count;
    while (this.bitCount >= 8) {
      this.byte(this.bitBuffer & 0xff);
      this.bitBuffer >>>= 8;
      this.bitCount -= 8;
    }
  }

  byte(value: number): void {
    if (this.length === this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    this.bytes[this.length++] = value;
  }

  finish(): Uint8Array {
    if (this.bitCount > 0) this.bits(0, 8 - this.bitCount);
    return this.bytes.subarray(0, this.length);
  }
}

function reverseBits(value: number, count: number): number {
  let reversed = 0;
  for (let bit = 0; bit < count; bit += 1) reversed = (reversed << 1) | ((value >>> bit) & 1);
  return reversed;
}

/** The fixed literal/length code (RFC 1951, 3.2.6), bit-reversed for writing LSB first. */
const literalCode = new Uint16Array(288);
const literalBits = new Uint8Array(288);
for (let symbol = 0; symbol < 288; symbol += 1) {
  const [code, bits] =
    symbol < 144 ? [0x30 + symbol, 8] : symbol < 256 ? [0x190 + symbol - 144, 9] : symbol < 280 ? [symbol - 256, 7] : [0xc0 + symbol - 280, 8];
  literalCode[symbol] = reverseBits(code, bits);
  literalBits[symbol] = bits;
}

const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DISTANCE_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DISTANCE_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];

/** The code (index into the tables above) whose range holds `value`. */
function codeFor(bases: readonly number[], value: number): number {
  let code = bases.length - 1;
  while (bases[code]! > value) code -= 1;
  return code;
}

const MAX_MATCH = 258;
export const MAX_DISTANCE = 32768;

function matchLength(data: Uint8Array, position: number, distance: number, limit: number): number {
  let length = 0;
  while (length < limit && data[position + length] === data[position + length - distance]) length += 1;
  return length;
}

/** zlib data (RFC 1950) of `data`, whose rows are `stride` bytes long (at most 32768). */
export function zlibCompress(data: Uint8Array, stride: number): Uint8Array {
  const out = new BitWriter();
  out.byte(0x78);
  out.byte(0x01);
  out.bits(1, 1); // the final block
  out.bits(1, 2); // fixed Huffman codes
  const literal = (symbol: number) => out.bits(literalCode[symbol]!, literalBits[symbol]!);
  const distanceCode = new Uint16Array(30);
  for (let code = 0; code < 30; code += 1) distanceCode[code] = reverseBits(code, 5);
  let position = 0;
  while (position < data.length) {
    const limit = Math.min(MAX_MATCH, data.length - position);
    const run = position >= 1 ? matchLength(data, position, 1, limit) : 0;
    const above = position >= stride && stride <= MAX_DISTANCE && run < limit ? matchLength(data, position, stride, limit) : 0;
    const [length, distance] = above > run ? [above, stride] : [run, 1];
    if (length < 3) {
      literal(data[position]!);
      position += 1;
      continue;
    }
    const lengthCode = codeFor(LENGTH_BASE, length);
    literal(257 + lengthCode);
    out.bits(length - LENGTH_BASE[lengthCode]!, LENGTH_EXTRA[lengthCode]!);
    const distanceIndex = codeFor(DISTANCE_BASE, distance);
    out.bits(distanceCode[distanceIndex]!, 5);
    out.bits(distance - DISTANCE_BASE[distanceIndex]!, DISTANCE_EXTRA[distanceIndex]!);
    position += length;
  }
  literal(256);
  const body = out.finish();
  const checksum = adler32(data);
  const result = new Uint8Array(body.length + 4);
  result.set(body);
  result[body.length] = checksum >>> 24;
  result[body.length + 1] = (checksum >>> 16) & 0xff;
  result[body.length + 2] = (checksum >>> 8) & 0xff;
  result[body.length + 3] = checksum & 0xff;
  return result;
}

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

function chunk(type: string, data: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(12 + data.length);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, data.length);
  for (let index = 0; index < 4; index += 1) bytes[4 + index] = type.charCodeAt(index);
  bytes.set(data, 8);
  view.setUint32(8 + data.length, crc32(bytes, 4, 8 + data.length));
  return bytes;
}

/** A PNG of 8-bit palette indices (one byte a pixel, row by row) and its palette of `[r, g, b]`, its data compressed by `deflate` (the own one when absent). */
export function encodeIndexedPng(
  width: number,
  height: number,
  pixels: Uint8Array,
  palette: ReadonlyArray<readonly [number, number, number]>,
  deflate?: Deflate,
): Uint8Array {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 3, 0, 0, 0], 8); // 8 bits, palette colour, deflate, adaptive filters, no interlace
  const stride = width + 1;
  const scanlines = new Uint8Array(stride * height);
  // Filter type 0 (none) on every row: with the matches above, palette rows gain nothing from filters.
  for (let row = 0; row < height; row += 1) scanlines.set(pixels.subarray(row * width, (row + 1) * width), row * stride + 1);
  const parts = [
    Uint8Array.from(SIGNATURE),
    chunk("IHDR", header),
    chunk("PLTE", Uint8Array.from(palette.flat())),
    chunk("IDAT", deflate ? deflate(scanlines, { level: HOST_DEFLATE_LEVEL }) : zlibCompress(scanlines, stride)),
    chunk("IEND", new Uint8Array(0)),
  ];
  const png = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    png.set(part, offset);
    offset += part.length;
  }
  return png;
}
