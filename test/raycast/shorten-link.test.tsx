import { findUrl } from "../../raycast-extension/src/ui/url-source";
import { shortenLink } from "../../raycast-extension/src/shorten-link";
import { mock, useSandbox } from "./helpers";

const sandbox = useSandbox();

const creates = () => sandbox.requests.filter((request) => request.path === "/api/url/add").length;
const sources = (selection?: string, browser?: string, clipboard?: string) => ({
  selection: async () => selection,
  browser: async () => browser,
  clipboard: async () => clipboard,
});

describe("Shorten Link", () => {
  it("takes the typed argument, else the selection, else the browser tab, else the clipboard", async () => {
    const all = sources("https://selected.example", "https://tab.example", "https://copied.example");
    expect(await findUrl("https://typed.example", all)).toEqual({ url: "https://typed.example", source: "argument" });
    expect(await findUrl(undefined, all)).toEqual({ url: "https://selected.example", source: "selection" });
    expect(await findUrl(undefined, sources("not a url", "https://tab.example", "https://copied.example"))).toEqual({
      url: "https://tab.example",
      source: "browser",
    });
    expect(await findUrl(undefined, sources(undefined, undefined, "https://copied.example"))).toEqual({ url: "https://copied.example", source: "clipboard" });
    expect(await findUrl("", sources(undefined, undefined, "nothing useful"))).toEqual({ error: expect.stringContaining("Select a URL") });
    expect(await findUrl("ftp://typed", all)).toEqual({ error: '"ftp://typed" is not a valid http or https URL' });
  });

  it("reads the real sources through Raycast's API in that order", async () => {
    mock.clipboard = "https://copied.example";
    mock.browserUrl = "https://tab.example";
    expect(await findUrl(undefined)).toEqual({ url: "https://tab.example", source: "browser" });
    mock.selectedText = "  https://selected.example  ";
    expect(await findUrl(undefined)).toEqual({ url: "https://selected.example", source: "selection" });
  });

  it("creates the link with exactly one request, copies the short URL and shows a HUD", async () => {
    const before = creates();
    const shorturl = await shortenLink(undefined, sources("https://example.com/raycast-one"));
    expect(creates() - before).toBe(1);
    expect(shorturl).toMatch(new RegExp(`^${sandbox.baseUrl}/[A-Za-z]{5}$`));
    expect(mock.clipboard).toBe(shorturl);
    expect(mock.huds).toEqual([`Copied ${shorturl}`]);
    expect(sandbox.store.state.links.find((link) => link.url === "https://example.com/raycast-one")).toMatchObject({
      alias: shorturl!.slice(shorturl!.lastIndexOf("/") + 1),
    });
  });

  it("pastes instead when the preference says so", async () => {
    mock.preferences.primaryAction = "paste";
    const shorturl = await shortenLink("https://example.com/raycast-paste", sources());
    expect(mock.pasted).toEqual([shorturl]);
    expect(mock.huds).toEqual([`Pasted ${shorturl}`]);
  });

  it("an invalid or missing URL shows a clear toast and sends nothing", async () => {
    const before = creates();
    await shortenLink("not-a-url", sources());
    await shortenLink(undefined, sources());
    expect(creates()).toBe(before);
    expect(mock.toasts.map((toast) => [toast.style, toast.title])).toEqual([
      ["FAILURE", "No URL to shorten"],
      ["FAILURE", "No URL to shorten"],
    ]);
    expect(mock.toasts[0]!.message).toBe('"not-a-url" is not a valid http or https URL');
  });

  it("a server error shows a failure toast with a Retry action that tries again", async () => {
    mock.preferences.defaultDomain = "https://not-my-domain.example";
    expect(await shortenLink("https://example.com/raycast-retry", sources())).toBeUndefined();
    const [toast] = mock.toasts;
    expect(toast).toMatchObject({ style: "FAILURE", title: "Could not shorten the link", message: "This domain does not exist or is not yours." });
    expect(toast!.primaryAction?.title).toBe("Retry");
    mock.preferences.defaultDomain = "";
    const before = creates();
    toast!.primaryAction!.onAction(toast);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(creates() - before).toBe(1);
    expect(mock.huds[0]).toMatch(/^Copied /);
  });

  it("a wrong API key offers to open the extension preferences", async () => {
    mock.preferences.apiKey = "0".repeat(32);
    await shortenLink("https://example.com/raycast-auth", sources());
    const [toast] = mock.toasts;
    expect(toast).toMatchObject({ style: "FAILURE", message: "A valid API key is required to use this service." });
    expect(toast!.primaryAction?.title).toBe("Open Extension Preferences");
    toast!.primaryAction!.onAction(toast);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(mock.openedPreferences).toBe(1);
  });

  it("a Service URL that is not the API offers the preferences, not a retry", async () => {
    mock.preferences.baseUrl = `${sandbox.baseUrl}/not-the-api`;
    await shortenLink("https://example.com/raycast-wrong-url", sources());
    const [toast] = mock.toasts;
    expect(toast).toMatchObject({ style: "FAILURE", title: "Could not shorten the link" });
    expect(toast!.primaryAction?.title).toBe("Open Extension Preferences");
  });

  it("no network offers Retry, not the preferences", async () => {
    mock.preferences.baseUrl = "http://127.0.0.1:9";
    await shortenLink("https://example.com/raycast-offline", sources());
    const [toast] = mock.toasts;
    expect(toast).toMatchObject({ style: "FAILURE", title: "Could not shorten the link" });
    expect(toast!.primaryAction?.title).toBe("Retry");
  });
});
