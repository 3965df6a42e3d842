import QRCode from "qrcode";
// @ts-expect-error pngjs (the library's own PNG codec) ships no types: its reader is typed below.
import { PNG as untypedPng } from "pngjs";
import { startSandbox } from "@linkshort/sandbox";
import { qrPng } from "../src/pages/qr-png";

interface Decoded {
  width: number;
  height: number;
  data: Buffer;
}
const PNG = untypedPng as { sync: { read(bytes: Buffer): Decoded } };

const rgb = (png: Decoded) => Array.from({ length: png.width * png.height }, (_, pixel) => png.data.readUIntBE(pixel * 4, 3));

test.each(["https://n8n.io/some/path", "x".repeat(300)])(
  "a QR code's PNG is the library's image, pixel for pixel, in the code's colours (%#)",
  async (content) => {
    const library = PNG.sync.read(await QRCode.toBuffer(content, { margin: 2, width: 512, type: "png", color: { dark: "#102030ff", light: "#ffeeddff" } }));
    const written = PNG.sync.read(qrPng(content, { width: 512, margin: 2, dark: [16, 32, 48], light: [255, 238, 221] }));
    expect([written.width, written.height]).toEqual([512, 512]);
    expect(rgb(written)).toEqual(rgb(library));
  },
);

test("the sandbox serves a QR code's image as that PNG", async () => {
  const sandbox = await startSandbox({ port: 0 });
  try {
    const qr = sandbox.store.state.qrs[0]!;
    const response = await fetch(`${sandbox.baseUrl}/qr/${qr.code}.png`);
    expect(response.headers.get("content-type")).toBe("image/png");
    const image = PNG.sync.read(Buffer.from(await response.arrayBuffer()));
    expect(image.width).toBe(512);
  } finally {
    await sandbox.close();
  }
});
