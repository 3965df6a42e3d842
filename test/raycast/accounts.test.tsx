import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import type { ReactTestInstance } from "react-test-renderer";
import QrCodes from "../../raycast-extension/src/qr-codes";
import RecentLinks from "../../raycast-extension/src/recent-links";
import SearchLinks from "../../raycast-extension/src/search-links";
import { cacheEntries, localStorageEntries } from "./raycast-api-mock";
import { apiCall, byType, mock, press, render, sandboxForRaycast, setPreferences, waitFor } from "./helpers";

let work: Sandbox;
let client: Sandbox;
beforeAll(async () => {
  work = await sandboxForRaycast();
  client = await startSandbox({ seed: "minimal", rateLimit: { limit: 100_000, windowMs: 60_000 } });
  await apiCall(
    client,
    "POST",
    "/api/url/add",
    { url: "https://client-a.example/launch", custom: "client-a-launch", metatitle: "Client A launch" },
    client.userKey,
  );
  await apiCall(client, "POST", "/api/qr/add", { type: "link", data: "https://client-a.example", name: "Client A poster" }, client.userKey);
});
afterAll(async () => {
  await work.close();
  await client.close();
});
beforeEach(() => {
  mock.reset();
  setPreferences(work, { accountName: "Work", secondName: "Client A", secondBaseUrl: client.baseUrl, secondApiKey: client.userKey });
});

const items = (root: ReactTestInstance) => byType(root, "List.Item");
const dropdown = (root: ReactTestInstance) => byType(root, "List.Dropdown")[0]!;

/** Every key and value Raycast's Cache and LocalStorage hold for the extension. */
const storedText = () => [...cacheEntries(), ...localStorageEntries()].flat().join("\n");

describe("More than one account", () => {
  it("Search Links switches to the second account's links; its key is never in the cache or LocalStorage", async () => {
    const view = await render(<SearchLinks />);
    await waitFor(() => byType(view.root, "List")[0]!.props.isLoading === false, "the first account's links");
    expect(byType(dropdown(view.root), "List.Dropdown.Item").map((item) => item.props.title)).toEqual(["Work", "Client A"]);
    expect(items(view.root).some((item) => String(item.props.title).endsWith("/client-a-launch"))).toBe(false);

    await press(dropdown(view.root).props.onChange, "second");
    await waitFor(() => byType(view.root, "List")[0]!.props.isLoading === false && items(view.root).length > 0, "the second account's links");
    expect(items(view.root).map((item) => item.props.title)).toContain(`${client.baseUrl.replace(/^https?:\/\//, "")}/client-a-launch`);
    await press(byType(view.root, "List")[0]!.props.onSearchTextChange, "client a launch");
    expect(items(view.root)).toHaveLength(1);
    view.unmount();

    expect(storedText()).not.toContain(client.userKey);
    expect(storedText()).not.toContain(work.userKey);
    expect(storedText().length).toBeGreaterThan(0); // the indexes are there, without the keys
  });

  it("the choice is shared: the menu bar and QR Codes show the chosen account, and QR Codes can switch back", async () => {
    const search = await render(<SearchLinks />);
    await press(dropdown(search.root).props.onChange, "second");
    search.unmount();

    const menu = await render(<RecentLinks />);
    await waitFor(
      () => byType(menu.root, "MenuBarExtra.Item").some((item) => String(item.props.title).endsWith("/client-a-launch")),
      "the second account's links in the menu bar",
    );
    expect(byType(menu.root, "MenuBarExtra.Section")[0]!.props.title).toBe("Recent Links on Client A (click to copy)");
    menu.unmount();

    const qr = await render(<QrCodes />);
    await waitFor(() => items(qr.root).some((item) => item.props.title === "Client A poster"), "the second account's QR codes");
    expect(dropdown(qr.root).props.value).toBe("second");
    await press(dropdown(qr.root).props.onChange, "default");
    await waitFor(() => items(qr.root).length > 0 && !items(qr.root).some((item) => item.props.title === "Client A poster"), "the first account's QR codes");
    qr.unmount();
    expect(storedText()).not.toContain(client.userKey);
  });

  it("an extra account without both a URL and a key is not offered; with one account there is no switcher", async () => {
    mock.preferences.secondApiKey = "";
    const view = await render(<SearchLinks />);
    await waitFor(() => byType(view.root, "List")[0]!.props.isLoading === false, "the links");
    expect(byType(view.root, "List.Dropdown")).toEqual([]);
    view.unmount();
  });
});
