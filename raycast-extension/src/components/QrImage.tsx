import { Action, ActionPanel, Detail, Icon, Keyboard, showHUD } from "@raycast/api";
import { usePromise } from "@raycast/utils";
import {
  copyQrPicture,
  drawQrPng,
  loadQrPicture,
  qrImageUrl,
  qrPictureMarkdown,
  type QrPicture,
} from "../api/qr-image";
import { useQrPicture } from "../hooks/useQrPicture";
import { showFailure } from "../ui/failure";

/** Copy QR Image: copies the picture `load` gives (the service's image, loaded when pressed) as a PNG file. */
export function CopyQrImageAction({ load, name }: { load: () => Promise<QrPicture>; name: string }) {
  return (
    <Action
      title="Copy QR Image"
      icon={Icon.Image}
      shortcut={Keyboard.Shortcut.Common.Copy}
      onAction={async () => {
        try {
          const picture = await load();
          await copyQrPicture(picture, name);
          await showHUD(picture.source === "service" ? "Copied the QR image" : "Copied the QR image (drawn here)");
        } catch (error) {
          await showFailure(error, "Could not copy the QR image");
        }
      }}
    />
  );
}

/** A QR code of the service, as the service draws it: what shows after creating one. */
export function QrImage({ title, link }: { title: string; link: string }) {
  const { data: picture, isLoading } = useQrPicture(link);
  return (
    <Detail
      isLoading={isLoading}
      navigationTitle={title}
      markdown={`## ${title}\n\n${qrPictureMarkdown(picture)}\n\n${link}`}
      actions={
        <ActionPanel>
          <CopyQrImageAction load={() => loadQrPicture(link)} name={title} />
          <Action.CopyToClipboard title="Copy Tracking Link" content={link} />
          <Action.OpenInBrowser title="Open Tracking Link" url={link} />
          <Action.OpenInBrowser title="Open SVG Image" icon={Icon.Download} url={qrImageUrl(link, "svg")} />
        </ActionPanel>
      }
    />
  );
}

/** A QR image of a short URL just made, drawn here (it is not a QR code of the service). */
export function ShortUrlQr({ shorturl }: { shorturl: string }) {
  const { data, isLoading } = usePromise(drawQrPng, [shorturl]);
  return (
    <Detail
      isLoading={isLoading}
      markdown={`## ${shorturl}\n\n${data ? `![QR code of ${shorturl}](data:image/png;base64,${data})` : ""}\n\nDrawn here from the short URL. To track its scans, create a QR code in the QR Codes command.`}
      actions={
        <ActionPanel>
          <CopyQrImageAction
            load={async () => ({ source: "local", reason: "drawn from the short URL", png: await drawQrPng(shorturl) })}
            name={shorturl.replace(/^https?:\/\//, "")}
          />
          <Action.CopyToClipboard title="Copy Short URL" content={shorturl} />
        </ActionPanel>
      }
    />
  );
}
