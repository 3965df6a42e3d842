/**
 * The statistics view's script (src/view/browser/app.ts and what it imports) bundled for the browser into
 * one string: what src/view/script.ts stands for. The build (tsup.config.ts) writes the string into
 * the bundle in that module's place; run from source (jest), the module calls this itself.
 */
import { buildSync } from "esbuild";
import { join } from "node:path";

export const VIEW_ENTRY = join(__dirname, "../src/view/browser/app.ts");

export function bundleStatisticsView(): string {
  const { outputFiles } = buildSync({
    entryPoints: [VIEW_ENTRY],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    // The hosts' web views (Chromium, WebKit) of the last years: class fields as they are.
    target: "es2022",
    minify: true,
    legalComments: "none",
  });
  const script = outputFiles[0]!.text.trim();
  // The script sits in the page's <script> element: this text would end it early.
  if (/<\/script/i.test(script)) throw new Error("the statistics view's bundle holds </script");
  return script;
}
