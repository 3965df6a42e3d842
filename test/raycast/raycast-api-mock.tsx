/**
 * A stand-in for @raycast/api in jest: UI components render as plain elements whose props tests
 * can read and call (onAction, onSubmit, onChange, pagination), and the APIs record what the
 * extension did (clipboard, HUDs, toasts, alerts, navigation) in `mock`.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createElement, type ReactNode } from "react";

interface ToastRecord {
  style?: string;
  title: string;
  message?: string;
  primaryAction?: { title: string; onAction: (toast: unknown) => void };
}

export const mock = {
  preferences: {} as Record<string, unknown>,
  clipboard: undefined as string | undefined,
  /** A file copied with `Clipboard.copy({ file })`. */
  clipboardFile: undefined as string | undefined,
  pasted: [] as string[],
  selectedText: undefined as string | undefined,
  browserUrl: undefined as string | undefined,
  huds: [] as string[],
  toasts: [] as ToastRecord[],
  toastTitles: [] as string[],
  alertAnswer: true,
  alerts: [] as Array<{ title: string; message?: string }>,
  pushed: [] as ReactNode[],
  popped: 0,
  openedPreferences: 0,
  opened: [] as string[],
  reset() {
    this.clipboard = undefined;
    this.clipboardFile = undefined;
    this.pasted = [];
    this.selectedText = undefined;
    this.browserUrl = undefined;
    this.huds = [];
    this.toasts = [];
    this.toastTitles = [];
    this.alertAnswer = true;
    this.alerts = [];
    this.pushed = [];
    this.popped = 0;
    this.openedPreferences = 0;
    this.opened = [];
    cacheStore.clear();
  },
};

export const getPreferenceValues = () => mock.preferences;
export const environment = {
  canAccess: () => true,
  commandName: "test",
  extensionName: "linkshort",
  isDevelopment: false,
  launchType: "userInitiated",
  supportPath: mkdtempSync(join(tmpdir(), "raycast-support-")),
  raycastVersion: "1.100.0",
  appearance: "light" as "light" | "dark",
};
export const Clipboard = {
  copy: async (content: string | number | { text?: string; file?: string }) => {
    if (typeof content === "object" && content.file !== undefined) mock.clipboardFile = content.file;
    else mock.clipboard = typeof content === "object" ? content.text : String(content);
  },
  paste: async (text: string) => void mock.pasted.push(String(text)),
  readText: async () => mock.clipboard,
};
export const getSelectedText = async () => {
  if (mock.selectedText === undefined) throw new Error("no selection");
  return mock.selectedText;
};
export const BrowserExtension = { getTabs: async () => (mock.browserUrl ? [{ active: true, url: mock.browserUrl, id: 1 }] : []) };
export const showHUD = async (text: string) => void mock.huds.push(text);

export class Toast {
  static Style = { Success: "SUCCESS", Failure: "FAILURE", Animated: "ANIMATED" };
  style?: string;
  #title = "";
  /** Every title a toast showed, in order (a progress toast changes its title as it goes). */
  get title() {
    return this.#title;
  }
  set title(value: string) {
    this.#title = value;
    mock.toastTitles.push(value);
  }
  message?: string;
  primaryAction?: ToastRecord["primaryAction"];
  constructor(options: Partial<ToastRecord>) {
    Object.assign(this, options);
  }
  async show() {
    mock.toasts.push(this as ToastRecord);
  }
  async hide() {}
}
export const showToast = async (options: Partial<ToastRecord>) => {
  const toast = new Toast(options);
  await toast.show();
  return toast;
};
export const Alert = { ActionStyle: { Destructive: "DESTRUCTIVE", Default: "DEFAULT", Cancel: "CANCEL" } };
export const confirmAlert = async (options: { title: string; message?: string }) => {
  mock.alerts.push(options);
  return mock.alertAnswer;
};
export const openExtensionPreferences = async () => void (mock.openedPreferences += 1);
export const open = async (target: string) => void mock.opened.push(target);
export const popToRoot = async () => undefined;
export const closeMainWindow = async () => undefined;
export const useNavigation = () => ({ push: (view: ReactNode) => mock.pushed.push(view), pop: () => void (mock.popped += 1) });
export const LaunchType = { UserInitiated: "userInitiated", Background: "background" };

const cacheStore = new Map<string, string>();
/** Everything in the Cache mock, every namespace (`namespace:key`), for tests that look for what must not be there. */
export const cacheEntries = () => [...cacheStore.entries()];
/** Everything in the LocalStorage mock. */
export const localStorageEntries = () => [...storage.entries()];
export class Cache {
  private subscribers: Array<(key: string | undefined, data: string | undefined) => void> = [];
  private readonly prefix: string;
  constructor(options: { namespace?: string } = {}) {
    this.prefix = `${options.namespace ?? ""}:`;
  }
  get = (key: string) => cacheStore.get(this.prefix + key);
  has = (key: string) => cacheStore.has(this.prefix + key);
  set = (key: string, data: string) => {
    cacheStore.set(this.prefix + key, data);
    for (const subscriber of this.subscribers) subscriber(key, data);
  };
  remove = (key: string) => cacheStore.delete(this.prefix + key);
  clear = () => cacheStore.clear();
  get isEmpty() {
    return cacheStore.size === 0;
  }
  subscribe = (subscriber: (key: string | undefined, data: string | undefined) => void) => {
    this.subscribers.push(subscriber);
    return () => void (this.subscribers = this.subscribers.filter((candidate) => candidate !== subscriber));
  };
}
const storage = new Map<string, string>();
export const LocalStorage = {
  getItem: async (key: string) => storage.get(key),
  setItem: async (key: string, value: string) => void storage.set(key, value),
  removeItem: async (key: string) => void storage.delete(key),
  allItems: async () => Object.fromEntries(storage),
  clear: async () => storage.clear(),
};

export const Icon = new Proxy({}, { get: (_target, name) => String(name) }) as Record<string, string>;
export const Color = new Proxy({}, { get: (_target, name) => String(name) }) as Record<string, string>;
export const Image = { Mask: { Circle: "circle" } };
export const Keyboard = {
  // Raycast's common shortcuts carry both platforms' forms.
  Shortcut: {
    Common: new Proxy(
      {},
      { get: (_target, name) => ({ macOS: { modifiers: ["cmd"], key: String(name) }, Windows: { modifiers: ["ctrl"], key: String(name) } }) },
    ),
  },
};

/** A component that renders as an element named `name`, keeping its props, with its children. */
function element(name: string) {
  const Component = (props: Record<string, unknown> & { children?: ReactNode }) => createElement(name, props, props.children as ReactNode);
  Component.displayName = name;
  return Component;
}

/** List items render their detail only when selected (`mock.selectedId`), as Raycast shows one detail. */
const ListItem = Object.assign(
  (props: { id?: string; detail?: ReactNode; actions?: ReactNode; [key: string]: unknown }) =>
    createElement("List.Item", props, props.actions as ReactNode, props.id !== undefined && props.id === selection.id ? (props.detail as ReactNode) : null),
  {
    Detail: Object.assign(element("List.Item.Detail"), {
      Metadata: Object.assign(element("List.Item.Detail.Metadata"), {
        Label: element("List.Item.Detail.Metadata.Label"),
        Link: element("List.Item.Detail.Metadata.Link"),
        Separator: element("List.Item.Detail.Metadata.Separator"),
      }),
    }),
  },
);
export const selection = { id: undefined as string | undefined };

export const List = Object.assign(
  (props: { children?: ReactNode; searchBarAccessory?: ReactNode; actions?: ReactNode; [key: string]: unknown }) =>
    createElement("List", props, props.searchBarAccessory as ReactNode, props.actions as ReactNode, props.children),
  {
    Item: ListItem,
    Section: element("List.Section"),
    EmptyView: (props: { actions?: ReactNode; [key: string]: unknown }) => createElement("List.EmptyView", props, props.actions as ReactNode),
    Dropdown: Object.assign(element("List.Dropdown"), { Item: element("List.Dropdown.Item"), Section: element("List.Dropdown.Section") }),
  },
);
export const Form = Object.assign(
  (props: { children?: ReactNode; actions?: ReactNode; [key: string]: unknown }) => createElement("Form", props, props.actions as ReactNode, props.children),
  {
    TextField: element("Form.TextField"),
    TextArea: element("Form.TextArea"),
    PasswordField: element("Form.PasswordField"),
    DatePicker: Object.assign(element("Form.DatePicker"), { Type: { Date: "date", DateTime: "date_time" } }),
    Checkbox: element("Form.Checkbox"),
    Separator: element("Form.Separator"),
    Description: element("Form.Description"),
    Dropdown: Object.assign(element("Form.Dropdown"), { Item: element("Form.Dropdown.Item"), Section: element("Form.Dropdown.Section") }),
  },
);
export const Detail = Object.assign(
  (props: { children?: ReactNode; actions?: ReactNode; [key: string]: unknown }) => createElement("Detail", props, props.actions as ReactNode),
  { Metadata: Object.assign(element("Detail.Metadata"), { Label: element("Detail.Metadata.Label"), Link: element("Detail.Metadata.Link") }) },
);
export const ActionPanel = Object.assign(element("ActionPanel"), { Section: element("ActionPanel.Section"), Submenu: element("ActionPanel.Submenu") });
export const Action = Object.assign(element("Action"), {
  Style: { Destructive: "destructive", Regular: "regular" },
  Push: element("Action.Push"),
  SubmitForm: element("Action.SubmitForm"),
  CopyToClipboard: element("Action.CopyToClipboard"),
  OpenInBrowser: element("Action.OpenInBrowser"),
  Paste: element("Action.Paste"),
  Open: element("Action.Open"),
  InstallMCPServer: element("Action.InstallMCPServer"),
});
export const MenuBarExtra = Object.assign(element("MenuBarExtra"), {
  Item: element("MenuBarExtra.Item"),
  Section: element("MenuBarExtra.Section"),
  Separator: element("MenuBarExtra.Separator"),
});
export const AI = { ask: async () => "" };
export const captureException = () => undefined;
