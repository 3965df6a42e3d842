import { ValidationError } from "../src/core";
import { seriesChart, type ChartSeries, type SeriesBucket } from "../src/charts";
import { layoutSeries, PLOT_HEIGHT } from "../src/charts/series-layout";
import { seriesModel } from "../src/charts/series-model";
import type { RectShape, TextShape } from "../src/charts/layout";
import { decodePng } from "../../../test/charts/png-reader";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Midnight of Monday 16 November 2026 in Tokyo. */
const TOKYO_MONDAY = Date.UTC(2026, 10, 15, 15);

// A week by day in Tokyo: a zero, a gap (nothing sampled), a count spread over a sampling gap.
const week: ChartSeries = {
  granularity: "day",
  timeZone: "Asia/Tokyo",
  buckets: [0, 4, null, 8, 6, 10, 2].map((count, index) => ({ start: TOKYO_MONDAY + index * DAY, count, exact: index !== 4 })),
};

function layoutOf(series: ChartSeries, width = 640) {
  const layout = layoutSeries(seriesModel(series, "go.example/spring", "en-GB"), width, "clicks");
  const rects = layout.shapes.filter((shape): shape is RectShape => shape.kind === "rect");
  const texts = layout.shapes.filter((shape): shape is TextShape => shape.kind === "text");
  return { layout, rects, texts };
}

describe("seriesChart layout", () => {
  const { rects, texts } = layoutOf(week);
  // Below the legend's swatches.
  const bars = rects.filter((rect) => (rect.colour === "bar" || rect.colour === "unique") && rect.y > 80);
  const baselines = rects.filter((rect) => rect.colour === "frame" && rect.height === 1 && rect.width < 200);
  const gaps = rects.filter((rect) => rect.colour === "track" && rect.height > PLOT_HEIGHT);

  it("draws a bar per bucket with clicks, as tall as its count (the largest the full height), left to right", () => {
    expect(bars.map((bar) => bar.height)).toEqual([48, 96, 72, 120, 24]);
    for (let index = 1; index < bars.length; index += 1) expect(bars[index]!.x).toBeGreaterThan(bars[index - 1]!.x);
    // Every bar stands on the same baseline.
    expect(new Set(bars.map((bar) => bar.y + bar.height)).size).toBe(1);
  });

  it("draws a gap as a grey band without a baseline, and a zero as a baseline without a bar: the two look different", () => {
    expect(gaps).toHaveLength(1);
    const slot = gaps[0]!;
    expect(baselines.some((line) => line.x === slot.x)).toBe(false);
    expect(bars.some((bar) => bar.x === slot.x)).toBe(false);
    // The zero (Monday) has its baseline and nothing above it.
    const monday = baselines.find((line) => line.x === 16)!;
    expect(monday).toBeDefined();
    expect(bars.some((bar) => bar.x === monday.x)).toBe(false);
    expect(baselines).toHaveLength(6);
  });

  it("draws a count spread over a sampling gap lighter than an exact one, and says which is which in a legend", () => {
    expect(bars.map((bar) => bar.colour)).toEqual(["bar", "bar", "unique", "bar", "bar"]);
    expect(texts.filter((text) => ["exact", "spread", "no data"].includes(text.text)).map((text) => text.text)).toEqual(["exact", "spread", "no data"]);
  });

  it("states the period's total and the scale", () => {
    const total = texts.find((text) => text.align === "end")!;
    expect(total.text).toBe("30 clicks");
    expect(texts.some((text) => text.text === "Most in a day: 10")).toBe(true);
  });

  it("labels days in the series' time zone: Tokyo's Monday is 16 Nov though it starts on the 15th in UTC", () => {
    const labels = texts.filter((text) => / Nov$/.test(text.text)).map((text) => text.text);
    expect(labels).toEqual(["16 Nov", "17 Nov", "18 Nov", "19 Nov", "20 Nov", "21 Nov", "22 Nov"]);
  });

  it("labels hours at round hours, a date at midnight, never overlapping, and takes the caller's labels as given", () => {
    const hours: ChartSeries = {
      granularity: "hour",
      timeZone: "Europe/Berlin",
      buckets: Array.from({ length: 48 }, (_, index) => ({ start: Date.UTC(2026, 10, 16, 20) + index * HOUR, count: index, exact: true })),
    };
    const labels = layoutOf(hours).texts.filter((text) => text.y > 200);
    // From 21:00 on the 16th to 20:00 on the 18th in Berlin: every 12 hours fits at 640 pixels.
    expect(labels.map((label) => label.text)).toEqual(["17 Nov", "12:00", "18 Nov", "12:00"]);
    for (let index = 1; index < labels.length; index += 1) expect(labels[index]!.x).toBeGreaterThan(labels[index - 1]!.x + 5 * 12);
    const named = { ...week, buckets: week.buckets.map((bucket, index) => ({ ...bucket, label: ["月", "火", "水", "木", "金", "土", "日"][index] })) };
    expect(
      layoutOf(named)
        .texts.filter((text) => text.y > 200)
        .map((text) => text.text),
    ).toEqual(["月", "火", "水", "木", "金", "土", "日"]);
  });

  it("keeps every bar inside the chart at the narrowest width, a month of hours included", () => {
    const month: ChartSeries = {
      granularity: "hour",
      buckets: Array.from({ length: 744 }, (_, index) => ({ start: index * HOUR, count: index % 24, exact: true })),
    };
    for (const series of [week, month]) {
      const { rects: narrow, layout } = layoutOf(series, 320);
      for (const rect of narrow) expect(rect.x + rect.width).toBeLessThanOrEqual(layout.width - 16);
    }
  });
});

describe("seriesChart images", () => {
  it("shows the gap, the zero, exact and spread bars in the PNG's pixels and describes the period in words", () => {
    const chart = seriesChart(week, { title: "go.example/spring" });
    const image = decodePng(chart.png());
    const { rects } = layoutOf(week);
    const bars = rects.filter((rect) => (rect.colour === "bar" || rect.colour === "unique") && rect.y > 80);
    const gap = rects.find((rect) => rect.colour === "track" && rect.height > PLOT_HEIGHT)!;
    const middle = (rect: RectShape) => [rect.x + Math.floor(rect.width / 2), rect.y + Math.floor(rect.height / 2)] as const;
    expect(image.colourAt(...middle(gap))).toBe("#eef1f4");
    expect(image.colourAt(...middle(bars[0]!))).toBe("#0969da");
    expect(image.colourAt(...middle(bars[2]!))).toBe("#54aeff");
    // Just above the zero's baseline: background.
    expect(image.colourAt(20, gap.y + PLOT_HEIGHT - 2)).toBe("#ffffff");
    expect(chart.description).toBe(
      "go.example/spring: 30 clicks from 16 Nov to 22 Nov, by day, at most 10 in one; 1 day with no data; 1 day spread over a sampling gap",
    );
    expect(chart.svg()).toContain(">30 clicks<");
  });

  it("says there is no data when every bucket is a gap, or there are none", () => {
    const empty = seriesChart({ granularity: "day", buckets: [{ start: 0, count: null, exact: true }] }, { title: "spring" });
    expect(empty.description).toBe("spring: no data for this period");
    expect(seriesChart({ granularity: "month", buckets: [] }).svg()).toContain(">no data<");
  });
});

describe("seriesChart input", () => {
  const bucket = (patch: Partial<SeriesBucket>): SeriesBucket => ({ start: 0, count: 1, exact: true, ...patch });
  const fieldsOf = (series: unknown, locale?: string) => {
    try {
      seriesChart(series as ChartSeries, locale === undefined ? {} : { locale });
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      return (error as ValidationError).fields;
    }
    return [];
  };

  it("names the field of a bad granularity, time zone, locale, bucket start, count or flag", () => {
    expect(fieldsOf({ granularity: "fortnight", buckets: [] })).toEqual(["granularity"]);
    expect(fieldsOf({ granularity: "day", timeZone: "Mars/Olympus", buckets: [] })).toEqual(["timeZone"]);
    expect(fieldsOf({ granularity: "day", buckets: [] }, "not a locale!")).toEqual(["locale"]);
    expect(fieldsOf({ granularity: "day" })).toEqual(["buckets"]);
    expect(
      fieldsOf({
        granularity: "day",
        buckets: [bucket({ start: Number.NaN }), bucket({ count: -1 }), bucket({ start: 5, count: 1.5 }), bucket({ start: 9, exact: "yes" as never })],
      }),
    ).toEqual(["buckets[0].start", "buckets[1].count", "buckets[2].count", "buckets[3].exact"]);
    expect(fieldsOf({ granularity: "day", buckets: [bucket({ start: 5 }), bucket({ start: 5 })] })).toEqual(["buckets[1].start"]);
    expect(fieldsOf({ granularity: "hour", buckets: Array.from({ length: 1001 }, (_, index) => bucket({ start: index })) })).toEqual(["buckets"]);
    expect(() => seriesChart({ granularity: "day", timeZone: "Mars/Olympus", buckets: [] })).toThrow(/timeZone: "Mars\/Olympus" is not a known IANA time zone/);
  });
});
