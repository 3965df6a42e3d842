import { List } from "@raycast/api";
import type { Account } from "../api/accounts";

/** The account switcher of a list's search bar; shown only when more than one account is set up. */
export function AccountDropdown({
  accounts,
  chosen,
  onChange,
}: {
  accounts: Account[];
  chosen: Account;
  onChange: (id: string) => void;
}) {
  if (accounts.length < 2) return null;
  return (
    <List.Dropdown tooltip="Account" value={chosen.id} onChange={onChange}>
      {accounts.map((account) => (
        <List.Dropdown.Item key={account.id} value={account.id} title={account.name} />
      ))}
    </List.Dropdown>
  );
}
