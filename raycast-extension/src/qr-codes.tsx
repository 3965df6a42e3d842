import { Action, ActionPanel, Icon, Keyboard, List } from "@raycast/api";
import { useCachedPromise, usePromise } from "@raycast/utils";
import type { QrCode } from "@linkshort/client/core";
import { getClient } from "./api/client";
import { pluralize, statisticsMarkdown } from "./api/format";
import { QrForm } from "./components/QrForm";
import { qrDataUrl } from "./components/QrImage";
import { useQrCodes } from "./hooks/useDomains";

function QrDetail({ qr }: { qr: QrCode }) {
  const { data: image } = usePromise(qrDataUrl, [qr.link]);
  const { data: stats } = useCachedPromise((id: number) => getClient().qrCodes.get(id), [qr.id]);
  return (
    <List.Item.Detail
      markdown={`${image ? `![QR code](${image})` : ""}\n\n${qr.link}\n\n${stats ? statisticsMarkdown(stats.stats).replace("Clicks", "Scans") : ""}`}
    />
  );
}

export default function Command() {
  const { data, isLoading, pagination, revalidate } = useQrCodes();
  const create = <QrForm onCreated={revalidate} />;
  return (
    <List
      isLoading={isLoading}
      isShowingDetail
      pagination={pagination}
      searchBarPlaceholder="Search QR codes"
      actions={
        <ActionPanel>
          <Action.Push title="Create QR Code" icon={Icon.Plus} target={create} />
        </ActionPanel>
      }
    >
      {(data ?? []).map((qr) => (
        <List.Item
          key={qr.id}
          title={qr.name || qr.link}
          keywords={[qr.link]}
          accessories={[{ text: pluralize(qr.scans, "scan") }]}
          detail={<QrDetail qr={qr} />}
          actions={
            <ActionPanel>
              <Action.CopyToClipboard title="Copy QR Link" content={qr.link} />
              <Action.OpenInBrowser title="Open QR Link" url={qr.link} />
              <Action.Push
                title="Create QR Code"
                icon={Icon.Plus}
                shortcut={Keyboard.Shortcut.Common.New}
                target={create}
              />
            </ActionPanel>
          }
        />
      ))}
    </List>
  );
}
