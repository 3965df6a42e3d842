import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import { barsOf, decodePng } from "../../../test/charts/png-reader";
import { startSession, type Session } from "./helpers";

let sandbox: Sandbox;
let session: Session;
beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 100_000, windowMs: 60_000 } });
  session = await startSession({ baseUrl: sandbox.baseUrl, apiKey: sandbox.userKey });
});
afterAll(async () => {
  await session.close();
  await sandbox.close();
});

type Content = Array<{ type: string; text?: string; data?: string; mimeType?: string }>;
const BARS = ["#0969da", "#54aeff"];

describe("get_link and get_qr_code answer with a chart of the statistics as image content", () => {
  test("get_link: the structured statistics, their JSON text, then the chart, whose first bars are the clicks and unique clicks", async () => {
    const link = sandbox.store.state.links.find((candidate) => candidate.userId === 2 && candidate.alias === "raycast")!;
    const result = await session.client.callTool({ name: "get_link", arguments: { id: link.id } });
    expect(result.isError).toBeFalsy();
    const content = result.content as Content;
    expect(content.map((part) => part.type)).toEqual(["text", "image"]);
    const structured = result.structuredContent as { stats: { clicks: number; uniqueClicks: number } };
    expect(structured.stats.clicks).toBe(link.stats.clicks);
    expect(content[1]!.mimeType).toBe("image/png");
    const image = decodePng(Buffer.from(content[1]!.data!, "base64"));
    expect(image.width).toBe(640);
    const bars = barsOf(image, BARS);
    expect(bars.length).toBeGreaterThan(2);
    expect(Math.abs(bars[1]!.length - (bars[0]!.length * structured.stats.uniqueClicks) / structured.stats.clicks)).toBeLessThanOrEqual(1);
  });

  test("get_qr_code: the QR image first (as before), then the chart of its scans; a code never scanned says so without bars", async () => {
    const created = await session.client.callTool({
      name: "create_qr_code",
      arguments: { type: "link", data: "https://example.com/mcp-chart", name: "Flyer" },
    });
    const { id } = created.structuredContent as { id: number };
    const result = await session.client.callTool({ name: "get_qr_code", arguments: { id } });
    const content = result.content as Content;
    expect(content.map((part) => part.type)).toEqual(["text", "image", "image"]);
    const chart = decodePng(Buffer.from(content[2]!.data!, "base64"));
    expect(chart.width).toBe(640);
    expect(barsOf(chart, BARS)).toEqual([]);
    expect(chart.height).toBeLessThan(200);
  });
});
