import { Clipboard, showHUD, showToast, Toast, type LaunchProps } from "@raycast/api";
import { getClient, getPreferences } from "./api/client";
import { showFailure } from "./api/failure";
import { findUrl, raycastSources, type UrlSources } from "./api/url-source";

interface Arguments {
  url?: string;
}

/** Shortens one URL with a single request and copies (or pastes) the short URL. */
export async function shortenLink(
  argument: string | undefined,
  sources: UrlSources = raycastSources,
): Promise<string | undefined> {
  const found = await findUrl(argument, sources);
  if ("error" in found) {
    await showToast({ style: Toast.Style.Failure, title: "No URL to shorten", message: found.error });
    return undefined;
  }
  const { defaultDomain, primaryAction } = getPreferences();
  try {
    const { shorturl } = await getClient().links.create({
      url: found.url,
      ...(defaultDomain?.trim() ? { domain: defaultDomain.trim() } : {}),
    });
    if (primaryAction === "paste") {
      await Clipboard.paste(shorturl);
      await showHUD(`Pasted ${shorturl}`);
    } else {
      await Clipboard.copy(shorturl);
      await showHUD(`Copied ${shorturl}`);
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
