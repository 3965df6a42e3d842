/** The sweep's share of a window: a quarter at once, the rest as the window passes, the key's other requests first. */
import { SweepPacer } from "../src/link-index/pacing";

const window = (remaining: number, resetAt = 60_000) => ({ limit: 30, remaining, resetAt });

it("takes a quarter of its share at once, the rest spread over the window", () => {
  const pacer = new SweepPacer(2);
  let remaining = 30;
  let sent = 0;
  while (pacer.mayRead(window(remaining), 1, 0)) {
    pacer.sent();
    sent += 1;
    remaining -= 1;
  }
  expect(sent).toBe(7); // (30 - 2) / 4
  expect(pacer.nextReadAt(window(remaining), 1, 0)).toBeGreaterThan(0);
  expect(pacer.mayRead(window(remaining), 1, 30_000)).toBe(true); // half the window: half the share
  let late = 0;
  while (pacer.mayRead(window(remaining), 1, 59_999)) {
    pacer.sent();
    late += 1;
    remaining -= 1;
  }
  // All but the reserve by the window's end (the last slot falls at the end itself, when the next window begins).
  expect(sent + late).toBe(27);
});

it("counts the key's other requests against its share: the user's calls go first", () => {
  const pacer = new SweepPacer(2);
  expect(pacer.mayRead(window(30), 1, 0)).toBe(true);
  pacer.sent();
  // Seven calls of the user's in the window so far: the sweep's burst is spent.
  expect(pacer.mayRead(window(22), 1, 1_000)).toBe(false);
  // Near the window's end, never the last two requests.
  expect(pacer.mayRead(window(2), 1, 59_000)).toBe(false);
  expect(pacer.nextReadAt(window(2), 1, 59_000)).toBe(60_000);
});
