/**
 * Every way the extension makes a link (the form, the AI tool, Shorten Link) goes through the
 * client's `createLink`: the link is kept in the account's index with what it was made with, so a
 * later Shorten Link with Quick Shorten on hands it back for one GET instead of another create.
 */
import { LinkForm } from "../../raycast-extension/src/components/LinkForm";
import { shortenLink } from "../../raycast-extension/src/shorten-link";
import shortenLinkTool from "../../raycast-extension/src/tools/shorten-link";
import { byType, mock, render, submit, useSandbox, waitFor } from "./helpers";

const sandbox = useSandbox();

const requestsSince = (before: number) => sandbox.requests.slice(before).map((request) => `${request.method} ${request.path}`);
const creates = (requests: string[]) => requests.filter((request) => request === "POST /api/url/add");
const gets = (requests: string[]) => requests.filter((request) => /^GET \/api\/url\/\d+$/.test(request));

/** Shorten Link with Quick Shorten on: the short URL it copied, and the requests it sent. */
async function quickShortenAgain(url: string) {
  mock.preferences.reuseExisting = true;
  const before = sandbox.requests.length;
  const shorturl = await shortenLink(url);
  return { shorturl, sent: requestsSince(before) };
}

describe("one way to make a link", () => {
  it("a link made with the form is handed back by Shorten Link's reuse for one GET, not another create", async () => {
    const url = "https://example.com/made-in-the-form";
    const view = await render(<LinkForm initialUrl={url} />);
    await waitFor(() => byType(view.root, "Form.Dropdown.Item").length > 1, "the domains");
    await submit(view.root);
    await waitFor(() => mock.pushed.length === 1, "the result view");
    const made = mock.clipboard;
    view.unmount();

    const again = await quickShortenAgain(url);
    expect(again.shorturl).toBe(made);
    expect(creates(again.sent)).toEqual([]);
    expect(gets(again.sent)).toHaveLength(1);
    expect(mock.huds.at(-1)).toBe(`Copied ${made} (your existing link)`);
  });

  it("a link made by the AI tool is handed back by Shorten Link's reuse for one GET, not another create", async () => {
    const url = "https://example.com/made-by-the-ai-tool";
    const made = await shortenLinkTool({ url });

    const again = await quickShortenAgain(url);
    expect(again.shorturl).toBe(made.shorturl);
    expect(creates(again.sent)).toEqual([]);
    expect(gets(again.sent)).toHaveLength(1);
  });

  it("the AI tool puts the link on the Default Domain, as Shorten Link does, and follows Quick Shorten", async () => {
    mock.preferences.defaultDomain = " https://go.demo.example ";
    const url = "https://example.com/ai-on-the-default-domain";
    const made = await shortenLinkTool({ url });
    expect(made.shorturl).toMatch(/^https:\/\/go\.demo\.example\//);

    mock.preferences.reuseExisting = true;
    const before = sandbox.requests.length;
    await expect(shortenLinkTool({ url })).resolves.toEqual(made);
    expect(creates(requestsSince(before))).toEqual([]);
  });
});
