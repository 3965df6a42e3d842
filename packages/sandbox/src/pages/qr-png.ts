import { deflateSync } from "node:zlib";
import QRCode from "qrcode";

/**
 * A QR code's image as PNG: the library lays out the modules, and the image is written here, one
 * row at a time, deflated by zlib. The library's own PNG writer takes 100 ms a code in Node and
 * over 3 s under jest (it sets the image's bytes one by one through a stream library), longer than
 * the MCP server waits for an image.
 */
export function qrPng(content: string, options: { width: number; margin: number; dark: [number, number, number]; light: [number, number, number] }): Buffer {
  const { modules } = QRCode.create(content, {});
  const cells = modules.size + options.margin * 2;
  // As the library lays it out: `width` pixels a side when they hold at least a pixel a cell.
  const side = Math.max(options.width, cells);
  const cellAt = (pixel: number) => Math.floor((pixel * cells) / side) - options.margin;
  const isDark = (x: number, y: number) => x >= 0 && y >= 0 && x < modules.size && y < modules.size && modules.get(y, x) === 1;
  const rows: Buffer[] = [];
  let previous: { cellY: number; row: Buffer } | undefined;
  for (let pixelY = 0; pixelY < side; pixelY += 1) {
    const cellY = cellAt(pixelY);
    if (previous?.cellY !== cellY) {
      const row = Buffer.alloc(1 + side * 3); // filter byte 0, then RGB
      for (let pixelX = 0; pixelX < side; pixelX += 1) row.set(isDark(cellAt(pixelX), cellY) ? options.dark : options.light, 1 + pixelX * 3);
      previous = { cellY, row };
    }
    rows.push(previous.row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits a channel, RGB, deflate, no filter method but 0, not interlaced
  return Buffer.concat([PNG_SIGNATURE, chunk("IHDR", header), chunk("IDAT", deflateSync(Buffer.concat(rows))), chunk("IEND", Buffer.alloc(0))]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length, 0);
  const typed = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed), 0);
  return Buffer.concat([length, typed, crc]);
}
