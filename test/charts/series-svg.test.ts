/**
 * The series chart's SVG and the statistics chart's, in the real browser, with names in Latin,
 * Cyrillic, Greek and CJK: text is real text (what the host's fonts draw), inside the chart, and
 * two names in one script look different on screen.
 */
import type { Browser, Page } from "playwright-core";
import { clickChart, seriesChart, type ChartSeries } from "@linkshort/client/charts";
import { launchBrowser, look } from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

const DAY = 86_400_000;
const NAMES = { latin: ["Zürich", "Zurich"], cyrillic: ["Москва", "Лондон"], greek: ["Αθήνα", "Ρόδος"], cjk: ["東京店", "大阪店"] } as const;

function week(labels?: readonly string[]): ChartSeries {
  return {
    granularity: "day",
    timeZone: "Europe/Athens",
    buckets: [3, 9, null, 0, 12, 7, 5].map((count, index) => ({
      start: Date.UTC(2026, 10, 15, 22) + index * DAY,
      count,
      exact: index !== 5,
      ...(labels ? { label: labels[index] } : {}),
    })),
  };
}

interface TextBox {
  text: string;
  left: number;
  right: number;
  width: number;
}

const textsOf = (page: Page) =>
  page.evaluate<TextBox[]>(`[...document.querySelectorAll("text")].map((text) => {
    const box = text.getBoundingClientRect();
    return { text: text.textContent, left: box.left, right: box.right, width: box.width };
  })`);

const page = (svg: string) => ({ html: `<!doctype html><html><body style="margin:0">${svg}</body></html>` });

describe("seriesChart SVG in the real browser", () => {
  for (const [script, [name]] of Object.entries(NAMES)) {
    it(`${script}: the title and the axis labels are the names as text, drawn with a width, inside the chart; bars, the gap and the spread bar in their colours`, async () => {
      const labels = [...name].concat(["a", "b", "c", "d", "e", "f", "g"]).slice(0, 7);
      const chart = seriesChart(week(labels), { title: `${name} / ${name}` });
      const seen = await look(browser, page(chart.svg()), { width: chart.width, height: chart.height }, `series-${script}`);
      const texts = await textsOf(seen.page);
      expect(texts[0]!.text).toBe(`${name} / ${name}`);
      for (const character of [...name]) expect(texts.some((text) => text.text === character)).toBe(true);
      for (const text of texts) {
        expect(text.width).toBeGreaterThan(0);
        expect(text.left).toBeGreaterThanOrEqual(0);
        expect(text.right).toBeLessThanOrEqual(chart.width);
      }
      // Each coloured rectangle shows its colour on screen (the legend's swatches included).
      const rects = await seen.page.evaluate<
        Array<{ fill: string; x: number; y: number }>
      >(`[...document.querySelectorAll("rect")].filter((rect) => rect.getAttribute("height") > 8 && rect.getAttribute("width") > 4).map((rect) => {
        const box = rect.getBoundingClientRect();
        return { fill: rect.getAttribute("fill"), x: Math.floor(box.left + box.width / 2), y: Math.floor(box.top + box.height / 2) };
      })`);
      const fills = new Set(rects.map((rect) => rect.fill));
      for (const colour of ["#0969da", "#54aeff", "#eef1f4"]) expect(fills.has(colour)).toBe(true);
      for (const rect of rects.slice(1)) expect(seen.screenshot.colourAt(rect.x, rect.y)).toBe(rect.fill);
      expect(seen.errors).toEqual([]);
      await seen.page.close();
    });
  }

  it("two names in one script look different on screen (Latin, Cyrillic, Greek; CJK as text, this machine has no CJK font)", async () => {
    for (const [script, [one, other]] of Object.entries(NAMES)) {
      const shots: string[] = [];
      for (const name of [one, other]) {
        const chart = seriesChart(week(), { title: name, width: 320 });
        const seen = await look(browser, page(chart.svg()), { width: 320, height: chart.height }, `series-title-${script}-${name === one ? 1 : 2}`);
        const texts = await textsOf(seen.page);
        expect(texts[0]!.text).toBe(name);
        let pixels = "";
        for (let y = 12; y < 36; y += 1) for (let x = 16; x < 120; x += 1) pixels += seen.screenshot.colourAt(x, y);
        shots.push(pixels);
        await seen.page.close();
      }
      if (script !== "cjk") expect([script, shots[0] === shots[1]]).toEqual([script, false]);
    }
  }, 60_000);
});

describe("clickChart SVG in the real browser with names in four scripts", () => {
  it("draws every country as text inside its column", async () => {
    const countries = Object.fromEntries(
      Object.values(NAMES)
        .flat()
        .map((name, index) => [name, 100 - index]),
    );
    const chart = clickChart({ clicks: 200, uniqueClicks: 80, topCountries: countries }, { title: "Москва · Αθήνα · 東京店" });
    const seen = await look(browser, page(chart.svg()), { width: chart.width, height: chart.height }, "statistics-scripts");
    const texts = await textsOf(seen.page);
    // The five largest of the eight.
    for (const name of ["Zürich", "Zurich", "Москва", "Лондон", "Αθήνα"]) expect(texts.some((text) => text.text === name && text.width > 0)).toBe(true);
    expect(texts[0]!.text).toBe("Москва · Αθήνα · 東京店");
    for (const text of texts) expect(text.right).toBeLessThanOrEqual(chart.width);
    expect(seen.errors).toEqual([]);
    await seen.page.close();
  });
});
