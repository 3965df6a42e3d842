/**
 * Lists by date as a MySQL-backed deployed server gives them: `ORDER BY date DESC LIMIT n OFFSET m`
 * over dates kept to the second. Rows that share a second (items made in a burst) have no order
 * between them, and each query may return them in another: a page boundary that falls inside such
 * a run can show an item on both pages and another on neither. Modelled on the database's
 * documented behaviour for non-unique sort keys, not on any client.
 */
import { seededRandom } from "./faults";

/** A fresh arrangement of equal dates on every list answered (seeded, so a test run repeats). */
export class UnstableTies {
  readonly #random: () => number;

  constructor(seed = 35_36) {
    this.#random = seededRandom(seed);
  }

  /** `items`, already newest first, with each run of equal `date` put in a new random order. */
  arrange<T extends { date: string }>(items: readonly T[]): T[] {
    const arranged = [...items];
    let runStart = 0;
    for (let index = 1; index <= arranged.length; index += 1) {
      if (index < arranged.length && arranged[index]!.date === arranged[runStart]!.date) continue;
      // Fisher-Yates over [runStart, index).
      for (let i = index - 1; i > runStart; i -= 1) {
        const j = runStart + Math.floor(this.#random() * (i - runStart + 1));
        const held = arranged[i]!;
        arranged[i] = arranged[j]!;
        arranged[j] = held;
      }
      runStart = index;
    }
    return arranged;
  }
}
