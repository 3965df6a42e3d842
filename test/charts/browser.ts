/**
 * A page in the real browser (Debian's chromium, driven by playwright-core; no browser download),
 * for tests that look at what a person sees: a screenshot decoded to pixels, and every console
 * error and page error the page produced.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { decodePng, type DecodedPng } from "./png-reader";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
/** Where screenshots are kept for a person to look at after the run. */
export const SCREENSHOTS = join(__dirname, "../../.cache/chart-screenshots");

export async function launchBrowser(): Promise<Browser> {
  return await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
}

export interface Seen {
  page: Page;
  screenshot: DecodedPng;
  /** Console errors and uncaught page errors, in order. */
  errors: string[];
}

/** Opens `url` (or `html` as the page) at the given viewport, waits for it to settle, and screenshots the whole page. */
export async function look(
  browser: Browser,
  target: { url: string } | { html: string },
  viewport: { width: number; height: number },
  name: string,
): Promise<Seen> {
  const page = await browser.newPage({ viewport, deviceScaleFactor: 1 });
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  if ("url" in target) await page.goto(target.url, { waitUntil: "load" });
  else await page.setContent(target.html, { waitUntil: "load" });
  // A string, as it runs in the page (the tests are type-checked without the DOM's types).
  await page.evaluate("Promise.all([...document.images].map((image) => image.decode().catch(() => undefined)))");
  const shot = await page.screenshot({ fullPage: true, type: "png" });
  mkdirSync(SCREENSHOTS, { recursive: true });
  writeFileSync(join(SCREENSHOTS, `${name}.png`), shot);
  return { page, screenshot: decodePng(shot), errors };
}
