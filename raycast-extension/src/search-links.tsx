import { Action, ActionPanel, Icon, Keyboard, List } from "@raycast/api";
import { getFavicon, useCachedState } from "@raycast/utils";
import { useState } from "react";
import type { Link } from "@linkshort/client/core";
import { getClient } from "./api/client";
import { confirmAndDelete } from "./api/confirm-delete";
import { statisticsMarkdown, topEntries } from "./api/format";
import { EditLinkForm, LinkForm } from "./components/LinkForm";
import { QrForm } from "./components/QrForm";
import { useLinks, useLinkStats, type LinkOrder } from "./hooks/useLinks";

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
  const [order, setOrder] = useCachedState<LinkOrder>("search-links-order", "date");
  const [showingDetail, setShowingDetail] = useCachedState("search-links-show-detail", true);
  const [searchText, setSearchText] = useState("");
  const { data, isLoading, pagination, mutate, revalidate } = useLinks(order);
  const links = data ?? [];

  async function deleteLink(link: Link) {
    await confirmAndDelete({
      title: "Delete this short link?",
      message: `${link.shorturl} will stop working.`,
      deleted: "Link deleted",
      failure: "Could not delete the link",
      remove: () =>
        mutate(getClient().links.delete(link.id), {
          optimisticUpdate: (links) => links?.filter((candidate) => candidate.id !== link.id),
        }),
      retry: () => deleteLink(link),
    });
  }

  return (
    <List
      isLoading={isLoading}
      isShowingDetail={showingDetail && links.length > 0}
      pagination={pagination}
      filtering
      onSearchTextChange={setSearchText}
      searchBarPlaceholder="Search loaded links by URL, alias or title"
      searchBarAccessory={
        <List.Dropdown
          tooltip="Sort By"
          value={order}
          onChange={(value) => setOrder(value === "click" ? "click" : "date")}
        >
          <List.Dropdown.Item title="Newest First" value="date" />
          <List.Dropdown.Item title="Most Clicks First" value="click" />
        </List.Dropdown>
      }
    >
      {searchText.trim() ? (
        <List.EmptyView
          icon={Icon.MagnifyingGlass}
          title="No matching links"
          description={`None of the loaded links has "${searchText.trim()}" in its URL, alias or title.`}
        />
      ) : (
        <List.EmptyView
          icon={Icon.Link}
          title={isLoading ? "Loading your links…" : "No short links yet"}
          description="Shorten your first link here, or with Shorten Link from anywhere."
          actions={
            <ActionPanel>
              <Action.Push title="Shorten a Link" icon={Icon.Plus} target={<LinkForm />} />
            </ActionPanel>
          }
        />
      )}
      {links.map((link) => (
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
                target={<EditLinkForm link={link} onSaved={revalidate} />}
              />
              <Action
                title={showingDetail ? "Hide Details" : "Show Details"}
                icon={Icon.Sidebar}
                shortcut={{ modifiers: ["cmd"], key: "d" }}
                onAction={() => setShowingDetail(!showingDetail)}
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
