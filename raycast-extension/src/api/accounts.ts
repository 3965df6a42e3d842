import { Cache, getPreferenceValues } from "@raycast/api";

/** Where an account's settings live in the preferences: the default one, or an extra slot. */
export type AccountId = "default" | "second" | "third";

/** A service and key to work with. The key lives only in Raycast's preferences (a password field). */
export interface Account {
  id: AccountId;
  name: string;
  baseUrl: string;
  apiKey: string;
}

export interface AccountPreferences {
  baseUrl: string;
  apiKey: string;
  accountName?: string;
  secondName?: string;
  secondBaseUrl?: string;
  secondApiKey?: string;
  thirdName?: string;
  thirdBaseUrl?: string;
  thirdApiKey?: string;
}

const EXTRA_SLOTS = ["second", "third"] as const;

/** The host of a Service URL, to name an account that has no name of its own. */
function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl.trim()).host || baseUrl.trim();
  } catch {
    return baseUrl.trim().slice(0, 60);
  }
}

function account(id: AccountId, name: string | undefined, baseUrl: string, apiKey: string): Account {
  return { id, name: name?.trim() || hostOf(baseUrl), baseUrl: baseUrl.trim(), apiKey };
}

/** Every account set up in the preferences: the default one first, then each extra slot with both a URL and a key. */
export function getAccounts(): Account[] {
  const preferences = getPreferenceValues<AccountPreferences>();
  const accounts = [account("default", preferences.accountName, preferences.baseUrl ?? "", preferences.apiKey ?? "")];
  for (const slot of EXTRA_SLOTS) {
    const baseUrl = preferences[`${slot}BaseUrl`]?.trim();
    const apiKey = preferences[`${slot}ApiKey`];
    if (baseUrl && apiKey) accounts.push(account(slot, preferences[`${slot}Name`], baseUrl, apiKey));
  }
  return accounts;
}

/** The account with this id, or `fallback` when it is no longer set up. */
export function accountById(id: string, fallback: Account): Account {
  return getAccounts().find((candidate) => candidate.id === id) ?? fallback;
}

/** Which account the commands work with: only its id is kept (in Raycast's cache), never its key. */
const CHOSEN_KEY = "chosen-account";
const choices = () => new Cache();

/** The account chosen in a switcher, shared by every command; the default one when none is chosen or it was removed. */
export function getChosenAccount(): Account {
  const accounts = getAccounts();
  const chosen = choices().get(CHOSEN_KEY);
  return accounts.find((candidate) => candidate.id === chosen) ?? accounts[0]!;
}

export function chooseAccount(id: string): Account {
  const found = getAccounts().find((candidate) => candidate.id === id);
  if (!found) return getChosenAccount();
  choices().set(CHOSEN_KEY, found.id);
  return found;
}
