import { Action, ActionPanel, Detail } from "@raycast/api";
import { ShortUrlQr } from "./QrImage";

/** What a successful shortening shows: the short URL, with open, copy and QR actions. */
export function LinkResult({ shorturl, longurl }: { shorturl: string; longurl: string }) {
  return (
    <Detail
      markdown={`# ${shorturl}\n\nCopied to the clipboard.\n\n→ ${longurl}`}
      actions={
        <ActionPanel>
          <Action.OpenInBrowser title="Open Short URL" url={shorturl} />
          <Action.CopyToClipboard title="Copy Short URL" content={shorturl} />
          <Action.Push title="Show QR Code" target={<ShortUrlQr shorturl={shorturl} />} />
        </ActionPanel>
      }
    />
  );
}
