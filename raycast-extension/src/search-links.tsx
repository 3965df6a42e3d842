import { Action, ActionPanel, environment, Icon, Keyboard, List } from "@raycast/api";
import { getFavicon, useCachedState } from "@raycast/utils";
import { useMemo, useState, type ReactElement } from "react";
import type { IndexedLink } from "@linkshort/client/core";
import { chooseAccount, getAccounts, getChosenAccount } from "./api/accounts";
import { getClient } from "./api/client";
import type { Account } from "./api/accounts";
import { chartMarkdown, weekMarkdown } from "./values/chart";
import { confirmAndDelete } from "./ui/confirm-delete";
import { statisticsMarkdown, topLabel } from "./values/format";
import { freshnessLine } from "./api/account-indexes";
import { shortcut } from "./ui/shortcuts";
import { AccountDropdown } from "./components/AccountDropdown";
import { InstallMcpServerAction } from "./components/InstallMcpServerAction";
import { EditLinkForm, LinkForm } from "./components/LinkForm";
import { QrForm } from "./components/QrForm";
import { useClickWeek } from "./hooks/useClickWeek";
import { useLinkStats } from "./hooks/useLinks";
import { useLinkIndex, type LinkOrder } from "./hooks/useLinkIndex";

function LinkDetail({ account, link }: { account: Account; link: IndexedLink }) {
  const { data, isLoading } = useLinkStats(link.id);
  const { data: week } = useClickWeek(account, link.id);
  const stats = data?.stats;
  const appearance = environment.appearance;
  const title = link.shorturl.replace(/^https?:\/\//, "");
  // The chart for the eyes, the text below it for screen readers and copying.
  const chart = useMemo(
    () => (stats ? chartMarkdown(stats, { title, unit: "clicks", appearance }) : ""),
    [stats, title, appearance],
  );
  const weekChart = useMemo(() => (week ? `${weekMarkdown(week, { appearance })}\n\n` : ""), [week, appearance]);
  return (
    <List.Item.Detail
      isLoading={isLoading}
      markdown={`### ${link.title || link.alias}\n\n${link.longurl}\n\n${weekChart}${stats ? `${chart}\n\n${statisticsMarkdown(stats)}` : ""}`}
      metadata={
        <List.Item.Detail.Metadata>
          <List.Item.Detail.Metadata.Link title="Short URL" target={link.shorturl} text={link.shorturl} />
          <List.Item.Detail.Metadata.Label title="Clicks" text={String(stats?.clicks ?? link.clicks)} />
          <List.Item.Detail.Metadata.Label title="Unique Clicks" text={stats ? String(stats.uniqueClicks) : "…"} />
          <List.Item.Detail.Metadata.Label
            title="Top Country"
            text={stats ? (topLabel(stats, "topCountries") ?? "none yet") : "…"}
          />
          <List.Item.Detail.Metadata.Label title="Created" text={link.date ?? ""} />
          {data?.details.expiry ? <List.Item.Detail.Metadata.Label title="Expires" text={data.details.expiry} /> : null}
        </List.Item.Detail.Metadata>
      }
    />
  );
}

const count = (value: number) => value.toLocaleString("en-US");

export default function Command() {
  const accounts = getAccounts();
  const [account, setAccount] = useState(getChosenAccount);
  const [order, setOrder] = useCachedState<LinkOrder>("search-links-order", "date");
  const [showingDetail, setShowingDetail] = useCachedState("search-links-show-detail", true);
  const [searchText, setSearchText] = useState("");
  const search = useLinkIndex(account, searchText, order);
  const { links, matches, freshness } = search;
  const query = searchText.trim();

  async function deleteLink(link: IndexedLink) {
    await confirmAndDelete({
      title: "Delete this short link?",
      message: `${link.shorturl} will stop working.`,
      deleted: "Link deleted",
      failure: "Could not delete the link",
      // The index drops the link as soon as the service confirms: the list follows.
      remove: () => getClient(account).links.delete(link.id),
      retry: () => deleteLink(link),
    });
  }

  const progress = freshnessLine(freshness);
  const sectionTitle = query ? "Best Matches" : order === "click" ? "Most Clicks" : "Newest";
  const shown = matches > links.length ? `${count(links.length)} of ${count(matches)} · ` : "";
  const otherOrder: LinkOrder = order === "click" ? "date" : "click";
  const sharedActions = (
    <ActionPanel.Section>
      <Action
        title={order === "click" ? "Sort by Newest" : "Sort by Most Clicks"}
        icon={Icon.ArrowUp}
        shortcut={shortcut(["cmd", "shift"], "s")}
        onAction={() => setOrder(otherOrder)}
      />
      <Action
        title="Reload"
        icon={Icon.ArrowClockwise}
        shortcut={Keyboard.Shortcut.Common.Refresh}
        onAction={search.retry}
      />
      <InstallMcpServerAction account={account} />
    </ActionPanel.Section>
  );

  return (
    <List
      isLoading={search.isLoading || search.isSyncing}
      isShowingDetail={showingDetail && links.length > 0}
      filtering={false}
      onSearchTextChange={setSearchText}
      navigationTitle={freshness.complete ? undefined : `Search Links · ${progress}`}
      searchBarPlaceholder="Search all your links by alias, short URL, long URL, title or description"
      searchBarAccessory={
        <AccountDropdown accounts={accounts} chosen={account} onChange={(id) => setAccount(chooseAccount(id))} />
      }
    >
      <LinksEmptyView
        account={account}
        query={query}
        progress={progress}
        complete={freshness.complete}
        loading={search.isLoading}
        syncing={search.isSyncing}
      />
      <List.Section title={sectionTitle} subtitle={`${shown}${progress}`}>
        {links.map((link) => (
          <LinkItem
            key={link.id}
            account={account}
            link={link}
            showingDetail={showingDetail}
            onToggleDetail={() => setShowingDetail(!showingDetail)}
            onSaved={search.refresh}
            onDelete={() => deleteLink(link)}
            sharedActions={sharedActions}
          />
        ))}
      </List.Section>
    </List>
  );
}

interface LinkItemProps {
  account: Account;
  link: IndexedLink;
  showingDetail: boolean;
  onToggleDetail: () => void;
  onSaved: () => void;
  onDelete: () => void;
  sharedActions: ReactElement;
}

function LinkItem({ account, link, showingDetail, onToggleDetail, onSaved, onDelete, sharedActions }: LinkItemProps) {
  return (
    <List.Item
      id={String(link.id)}
      icon={getFavicon(link.longurl, { fallback: Icon.Link })}
      title={link.shorturl.replace(/^https?:\/\//, "")}
      subtitle={showingDetail ? undefined : link.title || link.longurl}
      accessories={[{ text: `${link.clicks}`, icon: Icon.BarChart, tooltip: "Clicks" }]}
      detail={<LinkDetail account={account} link={link} />}
      actions={
        <ActionPanel>
          <ActionPanel.Section>
            <Action.CopyToClipboard title="Copy Short URL" content={link.shorturl} />
            <Action.OpenInBrowser title="Open Short URL" url={link.shorturl} />
            <Action.OpenInBrowser title="Open Long URL" url={link.longurl} shortcut={shortcut(["cmd", "shift"], "l")} />
            <Action.Push
              title="Edit Link"
              icon={Icon.Pencil}
              shortcut={Keyboard.Shortcut.Common.Edit}
              target={<EditLinkForm link={link} onSaved={onSaved} />}
            />
            <Action
              title={showingDetail ? "Hide Details" : "Show Details"}
              icon={Icon.Sidebar}
              shortcut={shortcut(["cmd"], "d")}
              onAction={onToggleDetail}
            />
            <Action.Push
              title="Create QR Code"
              icon={Icon.Code}
              shortcut={shortcut(["cmd", "shift"], "q")}
              target={<QrForm initialLink={link.shorturl} />}
            />
            <Action
              title="Delete Link"
              icon={Icon.Trash}
              style={Action.Style.Destructive}
              shortcut={Keyboard.Shortcut.Common.Remove}
              onAction={onDelete}
            />
          </ActionPanel.Section>
          {sharedActions}
        </ActionPanel>
      }
    />
  );
}

interface EmptyViewProps {
  account: Account;
  query: string;
  progress: string;
  complete: boolean;
  loading: boolean;
  syncing: boolean;
}

/** What the list shows without links: no match for the query, the first links still loading, or none made yet. */
function LinksEmptyView({ account, query, progress, complete, loading, syncing }: EmptyViewProps) {
  if (query) {
    return (
      <List.EmptyView
        icon={Icon.MagnifyingGlass}
        title={complete ? "No matching links" : "No matching links yet"}
        description={`None of your links has "${query.slice(0, 100)}" in its alias, URLs, title or description. ${progress}.`}
      />
    );
  }
  return (
    <List.EmptyView
      icon={Icon.Link}
      title={loading || (syncing && !complete) ? "Loading your links…" : "No short links yet"}
      description={
        syncing && !complete ? progress : "Shorten your first link here, or with Shorten Link from anywhere."
      }
      actions={
        <ActionPanel>
          <Action.Push title="Shorten a Link" icon={Icon.Plus} target={<LinkForm />} />
          <InstallMcpServerAction account={account} />
        </ActionPanel>
      }
    />
  );
}
