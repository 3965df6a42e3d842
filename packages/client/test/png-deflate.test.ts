/**
 * A host's deflate for the chart's PNG (Node's zlib, as MCP and Raycast pass it): the same pixels
 * as the chart's own deflate, in far fewer bytes.
 */
import { deflateSync } from "node:zlib";
import { clickChart, seriesChart, type ChartSeries } from "../src/charts";
import { decodePng, type DecodedPng } from "../../../test/charts/png-reader";

const stats = {
  clicks: 9_876,
  uniqueClicks: 1_234,
  topCountries: { Canada: 500, Germany: 400, "United States": 300, Japan: 200, Brazil: 100 },
  topReferrers: { "https://news.example.com/a/long/path": 700, "https://social.example": 300 },
  topBrowsers: { Firefox: 600, Chrome: 500 },
  topOs: { Linux: 900, macOS: 100 },
};

const threeDays: ChartSeries = {
  granularity: "hour",
  timeZone: "Europe/Berlin",
  buckets: Array.from({ length: 72 }, (_, hour) => ({
    start: Date.UTC(2026, 9, 1) + hour * 3_600_000,
    count: hour % 30 < 2 ? null : (hour * 37) % 50,
    exact: hour % 10 > 0,
  })),
};

function samePixels(a: DecodedPng, b: DecodedPng): boolean {
  if (a.width !== b.width || a.height !== b.height) return false;
  for (let y = 0; y < a.height; y += 1) for (let x = 0; x < a.width; x += 1) if (a.colourAt(x, y) !== b.colourAt(x, y)) return false;
  return true;
}

test.each([
  [
    "the statistics chart, light, 640 px",
    () => clickChart(stats, { title: "go.example.com/launch" }),
    () => clickChart(stats, { title: "go.example.com/launch", deflate: deflateSync }),
  ],
  [
    "the statistics chart, dark, 1,600 px",
    () => clickChart(stats, { theme: "dark", width: 1600 }),
    () => clickChart(stats, { theme: "dark", width: 1600, deflate: deflateSync }),
  ],
  ["the series chart, three days of hours", () => seriesChart(threeDays), () => seriesChart(threeDays, { deflate: deflateSync })],
])("%s with Node's deflate decodes (through node:zlib) to the pixels of its own deflate, in fewer bytes", (_name, own, hosted) => {
  const ownPng = own().png();
  const hostedPng = hosted().png();
  expect(samePixels(decodePng(hostedPng), decodePng(ownPng))).toBe(true);
  expect(hostedPng.length).toBeLessThan(ownPng.length * 0.75);
});

test("the host's deflate is asked for level 8 (within 3% of level 9's bytes, at half its time), and the PNG holds exactly its output", () => {
  const calls: Array<{ data: Uint8Array; level: number }> = [];
  const deflate = (data: Uint8Array, options: { level: number }) => {
    calls.push({ data, level: options.level });
    return deflateSync(data, options);
  };
  const png = clickChart(stats, { deflate }).png();
  expect(calls).toEqual([{ data: expect.any(Uint8Array), level: 8 }]);
  expect(Buffer.from(png).includes(deflateSync(calls[0]!.data, { level: 8 }))).toBe(true);
});
