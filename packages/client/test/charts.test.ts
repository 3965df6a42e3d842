import { inflateSync } from "node:zlib";
import fc from "fast-check";
import type { Statistics } from "../src/core";
import { clickChart } from "../src/charts";
import { StatisticsSchema } from "../src/resources/shared";
import { zlibCompress } from "../src/charts/png";
import { barsOf, decodePng } from "../../../test/charts/png-reader";

// The light palette's bar colours (clicks and lists; unique clicks) and its background, as a person sees them.
const BAR = "#0969da";
const UNIQUE = "#54aeff";
const LIGHT_BACKGROUND = "#ffffff";
const DARK_BACKGROUND = "#161b22";

const typical: Statistics = StatisticsSchema.parse({
  clicks: 1000,
  uniqueClicks: 500,
  topCountries: { Canada: "400", France: "300", "United States": 200, Japan: 100 },
  topReferrers: { "https://www.google.com/": "600", "https://news.ycombinator.com/item?id=1": 250 },
  topBrowsers: { Chrome: 800, Firefox: 200 },
  topOs: { Windows: 500, "Mac OS X": 300, Linux: 200 },
  socialCount: 0,
});

describe("clickChart PNG: what a person sees", () => {
  it("decodes to the stated size, every chunk checked, and stays under 30 KB", () => {
    const chart = clickChart(typical, { title: "go.example/spring" });
    const png = chart.png();
    const image = decodePng(png);
    expect([image.width, image.height]).toEqual([chart.width, chart.height]);
    expect(chart.width).toBe(640);
    expect(png.length).toBeLessThan(30 * 1024);
    expect(image.colourAt(0, 0)).toBe(LIGHT_BACKGROUND);
  });

  it("draws clicks, then unique clicks, then each list's bars in order, as long as their counts say", () => {
    const image = decodePng(clickChart(typical).png());
    const bars = barsOf(image, [BAR, UNIQUE]);
    // clicks, unique, 4 countries, 2 referrers, 2 browsers, 3 OS
    expect(bars).toHaveLength(2 + 4 + 2 + 2 + 3);
    const full = bars[0]!.length;
    expect(image.colourAt(bars[0]!.left, bars[0]!.top)).toBe(BAR);
    expect(image.colourAt(bars[1]!.left, bars[1]!.top)).toBe(UNIQUE);
    const expected = [1000, 500, 400, 300, 200, 100, 600, 250, 800, 200, 500, 300, 200];
    bars.forEach((bar, index) => expect(Math.abs(bar.length - (full * expected[index]!) / 1000)).toBeLessThanOrEqual(1));
    // Every bar starts at the same x: the labels' column is the same width throughout.
    expect(new Set(bars.map((bar) => bar.left)).size).toBe(1);
    // Top to bottom.
    for (let index = 1; index < bars.length; index += 1) expect(bars[index]!.top).toBeGreaterThan(bars[index - 1]!.top);
  });

  it("draws an honest 'no clicks yet' for empty statistics, with no bar at all", () => {
    const empty = StatisticsSchema.parse({ clicks: 0, uniqueClicks: 0, topCountries: 0, topReferrers: [], topBrowsers: "0", topOs: null, socialCount: 0 });
    const chart = clickChart(empty, { title: "spring" });
    expect(chart.description).toBe("spring: no clicks yet");
    expect(chart.svg()).toContain(">No clicks yet<");
    expect(clickChart(empty, { unit: "scans" }).svg()).toContain(">No scans yet<");
    const image = decodePng(chart.png());
    expect(barsOf(image, [BAR, UNIQUE])).toEqual([]);
    expect(image.height).toBeLessThan(200);
  });

  it("draws on a dark background for a dark appearance, with the same layout", () => {
    const light = clickChart(typical);
    const dark = clickChart(typical, { theme: "dark" });
    expect([dark.width, dark.height]).toEqual([light.width, light.height]);
    expect(decodePng(dark.png()).colourAt(0, 0)).toBe(DARK_BACKGROUND);
    expect(dark.svg()).toContain(`fill="${DARK_BACKGROUND}"`);
  });

  it("fits a narrow front end: at 440 pixels nothing is drawn beyond the right edge and labels are cut with an ellipsis", () => {
    const chart = clickChart({ ...typical, topCountries: { "United Kingdom of Great Britain and Northern Ireland": 10 } }, { width: 440 });
    expect(chart.width).toBe(440);
    const svg = chart.svg();
    expect(svg).toContain("United Kingd\u2026");
    const image = decodePng(chart.png());
    for (const bar of barsOf(image, [BAR, UNIQUE])) expect(bar.left + bar.length).toBeLessThanOrEqual(440 - 16);
  });

  it("puts the four lists in two columns from 800 pixels, so a wide chart is not tall", () => {
    const wide = clickChart(typical, { width: 900 });
    expect(wide.height).toBeLessThan(clickChart(typical).height * 0.8);
    const bars = barsOf(decodePng(wide.png()), [BAR, UNIQUE]);
    // The longest bar of each row: Canada (400) on the left beside google.com (600) on the right.
    const lists = bars.slice(2);
    expect(lists.some((bar) => bar.left > wide.width / 2)).toBe(true);
    expect(lists.some((bar) => bar.left < wide.width / 2)).toBe(true);
  });
});

describe("clickChart with hostile statistics", () => {
  const megabyte = "A".repeat(1024 * 1024);
  const countries: Record<string, number> = {};
  for (let index = 0; index < 10_000; index += 1) countries[`Country ${index}`] = index;
  const hostile = {
    clicks: "-3",
    uniqueClicks: "twelve",
    topCountries: countries,
    topReferrers: { '<script>alert("x")</script>': 5, [`${megabyte}`]: 4, "\u202eevil\u0000": 3, "&amp;": "2" },
    topBrowsers: { Negative: -50, Text: "lots", Real: "7", Infinite: Number.POSITIVE_INFINITY, Huge: "1e400" },
    topOs: [1, 2, 3],
  };

  it("keeps the five largest of 10,000 countries, cuts 1 MB labels and escapes markup", () => {
    const chart = clickChart(hostile, { title: `${megabyte}<svg onload=alert(1)>` });
    const svg = chart.svg();
    expect(svg.length).toBeLessThan(20_000);
    expect(chart.description.length).toBeLessThan(2_000);
    expect(svg).not.toMatch(/<script|<svg onload/i);
    expect(svg).toContain("&lt;script&gt;");
    expect(svg).toContain("&amp;amp;");
    expect(svg).not.toMatch(/[\u0000\u202e]/);
    // Only the chart's own elements: nothing a label brought in.
    expect(new Set([...svg.matchAll(/<([a-z]+)/g)].map((match) => match[1]))).toEqual(new Set(["svg", "title", "rect", "g", "text"]));
    for (const name of ["Country 9999", "Country 9998", "Country 9997", "Country 9996", "Country 9995"]) expect(svg).toContain(`>${name}<`);
    expect(svg).not.toContain(">Country 9994<");
  });

  it("draws negative, textual and infinite counts as nothing, and numeric strings as numbers", () => {
    const chart = clickChart(hostile);
    expect(chart.description).toMatch(/^0 clicks, 0 unique\./);
    expect(chart.description).toContain("Top browsers: Real 7");
    expect(chart.description).not.toMatch(/Negative|Text|Infinite|Huge/);
    const image = decodePng(chart.png());
    expect(image.width).toBe(640);
  });

  it("bounds the picture whatever the input: the same size for 10,000 countries as for five", () => {
    const few = clickChart({ ...hostile, topCountries: { A: 1, B: 2, C: 3, D: 4, E: 5 } });
    const many = clickChart(hostile);
    expect([many.width, many.height]).toEqual([few.width, few.height]);
    expect(many.png().length).toBeLessThan(30 * 1024);
    expect(clickChart(typical, { width: 1e9 }).width).toBe(1600);
    expect(clickChart(typical, { width: -5 }).width).toBe(320);
    expect(clickChart(typical, { width: Number.NaN }).width).toBe(640);
  });

  it("writes large counts in at most seven characters, so the count column never overflows", () => {
    const chart = clickChart({ clicks: "9876543210", uniqueClicks: 999_999, topCountries: { Canada: 1_250_000, France: 1e20 } });
    expect(chart.description).toBe("9.8B clicks, 999,999 unique. Top countries: France 1000T, Canada 1.2M");
    const svg = chart.svg();
    for (const count of ["9.8B", "999,999", "1000T", "1.2M"]) expect(svg).toContain(`>${count}<`);
  });

  it("draws statistics that are not an object at all as no clicks", () => {
    expect(clickChart(null as never).description).toBe("no clicks yet");
    expect(clickChart("0" as never).description).toBe("no clicks yet");
  });
});

describe("the PNG's deflate", () => {
  it("inflates with zlib to the very bytes it was given, for any data and row length", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 5000 }), fc.integer({ min: 1, max: 40000 }), fc.integer({ min: 0, max: 3 }), (data, stride, alphabetBits) => {
        // Few distinct values make long runs and repeated rows, the matches the encoder looks for.
        const input = alphabetBits === 0 ? data : data.map((byte) => byte & ((1 << alphabetBits) - 1));
        expect(Buffer.from(inflateSync(zlibCompress(input, stride)))).toEqual(Buffer.from(input));
      }),
      { numRuns: 300 },
    );
  });

  it("round-trips long runs and repeated rows larger than one match", () => {
    const rows = new Uint8Array(1601 * 300);
    for (let index = 0; index < rows.length; index += 1) rows[index] = index % 1601 < 700 ? 0 : (index % 1601) % 7;
    expect(Buffer.from(inflateSync(zlibCompress(rows, 1601)))).toEqual(Buffer.from(rows));
  });
});
