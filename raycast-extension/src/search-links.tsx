import { Action, ActionPanel, Alert, confirmAlert, Icon, Keyboard, List, showToast, Toast } from "@raycast/api";
import { getFavicon } from "@raycast/utils";
import { useState } from "react";
import type { Link } from "@linkshort/client/core";
import { getClient } from "./api/client";
import { showFailure } from "./api/failure";
import { statisticsMarkdown, topEntries } from "./api/format";
import { LinkForm } from "./components/LinkForm";
import { QrForm } from "./components/QrForm";
import { useLinks, useLinkStats } from "./hooks/useLinks";

function LinkDetail({ link }: { link: Link }) {
  const { data, isLoading } = useLinkStats(link.id);
  const stats = data?.stats;
  return (
    <List.Item.Detail
      isLoading={isLoading}
      markdown={`### ${link.title || link.alias}\n\n${link.longurl}\n\n${stats ? statisticsMarkdown(stats) : ""}`}
      metadata={
        <List.Item.Detail.Metadata>
          <List.Item.Detail.Metadata.Link title="Short URL" target={link.shorturl} text={link.shorturl} />
          <List.Item.Detail.Metadata.Label title="Clicks" text={String(stats?.clicks ?? link.clicks)} />
          <List.Item.Detail.Metadata.Label title="Unique Clicks" text={stats ? String(stats.uniqueClicks) : "…"} />
          <List.Item.Detail.Metadata.Label
            title="Top Country"
            text={stats ? (topEntries(stats.topCountries, 1)[0]?.[0] ?? "none yet") : "…"}
          />
          <List.Item.Detail.Metadata.Label title="Created" text={link.date ?? ""} />
          {data?.details.expiry ? <List.Item.Detail.Metadata.Label title="Expires" text={data.details.expiry} /> : null}
        </List.Item.Detail.Metadata>
      }
    />
  );
}

export default function Command() {
  const [order, setOrder] = useState<"date" | "click">("date");
  const { data, isLoading, pagination, mutate, revalidate } = useLinks(order);

  async function deleteLink(link: Link) {
    const confirmed = await confirmAlert({
      title: "Delete this short link?",
      message: `${link.shorturl} will stop working.`,
      primaryAction: { title: "Delete", style: Alert.ActionStyle.Destructive },
    });
    if (!confirmed) return;
    const toast = await showToast({ style: Toast.Style.Animated, title: "Deleting…" });
    try {
      await mutate(getClient().links.delete(link.id), {
        optimisticUpdate: (links) => links?.filter((candidate) => candidate.id !== link.id),
      });
      toast.style = Toast.Style.Success;
      toast.title = "Link deleted";
    } catch (error) {
      await toast.hide();
      await showFailure(error, "Could not delete the link", () => deleteLink(link));
    }
  }

  return (
    <List
      isLoading={isLoading}
      isShowingDetail
      pagination={pagination}
      searchBarPlaceholder="Search loaded links by URL, alias or title"
      searchBarAccessory={
        <List.Dropdown tooltip="Order" value={order} onChange={(value) => setOrder(value as "date" | "click")}>
          <List.Dropdown.Item title="Newest First" value="date" />
          <List.Dropdown.Item title="Most Clicks First" value="click" />
        </List.Dropdown>
      }
    >
      {(data ?? []).map((link) => (
        <List.Item
          key={link.id}
          id={String(link.id)}
          icon={getFavicon(link.longurl, { fallback: Icon.Link })}
          title={link.shorturl.replace(/^https?:\/\//, "")}
          keywords={[link.longurl, link.alias, link.title]}
          accessories={[{ text: `${link.clicks}`, icon: Icon.BarChart, tooltip: "Clicks" }]}
          detail={<LinkDetail link={link} />}
          actions={
            <ActionPanel>
              <Action.CopyToClipboard title="Copy Short URL" content={link.shorturl} />
              <Action.OpenInBrowser title="Open Short URL" url={link.shorturl} />
              <Action.OpenInBrowser
                title="Open Long URL"
                url={link.longurl}
                shortcut={{ modifiers: ["cmd", "shift"], key: "l" }}
              />
              <Action.Push
                title="Edit Link"
                icon={Icon.Pencil}
                shortcut={Keyboard.Shortcut.Common.Edit}
                target={<LinkForm initialUrl={link.longurl} linkId={link.id} onSaved={revalidate} />}
              />
              <Action.Push
                title="Create QR Code"
                icon={Icon.Code}
                shortcut={{ modifiers: ["cmd", "shift"], key: "q" }}
                target={<QrForm initialLink={link.shorturl} />}
              />
              <Action
                title="Delete Link"
                icon={Icon.Trash}
                style={Action.Style.Destructive}
                shortcut={Keyboard.Shortcut.Common.Remove}
                onAction={() => deleteLink(link)}
              />
              <Action
                title="Reload"
                icon={Icon.ArrowClockwise}
                shortcut={Keyboard.Shortcut.Common.Refresh}
                onAction={revalidate}
              />
            </ActionPanel>
          }
        />
      ))}
    </List>
  );
}
