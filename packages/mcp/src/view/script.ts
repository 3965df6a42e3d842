/**
 * The view's script: browser/app.ts and what it imports, bundled for the browser as one string. The build
 * puts that string here in this module's place (tsup.config.ts, `bundledViewScript`), so the built
 * server neither bundles nor imports esbuild; run from source (jest), this module bundles it once,
 * with the same function.
 */
import { bundleStatisticsView } from "../../scripts/view-bundle";

export const STATISTICS_VIEW_SCRIPT: string = bundleStatisticsView();
