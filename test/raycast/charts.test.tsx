import type { Browser } from "playwright-core";
import type { ReactElement } from "react";
import type { ReactTestInstance } from "react-test-renderer";
import QrCodes from "../../raycast-extension/src/qr-codes";
import SearchLinks from "../../raycast-extension/src/search-links";
import { launchBrowser, look } from "../charts/browser";
import { barsOf, decodePng } from "../charts/png-reader";
import { apiCall, byType, render, selection, useSandbox, waitFor } from "./helpers";
import { environment } from "./raycast-api-mock";

const sandbox = useSandbox();
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());
beforeEach(() => {
  environment.appearance = "light";
});

const LIGHT_BARS = ["#0969da", "#54aeff"];
const DARK_BARS = ["#4493f8", "#1f6feb"];
const detailMarkdown = (root: ReactTestInstance) => String(byType(root, "List.Item.Detail")[0]?.props.markdown ?? "");
const chartIn = (markdown: string) => /!\[([^\]]*)\]\(data:image\/png;base64,([A-Za-z0-9+/=]+)\)/.exec(markdown);

/** Search Links with the link `alias` selected, once its detail shows the chart. */
async function linkDetail(alias: string) {
  const link = sandbox.store.state.links.find((candidate) => candidate.userId === 2 && candidate.alias === alias)!;
  selection.id = String(link.id);
  const view = await render(<SearchLinks />);
  await waitFor(() => chartIn(detailMarkdown(view.root)) !== null, "the chart in the link's detail", 15_000);
  return { view, link, markdown: detailMarkdown(view.root) };
}

/** The markdown of a detail as Raycast lays it out: the text in paragraphs, the image at its own size, in the pane's narrowest width. */
function detailPage(markdown: string, appearance: "light" | "dark"): string {
  const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const blocks = markdown.split(/\n\n+/).map((block) => {
    const image = /^!\[([^\]]*)\]\((data:image\/png;base64,[A-Za-z0-9+/=]+)\)$/.exec(block);
    if (image) return `<p><img alt="${escape(image[1]!).replace(/"/g, "&quot;")}" src="${image[2]}"></p>`;
    return `<p>${escape(block)
      .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
      .replace(/^### (.*)$/, "<h3>$1</h3>")}</p>`;
  });
  const colours = appearance === "dark" ? "background:#1c1c1e;color:#f2f2f7" : "background:#ffffff;color:#1c1c1e";
  // Raycast's detail pane: about 450 points in its narrowest window, with 16 points of margin.
  return `<!doctype html><html><head><meta charset="utf-8"><style>body{margin:0;${colours};font:13px -apple-system,sans-serif}
main{box-sizing:border-box;width:450px;padding:16px;overflow:hidden}img{display:block;max-width:none}</style></head><body><main>${blocks.join("")}</main></body></html>`;
}

describe("Search Links: the link's detail shows its chart", () => {
  it("draws the link's clicks as a 400-pixel chart above the text, which stays for screen readers and copying", async () => {
    const { view, link, markdown } = await linkDetail("raycast");
    const [, alt, base64] = chartIn(markdown)!;
    expect(alt).toMatch(
      new RegExp(`^${sandbox.baseUrl.replace(/^https?:\/\//, "").replace(/[.]/g, "\\.")}/raycast: ${link.stats.clicks.toLocaleString("en-US")} clicks`),
    );
    expect(markdown.indexOf("data:image/png")).toBeLessThan(markdown.indexOf("**Clicks:**"));
    expect(markdown).toContain(`**Clicks:** ${link.stats.clicks}`);
    const image = decodePng(Buffer.from(base64!, "base64"));
    expect(image.width).toBe(400);
    expect(image.colourAt(0, 0)).toBe("#ffffff");
    const bars = barsOf(image, LIGHT_BARS);
    expect(bars.length).toBeGreaterThan(2);
    expect(bars[0]!.length).toBeGreaterThanOrEqual(bars[1]!.length);
    view.unmount();
  });

  it("follows a dark appearance: the chart is drawn on a dark background", async () => {
    environment.appearance = "dark";
    const { view, markdown } = await linkDetail("raycast");
    const image = decodePng(Buffer.from(chartIn(markdown)![2]!, "base64"));
    expect(image.colourAt(0, 0)).toBe("#161b22");
    expect(barsOf(image, DARK_BARS).length).toBeGreaterThan(2);
    view.unmount();
  });

  it("lists tied countries in the text under the chart, and as the top country, in the chart's order", async () => {
    await apiCall(sandbox, "POST", "/api/url/add", { url: "https://example.com/tied-countries", custom: "tied-countries" });
    // The service's map keeps the order of first visits: France, Canada, Åland, Germany.
    for (const [index, country] of ["FR", "FR", "CA", "CA", "AX", "AX", "DE"].entries()) {
      await (
        await fetch(`${sandbox.baseUrl}/tied-countries`, { redirect: "manual", headers: { "cf-ipcountry": country, "user-agent": `tied-${index}` } })
      ).text();
    }
    const { view, markdown } = await linkDetail("tied-countries");
    const metadata = byType(view.root, "List.Item.Detail")[0]!.props.metadata as ReactElement<{ children: unknown[] }>;
    const labels = metadata.props.children.flat() as Array<ReactElement<{ title: string; text: string }> | null>;
    const topCountry = labels.find((label) => label?.props.title === "Top Country")!.props.text;
    view.unmount();
    const inChart = /Top countries: ([^.]*)/
      .exec(chartIn(markdown)![1]!)![1]!
      .split(", ")
      .map((entry) => entry.replace(/ \d+$/, ""));
    const inText = /\*\*Top countries:\*\* (.*)/
      .exec(markdown)![1]!
      .split(", ")
      .map((entry) => entry.replace(/ \(\d+\)$/, ""));
    expect(inChart).toEqual(["Canada", "France", "Åland Islands", "Germany"]);
    expect(inText).toEqual(inChart);
    expect(topCountry).toBe("Canada");
  });

  for (const appearance of ["light", "dark"] as const) {
    it(`in the real browser, at the detail pane's narrowest width (${appearance}): the whole chart shows, uncropped and unscaled, bars and counts included`, async () => {
      environment.appearance = appearance;
      const { view, markdown } = await linkDetail("raycast");
      view.unmount();
      const seen = await look(browser, { html: detailPage(markdown, appearance) }, { width: 450, height: 800 }, `raycast-link-detail-${appearance}`);
      const box = await seen.page.evaluate<{ right: number; width: number; natural: number; complete: boolean; mainRight: number }>(`(() => {
        const image = document.querySelector("img");
        const rect = image.getBoundingClientRect();
        const main = document.querySelector("main").getBoundingClientRect();
        return { right: rect.right, width: rect.width, natural: image.naturalWidth, complete: image.complete, mainRight: main.right - 16 };
      })()`);
      expect(box.complete).toBe(true);
      expect(box.natural).toBe(400);
      expect(box.width).toBe(400);
      expect(box.right).toBeLessThanOrEqual(box.mainRight);
      const bars = barsOf(seen.screenshot, appearance === "dark" ? DARK_BARS : LIGHT_BARS);
      expect(bars.length).toBeGreaterThan(2);
      for (const bar of bars) expect(bar.left + bar.length).toBeLessThanOrEqual(box.right);
      // The counts' column ends inside the picture: pixels of text colour just left of its right margin.
      const textColour = appearance === "dark" ? "#e6edf3" : "#1f2328";
      const countColumn = Array.from({ length: 30 }, (_, x) => box.right - 16 - 30 + x);
      const countPixels = countColumn.filter((x) =>
        Array.from({ length: 40 }, (_, dy) => seen.screenshot.colourAt(x, bars[0]!.top - 2 + dy)).includes(textColour),
      );
      expect(countPixels.length).toBeGreaterThan(0);
      expect(seen.errors).toEqual([]);
      await seen.page.close();
    });
  }
});

describe("QR Codes: the QR code's detail shows its chart of scans", () => {
  it("draws 'No scans yet' for a code never scanned, in words as well", async () => {
    const created = await apiCall(sandbox, "POST", "/api/qr/add", { type: "link", data: "https://example.com/poster", name: "Poster" });
    selection.id = String(created.id);
    const view = await render(<QrCodes />);
    await waitFor(() => /No scans yet|no scans yet/.test(detailMarkdown(view.root)), "the chart in the QR detail", 60_000);
    const markdown = detailMarkdown(view.root);
    const charts = [...markdown.matchAll(/!\[([^\]]*)\]\(data:image\/png;base64,([A-Za-z0-9+/=]+)\)/g)];
    const chart = charts.find((match) => match[1] === "Poster: no scans yet")!;
    const image = decodePng(Buffer.from(chart[2]!, "base64"));
    expect(image.width).toBe(400);
    expect(barsOf(image, LIGHT_BARS)).toEqual([]);
    expect(markdown).toContain("**Scans:** 0");
    view.unmount();
  }, 120_000);
});
