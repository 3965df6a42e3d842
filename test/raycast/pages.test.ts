import { PagePromise, type Page } from "@linkshort/client/core";
import { loadPage } from "../../raycast-extension/src/hooks/loadPage";

/** A server's pages of `total` items, `perpage` a page, with the quirks `serve` adds. */
function server(total: number, perpage: number, serve: (requested: number, last: number) => number = (requested) => requested, maxpage?: number) {
  const last = Math.max(1, Math.ceil(total / perpage));
  return async (requested: number): Promise<Page<number>> => {
    const current = serve(requested, last);
    const items = Array.from({ length: Math.max(0, Math.min(perpage, total - (current - 1) * perpage)) }, (_, i) => (current - 1) * perpage + i);
    return { items, result: items.length, perpage, currentpage: current, nextpage: current + 1, maxpage: maxpage ?? last };
  };
}

/** What Search Links shows, scrolling until Raycast is told there is no more. */
async function scrollAll(fetchPage: (page: number) => Promise<Page<number>>): Promise<number[]> {
  const shown: number[] = [];
  for (let raycastPage = 0; raycastPage < 100; raycastPage += 1) {
    const { data, hasMore } = await loadPage(fetchPage, raycastPage);
    shown.push(...data);
    if (!hasMore) break;
  }
  return shown;
}

const everyItem = (fetchPage: (page: number) => Promise<Page<number>>) => new PagePromise(fetchPage).toArray();

describe("loadPage ends a list where the client's for-await does", () => {
  it.each([
    ["three pages, the last short", server(120, 50)],
    ["two full pages", server(100, 50)],
    ["an empty account", server(0, 50)],
    // Deployed servers answer a page past the end with the last page again and a nextpage.
    ["a server that repeats its last page", server(100, 50, (requested, last) => Math.min(requested, last), 9)],
    ["a maxpage larger than the data", server(100, 50, (requested) => requested, 5)],
  ])("%s", async (_name, fetchPage) => {
    expect(await scrollAll(fetchPage)).toEqual(await everyItem(fetchPage));
  });

  it("a page that did not move forward ends the list even when it is full and maxpage says more", async () => {
    const stuck = async (): Promise<Page<number>> => ({
      items: Array.from({ length: 50 }, (_, i) => i),
      result: 50,
      perpage: 50,
      currentpage: 1,
      nextpage: 2,
      maxpage: 3,
    });
    expect((await loadPage(stuck, 0)).hasMore).toBe(true);
    expect((await loadPage(stuck, 1)).hasMore).toBe(false);
  });
});
