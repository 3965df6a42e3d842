/** A click history's series drawn by the one series chart: a bar per bucket, gaps as gaps, the total on top, the same in SVG and PNG. */
import { inflateSync } from "node:zlib";
import { chartSeriesOf, ClickHistory } from "../src/core";
import { seriesChart } from "../src/charts";
import { colourIndex } from "../src/charts/draw";

const HOUR = 3_600_000;
const START = Date.UTC(2026, 10, 2, 0, 0);

function gappedSeries() {
  const history = new ClickHistory({ account: "https://short.example 00", now: () => START + 8 * HOUR });
  const samples: Array<[number, number]> = [
    [0, 0],
    [0.25, 2],
    [0.5, 4],
    [0.75, 5],
    [1, 9],
    [1.5, 12],
    [6.5, 112],
    [7, 118],
    [8, 130],
  ];
  for (const [hours, clicks] of samples) history.record({ id: 1, clicks }, START + hours * HOUR);
  return history.series({ linkId: 1, start: START, end: START + 8 * HOUR, granularity: "hour", timeZone: "UTC" });
}

/** The palette index of every pixel of an indexed PNG with one IDAT chunk. */
function pixels(png: Uint8Array): { width: number; rows: Uint8Array[] } {
  const view = Buffer.from(png);
  const width = view.readUInt32BE(16);
  const idat = view.indexOf("IDAT");
  const data = inflateSync(view.subarray(idat + 4, idat + 4 + view.readUInt32BE(idat - 4)));
  const rows: Uint8Array[] = [];
  for (let offset = 0; offset < data.length; offset += width + 1) {
    expect(data[offset]).toBe(0); // no filter
    rows.push(data.subarray(offset + 1, offset + 1 + width));
  }
  return { width, rows };
}

it("draws measured hours as bars, the night nothing ran as a gap, and counts what no hour holds in the total", () => {
  const series = gappedSeries();
  expect(series.buckets.map((bucket) => bucket.quality)).toEqual(["exact", "partial", "gap", "gap", "gap", "gap", "partial", "exact"]);
  const chart = seriesChart(chartSeriesOf(series), { title: "short.example/launch" });
  const svg = chart.svg();
  // Each colour once more for its legend swatch.
  expect(svg.match(/fill="#eef1f4"/g)).toHaveLength(4 + 1);
  expect(svg.match(/fill="#0969da"/g)).toHaveLength(2 + 1);
  expect(svg.match(/fill="#54aeff"/g)).toHaveLength(2 + 1);
  expect(series.total).toBe(130);
  expect(svg).toContain(">130 clicks</text>");
  expect(chart.description).toContain("short.example/launch: 130 clicks from ");
  expect(chart.description).toContain("4 hours with no data; 2 hours spread over a sampling gap; 100 clicks gained while nothing sampled, in no hour");

  const { width, rows } = pixels(chart.png());
  expect(width).toBe(chart.width);
  expect(rows).toHaveLength(chart.height);
  const columnsOf = (colour: number) => new Set(rows.flatMap((row) => [...row.keys()].filter((x) => row[x] === colour))).size;
  // Four of eight slots grey from top to bottom of the plot, four with bars (a bar leaves two pixels of its slot free).
  const slot = Math.floor((width - 32) / 8);
  expect(columnsOf(colourIndex("track"))).toBeGreaterThanOrEqual(4 * (slot - 1));
  expect(columnsOf(colourIndex("bar")) + columnsOf(colourIndex("unique"))).toBeGreaterThanOrEqual(4 * (slot - 3));
});

it("two series with different counts give different pictures; the same series the same bytes", () => {
  const series = gappedSeries();
  const other = { ...series, buckets: series.buckets.map((bucket, index) => (index === 0 ? { ...bucket, clicks: 1 } : bucket)) };
  const png = (drawn: typeof series) => Buffer.from(seriesChart(chartSeriesOf(drawn)).png());
  expect(png(series).equals(png(series))).toBe(true);
  expect(png(series).equals(png(other))).toBe(false);
});
