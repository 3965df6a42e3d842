import { Clipboard, showHUD, showToast, Toast } from "@raycast/api";
import { stopsBulkRun } from "@linkshort/client/core";
import { getPreferences } from "./api/client";
import { failureKind, showFailure } from "./ui/failure";
import { bulkUrls } from "./values/bulk-urls";
import { quickShorten } from "./api/shorten";
import { raycastSources, type UrlSources } from "./ui/url-source";

export interface BulkResult {
  shortUrls: string[];
  reused: number;
  failed: Array<{ url: string; reason: string }>;
  /** URLs not tried after a failure every later URL would share (no connection, a refused plan). */
  notTried: string[];
}

/** Failures named in the final toast; more are counted. */
const NAMED_FAILURES = 5;

const shown = (url: string) => (url.length > 80 ? `${url.slice(0, 79)}…` : url);

/**
 * Shortens every URL in the selection, else the clipboard, one after the other (the client keeps
 * within the rate limit, waiting when the service asks), with a progress toast; copies (or pastes)
 * the short URLs, one a line, and names every URL that could not be shortened. A failure every
 * later URL would share (the client's `stopsBulkRun`) stops the run: a wrong key or Service URL
 * with the preferences to fix it, any other with what was done and how many were not tried.
 */
export async function shortenInBulk(sources: Pick<UrlSources, "selection" | "clipboard"> = raycastSources) {
  const text = (await sources.selection()) ?? (await sources.clipboard()) ?? "";
  const found = bulkUrls(text);
  if ("error" in found) {
    await showToast({ style: Toast.Style.Failure, title: "Nothing to shorten", message: found.error });
    return undefined;
  }
  const { urls } = found;
  const result: BulkResult = { shortUrls: [], reused: 0, failed: [], notTried: [] };
  const toast = await showToast({ style: Toast.Style.Animated, title: `Shortening 1 of ${urls.length}` });
  for (const [at, url] of urls.entries()) {
    toast.title = `Shortening ${at + 1} of ${urls.length}`;
    try {
      const { shorturl, reused } = await quickShorten({ url });
      result.shortUrls.push(shorturl);
      if (reused) result.reused += 1;
    } catch (error) {
      // A wrong key or Service URL fails every URL alike: stop, and say what to fix.
      if (failureKind(error) === "settings") {
        await toast.hide();
        await showFailure(error, "Could not shorten the links");
        return undefined;
      }
      result.failed.push({ url, reason: error instanceof Error ? error.message : String(error) });
      if (stopsBulkRun(error)) {
        result.notTried = urls.slice(at + 1);
        break;
      }
    }
  }

  if (result.shortUrls.length > 0) {
    const list = result.shortUrls.join("\n");
    if (getPreferences().primaryAction === "paste") await Clipboard.paste(list);
    else await Clipboard.copy(list);
  }
  const done = getPreferences().primaryAction === "paste" ? "Pasted" : "Copied";
  const reusedNote = result.reused > 0 ? ` (${result.reused} existing)` : "";
  if (result.failed.length === 0) {
    await toast.hide();
    await showHUD(`${done} ${result.shortUrls.length} short links${reusedNote}`);
    return result;
  }
  const named = result.failed.slice(0, NAMED_FAILURES).map(({ url, reason }) => `${shown(url)}: ${reason}`);
  const more = result.failed.length - named.length;
  toast.style = Toast.Style.Failure;
  const notTriedNote = result.notTried.length > 0 ? `, ${result.notTried.length} not tried` : "";
  toast.title = `${done} ${result.shortUrls.length} of ${urls.length} short links${reusedNote}; ${result.failed.length} failed${notTriedNote}`;
  toast.message = [...named, ...(more > 0 ? [`and ${more} more`] : [])].join("\n");
  return result;
}

export default async function Command() {
  await shortenInBulk();
}
