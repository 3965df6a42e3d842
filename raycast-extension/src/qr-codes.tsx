import { Action, ActionPanel, environment, Icon, Keyboard, List } from "@raycast/api";
import type { QrCode } from "@linkshort/client/core";
import { useMemo, useState } from "react";
import { chooseAccount, getAccounts, getChosenAccount } from "./api/accounts";
import { getClient } from "./api/client";
import { chartMarkdown } from "./values/chart";
import { confirmAndDelete } from "./ui/confirm-delete";
import { pluralize, statisticsMarkdown } from "./values/format";
import { loadQrPicture, qrImageUrl, qrPictureMarkdown } from "./api/qr-image";
import { AccountDropdown } from "./components/AccountDropdown";
import { QrForm } from "./components/QrForm";
import { CopyQrImageAction } from "./components/QrImage";
import { useQrCodes, useQrStats } from "./hooks/useQrCodes";
import { useQrPicture } from "./hooks/useQrPicture";

/** The selected QR code: the service's image of it, its tracking link and its scans. */
function QrDetail({ qr }: { qr: QrCode }) {
  const { data: picture, isLoading: imageLoading } = useQrPicture(qr.link);
  const { data: stats, isLoading: statsLoading } = useQrStats(qr.id);
  const scans = stats ? statisticsMarkdown(stats.stats).replace("**Clicks:**", "**Scans:**") : "";
  const appearance = environment.appearance;
  const title = qr.name || qr.link.replace(/^https?:\/\//, "");
  const chart = useMemo(
    () => (stats ? chartMarkdown(stats.stats, { title, unit: "scans", appearance }) : ""),
    [stats, title, appearance],
  );
  return (
    <List.Item.Detail
      isLoading={imageLoading || statsLoading}
      markdown={`${qrPictureMarkdown(picture, qr.name || "QR code")}\n\n${qr.link}\n\n${chart}\n\n${scans}`}
    />
  );
}

function QrActions({
  qr,
  onChanged,
  onDelete,
}: {
  qr: QrCode;
  onChanged: () => void;
  onDelete: (qr: QrCode) => Promise<void>;
}) {
  return (
    <ActionPanel>
      <ActionPanel.Section>
        <CopyQrImageAction load={() => loadQrPicture(qr.link)} name={qr.name || `qr-${qr.id}`} />
        <Action.CopyToClipboard title="Copy Tracking Link" content={qr.link} />
        <Action.OpenInBrowser title="Open Tracking Link" url={qr.link} />
        <Action.OpenInBrowser title="Open SVG Image" icon={Icon.Download} url={qrImageUrl(qr.link, "svg")} />
      </ActionPanel.Section>
      <ActionPanel.Section>
        <Action.Push
          title="Create QR Code"
          icon={Icon.Plus}
          shortcut={Keyboard.Shortcut.Common.New}
          target={<QrForm onSaved={onChanged} />}
        />
        <Action.Push
          title="Update QR Code"
          icon={Icon.Pencil}
          shortcut={Keyboard.Shortcut.Common.Edit}
          target={<QrForm qr={qr} onSaved={onChanged} />}
        />
        <Action
          title="Delete QR Code"
          icon={Icon.Trash}
          style={Action.Style.Destructive}
          shortcut={Keyboard.Shortcut.Common.Remove}
          onAction={() => onDelete(qr)}
        />
        <Action
          title="Reload"
          icon={Icon.ArrowClockwise}
          shortcut={Keyboard.Shortcut.Common.Refresh}
          onAction={onChanged}
        />
      </ActionPanel.Section>
    </ActionPanel>
  );
}

export default function Command() {
  const accounts = getAccounts();
  const [account, setAccount] = useState(getChosenAccount);
  const { data, isLoading, pagination, revalidate, mutate } = useQrCodes(account);

  async function deleteQr(qr: QrCode) {
    await confirmAndDelete({
      title: "Delete this QR code?",
      message: `${qr.name || qr.link} will stop working wherever it is printed, and its ${pluralize(qr.scans, "scan")} are lost.`,
      deleted: "QR code deleted",
      failure: "Could not delete the QR code",
      remove: () =>
        mutate(getClient(account).qrCodes.delete(qr.id), {
          optimisticUpdate: (codes) => codes?.filter((candidate) => candidate.id !== qr.id),
        }),
      retry: () => deleteQr(qr),
    });
  }

  return (
    <List
      isLoading={isLoading}
      isShowingDetail={(data ?? []).length > 0}
      pagination={pagination}
      searchBarPlaceholder="Search QR codes by name or link"
      searchBarAccessory={
        <AccountDropdown accounts={accounts} chosen={account} onChange={(id) => setAccount(chooseAccount(id))} />
      }
    >
      <List.EmptyView
        icon={Icon.Code}
        title={isLoading ? "Loading QR codes…" : "No QR codes"}
        description="Create one for a link, a Wi-Fi network, a contact card, a phone number, an SMS, an e-mail or a text."
        actions={
          <ActionPanel>
            <Action.Push title="Create QR Code" icon={Icon.Plus} target={<QrForm onSaved={revalidate} />} />
          </ActionPanel>
        }
      />
      {(data ?? []).map((qr) => (
        <List.Item
          key={qr.id}
          id={String(qr.id)}
          icon={Icon.Code}
          title={qr.name || qr.link.replace(/^https?:\/\//, "")}
          keywords={[qr.link]}
          accessories={[{ text: pluralize(qr.scans, "scan") }]}
          detail={<QrDetail qr={qr} />}
          actions={<QrActions qr={qr} onChanged={revalidate} onDelete={deleteQr} />}
        />
      ))}
    </List>
  );
}
