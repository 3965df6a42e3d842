/** Tools that answer one page of a list at a time (list_qr_codes, list_domains): their input, and their answer with where the list stands. */
import { PagePromise, PaginationSchema, type LinkShortClient, type Page } from "@linkshort/client";
import * as z from "zod/v4";
import { described, type ToolContext } from "./define";

export const PageInput = z.strictObject(described(PaginationSchema));

type PageArguments = z.output<typeof PageInput>;

/**
 * The run of a paged list tool: the page asked for, its items under `key`, and where it stands, so
 * that a model can ask for the next page. Whether another page follows is the client's rule
 * (servers' `nextpage` and `maxpage` can mislead).
 */
export function onePageOf<Item>(key: string, list: (client: LinkShortClient, params: PageArguments, signal: AbortSignal) => PromiseLike<Page<Item>>) {
  return async (args: PageArguments, { client, signal }: ToolContext) => {
    const page = await list(client, args, signal);
    const requested = args.page ?? 1;
    return { [key]: page.items, currentpage: page.currentpage, maxpage: page.maxpage, morePages: !PagePromise.isLastPage(page, requested) };
  };
}
