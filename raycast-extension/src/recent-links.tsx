import { Clipboard, Icon, MenuBarExtra, open, openExtensionPreferences, showHUD } from "@raycast/api";
import { usePromise } from "@raycast/utils";
import { sampleWhile } from "@linkshort/client/core";
import { useRef } from "react";
import { getChosenAccount } from "./api/accounts";
import { localTimeZone, loadClickHistory, todayClicks, type TodayClicks } from "./api/click-histories";
import { failureHint, failureKind } from "./ui/failure";
import { pluralize } from "./values/format";
import { getAccountIndex, syncIndex } from "./api/account-indexes";

/** Sweep pages one menu bar refresh may read: the newest links come first, the rest over later refreshes. */
const MENU_BAR_SWEEP_PAGES = 3;

/**
 * The chosen account's newest links, from its index after a sync (one request when nothing is
 * new). The sync's reads are the click history's samples: every link they show is recorded with
 * its clicks at this moment, and the history is saved for the other commands.
 */
async function recentLinks(signal: AbortSignal | undefined) {
  const account = getChosenAccount();
  const target = getAccountIndex(account);
  const history = await loadClickHistory(account);
  await sampleWhile(history, target.client, async () => {
    await target.index.load();
    await syncIndex(target, { signal, force: true, maxSweepPages: MENU_BAR_SWEEP_PAGES });
  });
  return { account, links: target.index.search("", 10).links, today: todayClicks(history) };
}

const count = (value: number) => value.toLocaleString("en-US");

/** "42 clicks today", "at least 42 …" past the links counted one by one, "(since 09:10)" when sampling began after the day's start. */
function todayLine(today: TodayClicks): string {
  if (today.clicks === null || today.since === null) return "Clicks today: counted from the next refresh";
  const since = new Date(today.since).toLocaleTimeString("en-GB", {
    timeZone: localTimeZone(),
    hour: "2-digit",
    minute: "2-digit",
  });
  return `${today.atLeast ? "At least " : ""}${pluralize(today.clicks, "click")} today${today.wholeDay ? "" : ` (since ${since})`}`;
}

export default function Command() {
  const abortable = useRef<AbortController>(null);
  const { data, isLoading, error, revalidate } = usePromise(() => recentLinks(abortable.current?.signal), [], {
    abortable,
  });
  const account = data?.account ?? getChosenAccount();
  const today = data?.today;
  return (
    <MenuBarExtra
      icon={Icon.Link}
      title={today?.clicks ? count(today.clicks) : undefined}
      tooltip={`Recent short links on ${account.name}${today ? `: ${todayLine(today)}` : ""}`}
      isLoading={isLoading}
    >
      {error ? (
        <MenuBarExtra.Item
          icon={Icon.Warning}
          title={`Could not load links: ${failureHint(error)}`}
          onAction={failureKind(error) === "settings" ? openExtensionPreferences : revalidate}
        />
      ) : null}
      {today ? <MenuBarExtra.Item icon={Icon.BarChart} title={todayLine(today)} /> : null}
      <MenuBarExtra.Section title={`Recent Links on ${account.name} (click to copy)`}>
        {(data?.links ?? []).map((link) => {
          const gained = today?.byLink.get(link.id)?.clicks;
          return (
            <MenuBarExtra.Item
              key={link.id}
              title={link.shorturl.replace(/^https?:\/\//, "")}
              subtitle={`${pluralize(link.clicks, "click")}${gained ? ` · ${count(gained)} today` : ""}`}
              tooltip={link.longurl}
              onAction={async () => {
                await Clipboard.copy(link.shorturl);
                await showHUD(`Copied ${link.shorturl}`);
              }}
            />
          );
        })}
      </MenuBarExtra.Section>
      <MenuBarExtra.Section>
        <MenuBarExtra.Item title="Open Service" icon={Icon.Globe} onAction={() => open(account.baseUrl)} />
      </MenuBarExtra.Section>
    </MenuBarExtra>
  );
}
