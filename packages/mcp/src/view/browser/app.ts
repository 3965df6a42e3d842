/**
 * The statistics view's script, bundled for the browser into the page the server serves
 * (view/page.ts): the page, and its connection to the host.
 */
import { HostConnection } from "./host";
import { StatisticsPage } from "./render";

/**
 * Renders into the page's `#view` what the host shows it. Exported so that this file is an ES
 * module: in a CommonJS package esbuild reads a file without exports as CommonJS, and wraps it.
 */
export function startStatisticsView(): void {
  const page = new StatisticsPage(document.getElementById("view")!);
  const host = new HostConnection({
    toolResult: (result) => page.show(result),
    toolCancelled: () => page.show({ isError: true, content: [{ type: "text", text: "The call was cancelled." }] }),
  });
  host.start(() => page.status("The host did not start this view."));
}

startStatisticsView();
