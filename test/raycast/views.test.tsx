import { isValidElement } from "react";
import type { ReactTestInstance } from "react-test-renderer";
import { LinkForm } from "../../raycast-extension/src/components/LinkForm";
import RecentLinks from "../../raycast-extension/src/recent-links";
import SearchLinks from "../../raycast-extension/src/search-links";
import { byTitle, byType, field, mock, newEmptyAccountKey, press, render, sandboxForRaycast, selection, submit, useSandbox, waitFor } from "./helpers";

const sandbox = useSandbox({
  start: async () => {
    const started = await sandboxForRaycast();
    for (let i = 0; i < 115; i += 1) {
      await fetch(`${started.baseUrl}/api/url/add`, {
        method: "POST",
        headers: { authorization: `Bearer ${started.userKey}`, "content-type": "application/json" },
        body: JSON.stringify({ url: `https://example.com/raycast/${i}` }),
      });
    }
    return started;
  },
});
beforeEach(() => {
  selection.id = undefined;
});

const userLinks = () => sandbox.store.state.links.filter((link) => link.userId === 2);
const items = (root: ReactTestInstance) => byType(root, "List.Item");
/** A menu bar link's subtitle: its clicks, "1 click" or "12 clicks". */
const linkCount = /^[\d,]+ clicks?$/;

describe("Search Links", () => {
  it("shows the newest links from the whole account's index, and sorts by clicks", async () => {
    const view = await render(<SearchLinks />);
    await waitFor(() => byType(view.root, "List")[0]!.props.isLoading === false, "the first sync");
    expect(items(view.root)).toHaveLength(100); // of more: the rest are found by searching
    expect(userLinks().length).toBeGreaterThan(100);
    expect(byType(view.root, "List.Section")[0]!.props.subtitle).toMatch(
      new RegExp(`^100 of ${userLinks().length} · ${userLinks().length} links, all checked just now`),
    );
    const newest = [...userLinks()].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : b.id - a.id))[0]!;
    expect(items(view.root)[0]!.props.id).toBe(String(newest.id));

    await press(byTitle(items(view.root)[0]!, "Action", "Sort by Most Clicks").props.onAction);
    await waitFor(() => items(view.root)[0]?.props.accessories[0].text === "120", "the most clicked link first");
    view.unmount();
  });

  it("shows the selected link's statistics in the detail pane", async () => {
    const n8n = userLinks().find((link) => link.alias === "n8n")!;
    selection.id = String(n8n.id);
    const view = await render(<SearchLinks />);
    await waitFor(() => items(view.root).length > 0, "the links");
    await press(byType(view.root, "List")[0]!.props.onSearchTextChange, "n8n");
    await waitFor(() => byType(view.root, "List.Item.Detail").some((detail) => String(detail.props.markdown).includes("**Clicks:** 120")), "the statistics");
    const markdown = String(byType(view.root, "List.Item.Detail")[0]!.props.markdown);
    expect(markdown).toContain("**Unique:** 84");
    expect(markdown).toMatch(/Top countries:\*\* (Canada|United States|Germany|France|Japan) \(24\)/);
    // The titles and the order of equal counts are the client's, as the chart above shows them.
    expect(markdown).toContain("**Top countries:** Canada (24), France (24), Germany (24), Japan (24), United States (24)");
    expect(markdown).toContain("**Top browsers:** Chrome (30), Edge (30), Firefox (30), Safari (30)");
    view.unmount();
  });

  it("deletes a link only after confirmation, removing it at once", async () => {
    const view = await render(<SearchLinks />);
    await waitFor(() => items(view.root).length > 0, "the links");
    const first = items(view.root)[0]!;
    const id = Number(first.props.id);
    const deleteAction = () => byTitle(items(view.root)[0]!, "Action", "Delete Link");

    mock.alertAnswer = false;
    const before = sandbox.requests.filter((request) => request.method === "DELETE").length;
    await press(deleteAction().props.onAction);
    expect(mock.alerts).toHaveLength(1);
    expect(sandbox.requests.filter((request) => request.method === "DELETE").length).toBe(before);
    expect(userLinks().some((link) => link.id === id)).toBe(true);

    mock.alertAnswer = true;
    await press(deleteAction().props.onAction);
    await waitFor(() => items(view.root)[0]?.props.id !== String(id), "the optimistic removal");
    expect(userLinks().some((link) => link.id === id)).toBe(false);
    expect(mock.toasts.at(-1)).toMatchObject({ style: "SUCCESS", title: "Link deleted" });
    view.unmount();
  });

  it("a failed delete shows a failure toast with Retry", async () => {
    const view = await render(<SearchLinks />);
    await waitFor(() => items(view.root).length > 0, "the links");
    sandbox.faults.set([{ kind: "html", route: "^DELETE ", times: 3 }]);
    await press(byTitle(items(view.root)[0]!, "Action", "Delete Link").props.onAction);
    await waitFor(() => mock.toasts.some((toast) => toast.style === "FAILURE"), "the failure toast");
    sandbox.faults.clear();
    expect(mock.toasts.find((toast) => toast.style === "FAILURE")).toMatchObject({ title: "Could not delete the link", primaryAction: { title: "Retry" } });
    view.unmount();
  });
});

describe("Search Links: empty views, details and order", () => {
  it("an account with no links gets an empty view that offers to shorten one", async () => {
    mock.preferences.apiKey = await newEmptyAccountKey(sandbox, "nolinks");
    const view = await render(<SearchLinks />);
    await waitFor(() => byType(view.root, "List")[0]!.props.isLoading === false, "the empty list");
    expect(items(view.root)).toEqual([]);
    const empty = byType(view.root, "List.EmptyView")[0]!;
    expect(empty.props.title).toBe("No short links yet");
    expect(isValidElement(byTitle(empty, "Action.Push", "Shorten a Link").props.target)).toBe(true);
    view.unmount();
  });

  it("a search with no match says so instead of offering to shorten", async () => {
    const view = await render(<SearchLinks />);
    await waitFor(() => items(view.root).length > 0, "the links");
    await press(byType(view.root, "List")[0]!.props.onSearchTextChange, "no-such-link-anywhere");
    const empty = byType(view.root, "List.EmptyView")[0]!;
    expect(empty.props.title).toBe("No matching links");
    expect(empty.props.description).toContain('"no-such-link-anywhere"');
    expect(byType(view.root, "List")[0]!.props.filtering).toBe(false); // the index searches every link, not Raycast
    view.unmount();
  });

  it("cmd+D hides and shows the detail, and the choice is remembered, as is the order", async () => {
    const first = await render(<SearchLinks />);
    await waitFor(() => items(first.root).length > 0, "the links");
    expect(byType(first.root, "List")[0]!.props.isShowingDetail).toBe(true);
    const toggle = byTitle(items(first.root)[0]!, "Action", "Hide Details");
    expect(toggle.props.shortcut).toEqual({ macOS: { modifiers: ["cmd"], key: "d" }, Windows: { modifiers: ["ctrl"], key: "d" } });
    await press(toggle.props.onAction);
    expect(byType(first.root, "List")[0]!.props.isShowingDetail).toBe(false);
    await press(byTitle(items(first.root)[0]!, "Action", "Sort by Most Clicks").props.onAction);
    first.unmount();

    const again = await render(<SearchLinks />);
    await waitFor(() => items(again.root)[0]?.props.accessories[0].text === "120", "the most clicked link first");
    expect(byType(again.root, "List")[0]!.props.isShowingDetail).toBe(false);
    expect(byTitle(items(again.root)[0]!, "Action", "Sort by Newest")).toBeTruthy();
    await press(byTitle(items(again.root)[0]!, "Action", "Show Details").props.onAction);
    expect(byType(again.root, "List")[0]!.props.isShowingDetail).toBe(true);
    again.unmount();
  });
});

describe("Shorten Link with Options (form)", () => {
  it("validates like the client: bad URL and alias are shown on the fields and nothing is sent", async () => {
    const view = await render(<LinkForm initialUrl="not a url" />);
    await waitFor(() => byType(view.root, "Form.Dropdown.Item").length > 1, "the domains");
    await press(field(view.root, "Custom Alias").props.onChange, "a");
    const before = sandbox.requests.length;
    await submit(view.root);
    expect(field(view.root, "URL").props.error).toBe("must be a valid http or https URL");
    expect(field(view.root, "Custom Alias").props.error).toBe("must be 3 to 50 letters, digits or hyphens");
    expect(sandbox.requests.slice(before).filter((request) => request.method === "POST")).toEqual([]);
    view.unmount();
  });

  it("creates the link with its options, copies the short URL and shows it", async () => {
    const view = await render(<LinkForm initialUrl="https://example.com/with-options" />);
    await waitFor(() => byType(view.root, "Form.Dropdown.Item").some((item) => item.props.value === "https://go.demo.example"), "the domains");
    await press(field(view.root, "Custom Alias").props.onChange, "with-options");
    await press(field(view.root, "Domain").props.onChange, "https://go.demo.example");
    await press(field(view.root, "Redirect Type").props.onChange, "frame");
    await press(field(view.root, "Expiry").props.onChange, new Date(Date.UTC(2099, 0, 1, 12, 0, 0)));
    await press(field(view.root, "Meta Title").props.onChange, "With options");
    await submit(view.root);
    await waitFor(() => mock.pushed.length === 1, "the result view");
    expect(mock.clipboard).toBe("https://go.demo.example/with-options");
    const link = userLinks().find((candidate) => candidate.alias === "with-options")!;
    expect(link).toMatchObject({
      type: "frame",
      domain: "https://go.demo.example",
      metatitle: "With options",
      expiry: expect.stringMatching(/^2099-01-01 \d{2}:00:00$/),
    });
    view.unmount();
  });
});

describe("Recent Links (menu bar)", () => {
  const errorItem = (root: ReactTestInstance) => byType(root, "MenuBarExtra.Item").find((item) => String(item.props.title).startsWith("Could not load links"));

  it("with no network, says so and retries; it does not send the user to the preferences", async () => {
    mock.preferences.baseUrl = "http://127.0.0.1:9"; // nothing listens there: the connection is refused
    const view = await render(<RecentLinks />);
    await waitFor(() => errorItem(view.root) !== undefined, "the error", 20_000);
    expect(errorItem(view.root)!.props.title).toBe("Could not load links: no connection to the service, try again");
    mock.preferences.baseUrl = sandbox.baseUrl;
    await press(errorItem(view.root)!.props.onAction);
    await waitFor(
      () => byType(view.root, "MenuBarExtra.Item").filter((item) => linkCount.test(String(item.props.subtitle))).length === 10,
      "the links after retrying",
    );
    expect(mock.openedPreferences).toBe(0);
    view.unmount();
  });

  it("with a wrong API key, sends the user to the preferences", async () => {
    mock.preferences.apiKey = "0".repeat(32);
    const view = await render(<RecentLinks />);
    await waitFor(() => errorItem(view.root) !== undefined, "the error");
    expect(errorItem(view.root)!.props.title).toBe("Could not load links: check the Service URL and API key in the preferences");
    await press(errorItem(view.root)!.props.onAction);
    expect(mock.openedPreferences).toBe(1);
    view.unmount();
  });

  it("writes each link's clicks as a count of clicks: 1 click, 1,234 clicks", async () => {
    const newest = userLinks().slice(-2);
    newest[1]!.stats.clicks = 1;
    newest[0]!.stats.clicks = 1234;
    try {
      const view = await render(<RecentLinks />);
      await waitFor(() => byType(view.root, "MenuBarExtra.Item").filter((item) => linkCount.test(String(item.props.subtitle))).length === 10, "the links");
      const subtitles = byType(view.root, "MenuBarExtra.Item").map((item) => String(item.props.subtitle));
      expect(subtitles).toContain("1 click");
      expect(subtitles).toContain("1,234 clicks");
      view.unmount();
    } finally {
      newest[1]!.stats.clicks = 0;
      newest[0]!.stats.clicks = 0;
    }
  });

  it("shows the latest links with clicks; clicking one copies it", async () => {
    const view = await render(<RecentLinks />);
    await waitFor(() => byType(view.root, "MenuBarExtra.Item").length > 5, "the links");
    const entries = byType(view.root, "MenuBarExtra.Item").filter((item) => linkCount.test(String(item.props.subtitle)));
    expect(entries).toHaveLength(10);
    await press(entries[0]!.props.onAction);
    expect(mock.clipboard?.replace(/^https?:\/\//, "")).toBe(entries[0]!.props.title);
    expect(mock.huds).toEqual([`Copied ${mock.clipboard}`]);
    view.unmount();
  });
});
