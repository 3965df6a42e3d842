/** A click series drawn: a bar per bucket, gaps as gaps, the total on top, the same in SVG and PNG. */
import { inflateSync } from "node:zlib";
import { ClickHistory, seriesChart } from "../src/core";
import { colourIndex } from "../src/charts/draw";

const HOUR = 3_600_000;
const START = Date.UTC(2026, 10, 2, 0, 0);

function gappedSeries() {
  const history = new ClickHistory({ account: "https://short.example 00", now: () => START + 8 * HOUR });
  const samples: Array<[number, number]> = [[0, 0], [0.25, 2], [0.5, 4], [0.75, 5], [1, 9], [1.5, 12], [6.5, 112], [7, 118], [8, 130]];
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

it("draws measured hours as bars, the night nothing ran as a pale gap, and says the total and what is unplaced", () => {
  const series = gappedSeries();
  expect(series.buckets.map((bucket) => bucket.quality)).toEqual(["exact", "partial", "gap", "gap", "gap", "gap", "partial", "exact"]);
  const chart = seriesChart(series, { title: "short.example/launch" });
  const svg = chart.svg();
  expect(svg.match(/fill="#eef1f4"/g)).toHaveLength(4);
  expect(svg.match(/fill="#0969da"/g)).toHaveLength(2);
  expect(svg.match(/fill="#54aeff"/g)).toHaveLength(2);
  expect(chart.description).toBe(
    "short.example/launch: 130 clicks by hour from 2026-11-02 00:00 to 2026-11-02 08:00 (UTC); 2 hours measured, 2 estimated or partial, 4 in gaps (100 clicks not placed in time)",
  );
  expect(svg).toContain(">130 clicks (UTC)</text>");

  const { width, rows } = pixels(chart.png());
  expect(width).toBe(chart.width);
  expect(rows).toHaveLength(chart.height);
  const columnsOf = (colour: number) => new Set(rows.flatMap((row) => [...row.keys()].filter((x) => row[x] === colour))).size;
  // Four of eight slots pale from top to bottom of the plot, four with bars.
  const slot = (width - 32) / 8;
  expect(columnsOf(colourIndex("track"))).toBeGreaterThanOrEqual(4 * (slot - 2));
  expect(columnsOf(colourIndex("bar")) + columnsOf(colourIndex("unique"))).toBeGreaterThanOrEqual(4 * (slot - 2));
});

it("two series with different counts give different pictures; the same series the same bytes", () => {
  const series = gappedSeries();
  const other = { ...series, buckets: series.buckets.map((bucket, index) => (index === 0 ? { ...bucket, clicks: 1 } : bucket)) };
  expect(Buffer.from(seriesChart(series).png()).equals(Buffer.from(seriesChart(series).png()))).toBe(true);
  expect(Buffer.from(seriesChart(series).png()).equals(Buffer.from(seriesChart(other).png()))).toBe(false);
});
