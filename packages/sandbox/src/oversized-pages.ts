/**
 * What a list answers a `limit` above the sandbox's `maxPageSize`, as servers in the wild do:
 * - "cap": a page of the maximum size, and `perpage` says that size;
 * - "refuse": HTTP 200 with `{"error":1,"message":"The limit must be between 1 and N."}`;
 * - "echo": a page of the maximum size whose `perpage` repeats the `limit` asked, while `maxpage`
 *   and `nextpage` count pages of the size given.
 */
export type OversizedPages = "cap" | "refuse" | "echo";

export const OVERSIZED_PAGES: readonly OversizedPages[] = ["cap", "refuse", "echo"];

/** `value` as an `OversizedPages`, or an error naming `field` (the option or the flag) and the choices. */
export function oversizedPagesOf(value: unknown, field: string): OversizedPages {
  if ((OVERSIZED_PAGES as readonly unknown[]).includes(value)) return value as OversizedPages;
  throw new Error(`${field}: ${JSON.stringify(value)} must be one of ${OVERSIZED_PAGES.join(", ")}`);
}
