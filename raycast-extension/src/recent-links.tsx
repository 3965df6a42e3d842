import { Clipboard, Icon, MenuBarExtra, open, openExtensionPreferences, showHUD } from "@raycast/api";
import { useCachedPromise } from "@raycast/utils";
import { getClient } from "./api/client";
import { failureHint, failureKind } from "./api/failure";

export default function Command() {
  const { data, isLoading, error, revalidate } = useCachedPromise(
    async () => (await getClient().links.list({ order: "date", limit: 10 })).items,
    [],
  );
  return (
    <MenuBarExtra icon={Icon.Link} tooltip="Recent short links" isLoading={isLoading}>
      {error ? (
        <MenuBarExtra.Item
          icon={Icon.Warning}
          title={`Could not load links: ${failureHint(error)}`}
          onAction={failureKind(error) === "settings" ? openExtensionPreferences : revalidate}
        />
      ) : null}
      <MenuBarExtra.Section title="Recent Links (click to copy)">
        {(data ?? []).map((link) => (
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
        <MenuBarExtra.Item title="Open Service" icon={Icon.Globe} onAction={() => open(getClient().baseUrl)} />
      </MenuBarExtra.Section>
    </MenuBarExtra>
  );
}
