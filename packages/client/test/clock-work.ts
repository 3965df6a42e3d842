/** The work of a question to the zone clock, counted rather than timed (issue 51). */
import { ZoneClock } from "../src/click-history/zone";

/** Intl calls to learn one year of a zone's offsets: a probe a day, and halving to the second at each change. */
export const INTL_CALLS_A_YEAR = 366 + 2 * 20;

/**
 * Counts, while `run` runs, the clock's steps from a boundary to the next (each one a boundary it
 * works out: this source's clock only, not a bundled copy's) and the host's Intl calls (any copy's).
 */
export async function countWork<T>(run: () => T | Promise<T>): Promise<{ steps: number; intlCalls: number; result: T }> {
  const steps = jest.spyOn(ZoneClock.prototype, "next");
  const intl = jest.spyOn(Intl.DateTimeFormat.prototype, "formatToParts");
  try {
    const result = await run();
    return { steps: steps.mock.calls.length, intlCalls: intl.mock.calls.length, result };
  } finally {
    steps.mockRestore();
    intl.mockRestore();
  }
}
