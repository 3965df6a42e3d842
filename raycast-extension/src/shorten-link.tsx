import { Clipboard, showHUD, showToast, Toast, type LaunchProps } from "@raycast/api";
import { getPreferences } from "./api/client";
import { showFailure } from "./ui/failure";
import { quickShorten } from "./api/shorten";
import { findUrl, raycastSources, type UrlSources } from "./ui/url-source";

interface Arguments {
  url?: string;
}

/** Shortens one URL (one request: the create, or the GET that confirms an existing link) and copies (or pastes) the short URL. */
export async function shortenLink(
  argument: string | undefined,
  sources: UrlSources = raycastSources,
): Promise<string | undefined> {
  const found = await findUrl(argument, sources);
  if ("error" in found) {
    await showToast({ style: Toast.Style.Failure, title: "No URL to shorten", message: found.error });
    return undefined;
  }
  try {
    const { shorturl, reused } = await quickShorten({ url: found.url });
    const note = reused ? " (your existing link)" : "";
    if (getPreferences().primaryAction === "paste") {
      await Clipboard.paste(shorturl);
      await showHUD(`Pasted ${shorturl}${note}`);
    } else {
      await Clipboard.copy(shorturl);
      await showHUD(`Copied ${shorturl}${note}`);
    }
    return shorturl;
  } catch (error) {
    await showFailure(error, "Could not shorten the link", () => shortenLink(found.url, sources));
    return undefined;
  }
}

export default async function Command(props: LaunchProps<{ arguments: Arguments }>) {
  await shortenLink(props.arguments?.url);
}
