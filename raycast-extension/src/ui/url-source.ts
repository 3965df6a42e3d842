import { BrowserExtension, Clipboard, environment, getSelectedText } from "@raycast/api";
import { isHttpUrl } from "@linkshort/client/values";

export type UrlSource = "argument" | "selection" | "browser" | "clipboard";

/** Where a URL to shorten can come from, in the order they are tried. */
export interface UrlSources {
  selection: () => Promise<string | undefined>;
  browser: () => Promise<string | undefined>;
  clipboard: () => Promise<string | undefined>;
}

const quietly = (read: () => Promise<string | undefined>) => async () => {
  try {
    return (await read())?.trim() || undefined;
  } catch {
    return undefined;
  }
};

export const raycastSources: UrlSources = {
  selection: quietly(() => getSelectedText()),
  browser: quietly(async () => {
    if (!environment.canAccess(BrowserExtension)) return undefined;
    const tabs = await BrowserExtension.getTabs();
    return tabs.find((tab) => tab.active)?.url;
  }),
  clipboard: quietly(() => Clipboard.readText()),
};

/**
 * The URL to shorten: a typed argument wins (and must be a URL); otherwise the selected text, the
 * frontmost browser tab's URL, then the clipboard, whichever is first a valid http(s) URL.
 */
export async function findUrl(
  argument: string | undefined,
  sources: UrlSources = raycastSources,
): Promise<{ url: string; source: UrlSource } | { error: string }> {
  const typed = argument?.trim();
  if (typed)
    return isHttpUrl(typed)
      ? { url: typed, source: "argument" }
      : { error: `"${typed}" is not a valid http or https URL` };
  for (const source of ["selection", "browser", "clipboard"] as const) {
    const candidate = await sources[source]();
    if (candidate && isHttpUrl(candidate)) return { url: candidate, source };
  }
  return { error: "Select a URL, open one in your browser or copy one, then try again" };
}
