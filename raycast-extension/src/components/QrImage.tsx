import { Action, ActionPanel, Detail } from "@raycast/api";
import { usePromise } from "@raycast/utils";
import QRCode from "qrcode";

/** A QR image, made here from the content (a QR code's link, or any URL). */
export function qrDataUrl(content: string): Promise<string> {
  return QRCode.toDataURL(content, { margin: 2, width: 360 });
}

export function QrImage({ title, content, extra = "" }: { title: string; content: string; extra?: string }) {
  const { data, isLoading } = usePromise(qrDataUrl, [content]);
  return (
    <Detail
      isLoading={isLoading}
      markdown={`## ${title}\n\n${data ? `![QR code](${data})` : ""}\n\n${extra}`}
      actions={
        <ActionPanel>
          <Action.CopyToClipboard title="Copy Link" content={content} />
        </ActionPanel>
      }
    />
  );
}
