import { TooManyPagesError } from "./errors";

/** One page of a list, with its items. */
export interface Page<T> {
  items: T[];
  result: number;
  perpage: number;
  currentpage: number;
  nextpage: number | null;
  maxpage: number;
}

/** Pages one walk reads at most unless the client says otherwise (`maxPages`). */
export const DEFAULT_MAX_PAGES = 10_000;

/**
 * The answer of a `list` call: await it for one page, or iterate it with `for await` for every item
 * of every page, one page in memory at a time. Nothing is requested until it is awaited or iterated.
 */
export class PagePromise<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  private firstPage: Promise<Page<T>> | undefined;

  constructor(
    private readonly fetchPage: (page: number) => Promise<Page<T>>,
    private readonly startPage = 1,
    /** The most pages one walk reads; past it the walk fails with `TooManyPagesError`. */
    private readonly maxPages = DEFAULT_MAX_PAGES,
  ) {}

  private first(): Promise<Page<T>> {
    this.firstPage ??= this.fetchPage(this.startPage);
    return this.firstPage;
  }

  then<R1 = Page<T>, R2 = never>(
    onFulfilled?: ((page: Page<T>) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.first().then(onFulfilled, onRejected);
  }

  catch<R = never>(onRejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<Page<T> | R> {
    return this.first().catch(onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<Page<T>> {
    return this.first().finally(onFinally);
  }

  /**
   * Whether `page`, the answer to a request for page number `requested`, ends the list: at
   * `maxpage`, at an empty page, when the server did not move forward, or at a page shorter than
   * one before it in the same walk (`heldBefore`: the most items an earlier page held). Never
   * trusts `nextpage`, which deployed servers get wrong at the end. A page shorter than its
   * `perpage` alone does not end the list while `maxpage` says more: some servers cap pages yet
   * write the asked limit into `perpage`, so the end-of-list signals disagree, and the list is read
   * on (where `maxpage` was wrong instead, the next page is empty). The one rule for every front end.
   */
  static isLastPage(page: Page<unknown>, requested: number, heldBefore = 0): boolean {
    return page.items.length === 0 || page.currentpage >= page.maxpage || page.currentpage < requested || page.items.length < heldBefore;
  }

  /**
   * How many items a page of `page`'s size holds on its server: its `perpage`, or its item count
   * when it holds fewer while `maxpage` says a page follows (a page before the last is full: the
   * server capped the size but wrote the asked limit into `perpage`). Its item count when the
   * server gave no `perpage`. What a reader that counts list positions from page numbers uses.
   */
  static sizeGiven(page: Page<unknown>): number {
    if (page.perpage <= 0) return Math.max(1, page.items.length);
    return page.items.length > 0 && page.items.length < page.perpage && page.currentpage < page.maxpage ? page.items.length : page.perpage;
  }

  /**
   * A page size of at most `maxLimit` and the page number whose page holds list positions `first`
   * to `last` (counted from 0); undefined when no such page does. The one rule for reading a run of
   * items whole (a run of equal dates that pages split) in every front end.
   */
  static pageHolding(first: number, last: number, maxLimit: number): { page: number; limit: number } | undefined {
    for (let limit = last - first + 1; limit <= maxLimit; limit += 1) {
      const page = Math.floor(first / limit) + 1;
      if (page * limit > last) return { page, limit };
    }
    return undefined;
  }

  /**
   * Every page from the first, up to the one `isLastPage` says ends the list. Fails with
   * `TooManyPagesError` rather than read more than `maxPages` pages.
   */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let page = await this.first();
    let requested = this.startPage;
    let heldBefore = 0;
    for (let read = 1; ; read += 1) {
      yield page;
      if (PagePromise.isLastPage(page, requested, heldBefore)) return;
      heldBefore = Math.max(heldBefore, page.items.length);
      if (read >= this.maxPages) throw new TooManyPagesError(this.maxPages, page.maxpage);
      requested = page.currentpage + 1;
      page = await this.fetchPage(requested);
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.items;
  }

  /** Collects up to `max` items (all of them when omitted), reading only the pages needed. */
  async toArray(max = Number.POSITIVE_INFINITY): Promise<T[]> {
    const items: T[] = [];
    if (max <= 0) return items;
    for await (const item of this) {
      items.push(item);
      if (items.length >= max) break;
    }
    return items;
  }
}

/** A list the API answers in one piece (plans, users), offered with the same interface. */
export function singlePage<T>(fetchAll: () => Promise<T[]>): PagePromise<T> {
  return new PagePromise(async () => {
    const items = await fetchAll();
    return { items, result: items.length, perpage: items.length, currentpage: 1, nextpage: null, maxpage: 1 };
  });
}
