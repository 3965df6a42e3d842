/**
 * How a MySQL-backed server lists links by date: `ORDER BY date DESC LIMIT n OFFSET m` over dates
 * kept to the second. Links made in one second tie, and MySQL returns ties in no fixed order: two
 * requests may put them differently, so a page boundary inside a run of equal dates can show a link
 * on both pages and another on neither. Written from the database's documented behaviour, not from
 * the client.
 */
import { seededRandom } from "./seeded-random";

/** "by-id": ties in id order (a stable sort, as before). "unstable": ties in a fresh order on each request. */
export const DATE_TIE_ORDERS = ["by-id", "unstable"] as const;
export type DateTieOrder = (typeof DATE_TIE_ORDERS)[number];

/** Dates newest first, each run of equal dates shuffled anew (seeded, so a run can be repeated). */
export class UnstableDateOrder {
  readonly #random: () => number;

  constructor(seed = 1) {
    this.#random = seededRandom(seed);
  }

  order<T extends { date: string }>(links: readonly T[]): T[] {
    const sorted = [...links].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
    for (let start = 0; start < sorted.length; ) {
      let end = start + 1;
      while (end < sorted.length && sorted[end]!.date === sorted[start]!.date) end += 1;
      for (let i = end - 1; i > start; i -= 1) {
        const j = start + Math.floor(this.#random() * (i - start + 1));
        [sorted[i], sorted[j]] = [sorted[j]!, sorted[i]!];
      }
      start = end;
    }
    return sorted;
  }
}
