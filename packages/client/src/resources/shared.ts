/** What every resource shares: the base class, list parameters and envelopes, and the answers several resources give. */
import * as z from "zod/v4";
import type { HttpCore } from "../internal/http";
import type { RequestOptions } from "../internal/options";
import { ValidationError } from "../errors";
import { PagePromise, type Page } from "../pagination";
import { pageSizeToAsk, readAtAllowedSize, recordPageSize } from "../internal/page-size";
import { Rejected, normaliser, reshaped } from "../internal/readers";
import { validate, validateAll } from "../internal/validate";
import { count, countMap, IdSchema, identifier, positiveInteger, readCount, text } from "./fields";

export type { RequestOptions };

export const PaginationSchema = z.strictObject({
  limit: positiveInteger.optional().describe("Items per page (default 15)"),
  page: positiveInteger.optional().describe("Page number, from 1"),
});
/**
 * A list's page size is a number, or `"large"`: as large a page as the account's server gives
 * (see `internal/page-size.ts`), for callers that read many items. The schemas check numbers; the list
 * resolves `"large"` to one before they see it.
 */
export type PageLimit = number | "large";
export type PaginationInput = Omit<z.input<typeof PaginationSchema>, "limit"> & { limit?: PageLimit };

/** The numbers of a paged list envelope. */
export const PageInfoSchema = z.object({
  result: count,
  perpage: count,
  currentpage: count,
  nextpage: normaliser((value): number | null | Rejected => {
    if (value === null || value === undefined) return null;
    const parsed = readCount(value);
    return parsed instanceof Rejected ? new Rejected("expected a page number") : parsed;
  }),
  maxpage: count,
});

export const CreatedSchema = z.object({ id: identifier });
export type Created = z.output<typeof CreatedSchema>;

export const MessageSchema = z.object({ message: text });
export type MessageResult = z.output<typeof MessageSchema>;

/** A link's clicks or a QR code's scans. */
export const StatisticsSchema = z.object({
  clicks: count,
  uniqueClicks: count,
  topCountries: countMap,
  topReferrers: countMap,
  topBrowsers: countMap,
  topOs: countMap,
  socialCount: countMap,
});
export type Statistics = z.output<typeof StatisticsSchema>;

/** The schema of a paged list envelope whose items are under one of `arrayNames`. */
export function pagedList<T extends z.ZodType>(item: T, ...arrayNames: string[]) {
  const arrays = Object.fromEntries(arrayNames.map((name) => [name, z.array(item).optional()]));
  return reshaped(z.object({ data: PageInfoSchema.extend(arrays) }), (body): Page<z.output<T>> => {
    const data = body.data as unknown as z.output<typeof PageInfoSchema> & Record<string, unknown>;
    const items = (arrayNames.map((name) => data[name]).find(Array.isArray) ?? []) as z.output<T>[];
    return {
      items,
      result: data.result,
      perpage: data.perpage,
      currentpage: data.currentpage,
      nextpage: data.nextpage,
      maxpage: data.maxpage,
    };
  });
}

/** The schema of an envelope whose `data` holds one value. */
export function dataOf<T extends z.ZodType>(schema: T) {
  return reshaped(z.object({ data: schema }), (body) => (body as { data: z.output<T> }).data);
}

export abstract class Resource {
  constructor(protected readonly core: HttpCore) {}

  /** A paged list at `path`, validated before the first request. */
  protected pagedList<T extends z.ZodType, P extends z.ZodType>(
    operation: string,
    path: string,
    schema: T,
    paramsSchema: P,
    params: unknown,
    options: RequestOptions | undefined,
    /** Told each page as it arrives. */
    onPage?: (page: z.output<T>) => void,
  ): PagePromise<z.output<T> extends Page<infer I> ? I : never> {
    type Item = z.output<T> extends Page<infer I> ? I : never;
    // `limit: "large"` is resolved here, once for every list: the account's size (see page-size.ts).
    const large = typeof params === "object" && params !== null && (params as { limit?: unknown }).limit === "large";
    return this.checkedList(operation, paramsSchema, large ? { ...params, limit: undefined } : params, (checked) => {
      const query = checked as Record<string, string | number | undefined>;
      // One size for the whole walk: a page number means something only under the size it was asked with.
      if (large) query.limit = pageSizeToAsk(this.core.account);
      const read = (limit: number | undefined, page: number) =>
        this.core.request({ method: "GET", path, query: { ...query, limit, page } }, schema, options) as Promise<Page<Item>>;
      return new PagePromise<Item>(
        async (page) => {
          const answer = typeof query.limit === "number" ? await this.readAllowed(query, large, (limit) => read(limit, page)) : await read(undefined, page);
          onPage?.(answer as z.output<T>);
          return answer;
        },
        (query.page as number | undefined) ?? 1,
        this.core.maxPages,
      );
    });
  }

  /** A page read at `query.limit`, or at a smaller size when the server refuses that one (as if it capped pages there); the size read at is kept for the walk. */
  private async readAllowed<Item>(
    query: Record<string, string | number | undefined>,
    large: boolean,
    read: (limit: number) => Promise<Page<Item>>,
  ): Promise<Page<Item>> {
    const { answer, limit } = await readAtAllowedSize(this.core.account, query.limit as number, read);
    query.limit = limit;
    if (large) recordPageSize(this.core.account, limit, PagePromise.sizeGiven(answer));
    return answer;
  }

  /** Checks a list's parameters before anything is sent: bad ones give a list that rejects with the `ValidationError`. */
  protected checkedList<P extends z.ZodType, Item>(
    operation: string,
    paramsSchema: P,
    params: unknown,
    list: (query: z.output<P>) => PagePromise<Item>,
  ): PagePromise<Item> {
    let query: z.output<P>;
    try {
      query = validate(paramsSchema, params ?? {}, operation);
    } catch (error) {
      if (error instanceof ValidationError) return new PagePromise<Item>(() => Promise.reject(error));
      throw error;
    }
    return list(query);
  }

  protected id(operation: string, id: unknown, field = "id"): number {
    // The common case needs no schema run; anything else gets the schema's field-named error.
    if (typeof id === "number" && Number.isSafeInteger(id) && id > 0) return id;
    return validate(IdSchema, id, operation, field);
  }

  protected idAndBody<S extends z.ZodType>(operation: string, id: unknown, schema: S, body: unknown): { id: number; body: z.output<S> } {
    return validateAll({ id: [IdSchema, id, "id"], body: [schema, body, ""] }, operation);
  }
}
