import deleteLink, { confirmation } from "../../raycast-extension/src/tools/delete-link";
import findLinks from "../../raycast-extension/src/tools/find-links";
import getLinkStats from "../../raycast-extension/src/tools/get-link-stats";
import shortenLink from "../../raycast-extension/src/tools/shorten-link";
import { useSandbox } from "./helpers";

const sandbox = useSandbox({ preferences: false });

describe("AI tools", () => {
  it("shorten-link shortens with an alias", async () => {
    await expect(shortenLink({ url: "https://example.com/ai", alias: "from-ai" })).resolves.toEqual({
      id: expect.any(Number),
      shorturl: `${sandbox.baseUrl}/from-ai`,
    });
  });

  it("shorten-link rejects a bad URL by name, without a request", async () => {
    const before = sandbox.requests.length;
    await expect(shortenLink({ url: "example" })).rejects.toThrow("url: must be a valid http or https URL");
    expect(sandbox.requests.length).toBe(before);
  });

  it("find-links finds by text and orders by clicks, saying how fresh its index is", async () => {
    const found = await findLinks({ query: "raycast.com" });
    expect(found.links).toEqual([expect.objectContaining({ alias: "raycast", clicks: 42 })]);
    const known = sandbox.store.state.links.filter((link) => link.userId === 2).length;
    expect(found.freshness).toMatchObject({
      complete: true,
      linksKnown: known,
      linksOnServer: known,
      summary: expect.stringMatching(/^\d+ links, all checked just now/),
    });
    expect((await findLinks({ order: "click", limit: 2 })).links.map((link) => link.alias)).toEqual(["n8n", "raycast"]);
  });

  it("get-link-stats returns the statistics", async () => {
    const [n8n] = (await findLinks({ query: "n8n.io" })).links;
    expect(await getLinkStats({ id: n8n!.id })).toMatchObject({ clicks: 120, uniqueClicks: 84, shorturl: `${sandbox.baseUrl}/n8n` });
  });

  it("delete-link asks for confirmation naming the link, then deletes it", async () => {
    const [link] = (await findLinks({ query: "example.com/ai" })).links;
    const asked = await confirmation({ id: link!.id });
    expect(asked).toMatchObject({ message: `Delete ${sandbox.baseUrl}/from-ai? It will stop working.` });
    await expect(deleteLink({ id: link!.id })).resolves.toEqual({ deleted: true, id: link!.id });
    expect((await findLinks({ query: "example.com/ai" })).links).toEqual([]);
  });
});
