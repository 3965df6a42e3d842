/**
 * readStatistics, the one reader of a link's or QR code's statistics that the chart, the MCP view,
 * the n8n node's Simplify and Raycast's text all use: one order of a top list (ties included), one
 * set of titles, one label of a name.
 */
import type { Statistics } from "../src/index";
import { clickChart, cleanLabel, readStatistics } from "../src/charts";

const permutations = <T>(items: T[]): T[][] =>
  items.length <= 1
    ? [items]
    : items.flatMap((item, index) => permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [item, ...rest]));

const namesOf = (map: unknown, top?: number) => readStatistics({ topCountries: map }, { top }).lists[0]!.entries.map((entry) => entry.name);

describe("readStatistics: one order of a top list", () => {
  it("puts the larger count first and equal counts by name in code unit order, whatever order the server's map came in", () => {
    const counts: Array<[string, number]> = [
      ["France", 3],
      ["Canada", 3],
      ["Zambia", 3],
      ["Åland Islands", 3],
      ["germany", 3],
      ["Japan", 7],
    ];
    const expected = ["Japan", "Canada", "France", "Zambia", "germany", "Åland Islands"];
    for (const order of permutations(counts)) {
      const map = Object.fromEntries(order);
      expect(namesOf(map, Infinity)).toEqual(expected);
      for (const top of [1, 2, 5]) expect(namesOf(map, top)).toEqual(expected.slice(0, top));
    }
  });

  it("keeps the first five by default, as the chart draws, and the chart lists them in the same order", () => {
    const stats: Statistics = {
      clicks: 12,
      uniqueClicks: 9,
      topCountries: { Peru: 2, Chile: 2, Brazil: 2, Mexico: 2, Bolivia: 2, Argentina: 2, Colombia: 5 },
      topReferrers: {},
      topBrowsers: {},
      topOs: {},
      socialCount: {},
    };
    const entries = readStatistics(stats).lists[0]!.entries;
    expect(entries.map((entry) => `${entry.label} ${entry.count}`)).toEqual(["Colombia 5", "Argentina 2", "Bolivia 2", "Brazil 2", "Chile 2"]);
    expect(clickChart(stats).description).toContain(`Top countries: ${entries.map((entry) => `${entry.label} ${entry.count}`).join(", ")}`);
  });

  it("reads counts defensively: numeric strings count, zero, negative and non-numbers are left out, and a list that is no map is empty", () => {
    const reading = readStatistics({
      clicks: "25",
      uniqueClicks: -4,
      topCountries: { Chile: "4", Peru: "many", Bolivia: null, Brazil: -3, Cuba: 0, Haiti: 2.6 },
      topOs: ["not", "a", "map"],
    });
    expect([reading.clicks, reading.uniqueClicks]).toEqual([25, 0]);
    expect(reading.lists[0]!.entries).toEqual([
      { name: "Chile", label: "Chile", count: 4 },
      { name: "Haiti", label: "Haiti", count: 3 },
    ]);
    expect(reading.lists[3]!.entries).toEqual([]);
    expect(reading.empty).toBe(false);
    expect(readStatistics(null).empty).toBe(true);
  });
});

describe("readStatistics: one set of titles and one label of a name", () => {
  it("lists countries, referrers, browsers and OS in that order, each with its title", () => {
    expect(readStatistics({}).lists.map((list) => [list.key, list.title])).toEqual([
      ["topCountries", "Top countries"],
      ["topReferrers", "Top referrers"],
      ["topBrowsers", "Top browsers"],
      ["topOs", "Top OS"],
    ]);
  });

  it("labels a referrer without its scheme and www., keeps the name as sent, and labels a blank name (none)", () => {
    const [, referrers] = readStatistics({ topReferrers: { "https://www.example.com/page": 2, "   ": 1 } }).lists;
    expect(referrers!.entries).toEqual([
      { name: "https://www.example.com/page", label: "example.com/page", count: 2 },
      { name: "   ", label: "(none)", count: 1 },
    ]);
  });

  it("cleanLabel: invisible characters as spaces, composed, at most 60 characters with an ellipsis when cut, never half a surrogate pair", () => {
    expect(cleanLabel("\u202egnp.exe")).toBe("gnp.exe");
    expect(cleanLabel("a\u200b\u0000b\n\tc")).toBe("a b c");
    expect(cleanLabel("Mu\u0308nchen")).toBe("München");
    expect(cleanLabel("r".repeat(1_000_000))).toBe(`${"r".repeat(59)}\u2026`);
    expect(cleanLabel("r".repeat(60))).toBe("r".repeat(60));
    expect(cleanLabel("😀".repeat(61))).toBe(`${"😀".repeat(59)}\u2026`);
    expect(cleanLabel("a\ud800b")).toBe("a\ufffdb");
  });
});
