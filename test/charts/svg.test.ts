import type { Browser } from "playwright-core";
import { clickChart } from "@linkshort/client/charts";
import { launchBrowser, look } from "./browser";
import { barsOf } from "./png-reader";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

const stats = {
  clicks: 1234,
  uniqueClicks: 812,
  topCountries: { "United Kingdom of Great Britain and Northern Ireland": 500, "Côte d'Ivoire": "420", 日本: 120, Canada: 40 },
  topReferrers: { "https://www.google.com/search?q=a+very+long+query+indeed": 300, '"><script>alert(1)</script>': 9 },
  topBrowsers: { Chrome: 700, Safari: 300 },
  topOs: { Windows: 350, iOS: 200 },
};

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

interface TextBox extends Box {
  text: string;
  anchor: string;
}

describe("clickChart SVG in the real browser", () => {
  for (const [width, theme] of [
    [640, "light"],
    [400, "dark"],
    [900, "light"],
  ] as const) {
    it(`${width} px, ${theme}: every label ends before its bar and every count after it (browser fonts), nothing past the edge, no console error`, async () => {
      const svg = clickChart(stats, { title: "go.example.com/spring-sale", width, theme }).svg();
      const seen = await look(
        browser,
        { html: `<!doctype html><html><body style="margin:0">${svg}</body></html>` },
        { width, height: 800 },
        `svg-${width}-${theme}`,
      );
      const texts = await seen.page.evaluate<TextBox[]>(`[...document.querySelectorAll("text")].map((text) => {
        const box = text.getBoundingClientRect();
        return { text: text.textContent, left: box.left, right: box.right, top: box.top, bottom: box.bottom, anchor: text.getAttribute("text-anchor") || "start" };
      })`);
      // The tracks: one full-length rectangle behind each bar, the first of each pair of 14-pixel rectangles.
      const tracks = await seen.page.evaluate<
        Box[]
      >(`[...document.querySelectorAll("rect")].filter((rect) => rect.getAttribute("height") === "14").filter((rect, index) => index % 2 === 0).map((rect) => {
        const box = rect.getBoundingClientRect();
        return { left: box.left, right: box.right, top: box.top, bottom: box.bottom };
      })`);
      expect(tracks.length).toBe(2 + 4 + 2 + 2 + 2);
      for (const text of texts) {
        expect(text.left).toBeGreaterThanOrEqual(0);
        expect(text.right).toBeLessThanOrEqual(width);
      }
      for (const track of tracks) {
        const row = texts.filter((text) => text.top < track.bottom && text.bottom > track.top);
        // In two columns a row holds two bars: the label is the nearest text to the bar's left, the count to its right.
        const label = row.filter((text) => text.anchor === "start" && text.left < track.left).sort((a, b) => b.left - a.left)[0]!;
        const count = row.filter((text) => text.anchor === "end" && text.right > track.right).sort((a, b) => a.right - b.right)[0]!;
        expect(label.right).toBeLessThanOrEqual(track.left);
        expect(count.left).toBeGreaterThanOrEqual(track.right);
      }
      // The hostile referrer is text, cut to its column.
      expect(texts.some((text) => text.text.startsWith('"><script>') && text.text.endsWith("\u2026"))).toBe(true);
      expect(await seen.page.evaluate<number>(`document.scripts.length`)).toBe(0);
      expect(barsOf(seen.screenshot, theme === "dark" ? ["#4493f8", "#1f6feb"] : ["#0969da", "#54aeff"]).length).toBeGreaterThan(3);
      expect(seen.errors).toEqual([]);
      await seen.page.close();
    });
  }
});
