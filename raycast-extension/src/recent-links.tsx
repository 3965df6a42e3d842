import { Clipboard, Icon, MenuBarExtra, open, openExtensionPreferences, showHUD } from "@raycast/api";
import { usePromise } from "@raycast/utils";
import { useRef } from "react";
import { getChosenAccount } from "./api/accounts";
import { failureHint, failureKind } from "./api/failure";
import { getAccountIndex, syncIndex } from "./api/account-indexes";

/** Sweep pages one menu bar refresh may read: the newest links come first, the rest over later refreshes. */
const MENU_BAR_SWEEP_PAGES = 3;

/** The chosen account's newest links, from its index after a sync (one request when nothing is new). */
async function recentLinks(signal: AbortSignal | undefined) {
  const account = getChosenAccount();
  const target = getAccountIndex(account);
  await target.index.load();
  await syncIndex(target, { signal, force: true, maxSweepPages: MENU_BAR_SWEEP_PAGES });
  return { account, links: target.index.search("", 10).links };
}

export default function Command() {
  const abortable = useRef<AbortController>(null);
  const { data, isLoading, error, revalidate } = usePromise(() => recentLinks(abortable.current?.signal), [], {
    abortable,
  });
  const account = data?.account ?? getChosenAccount();
  return (
    <MenuBarExtra icon={Icon.Link} tooltip={`Recent short links on ${account.name}`} isLoading={isLoading}>
      {error ? (
        <MenuBarExtra.Item
          icon={Icon.Warning}
          title={`Could not load links: ${failureHint(error)}`}
          onAction={failureKind(error) === "settings" ? openExtensionPreferences : revalidate}
        />
      ) : null}
      <MenuBarExtra.Section title={`Recent Links on ${account.name} (click to copy)`}>
        {(data?.links ?? []).map((link) => (
          <MenuBarExtra.Item
            key={link.id}
            title={link.shorturl.replace(/^https?:\/\//, "")}
            subtitle={`${link.clicks} clicks`}
            tooltip={link.longurl}
            onAction={async () => {
              await Clipboard.copy(link.shorturl);
              await showHUD(`Copied ${link.shorturl}`);
            }}
          />
        ))}
      </MenuBarExtra.Section>
      <MenuBarExtra.Section>
        <MenuBarExtra.Item title="Open Service" icon={Icon.Globe} onAction={() => open(account.baseUrl)} />
      </MenuBarExtra.Section>
    </MenuBarExtra>
  );
}
