/** Visits keep their times, so that a test (or the demo) can replay days of clicks on a controlled clock. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSandbox, visitsBetween } from "../src";

const HOUR = 3_600_000;
const START = Date.UTC(2026, 10, 2, 9, 0, 0);

it("each visit is kept with the sandbox clock's time, in order even when the clock is set back, and survives a restart", async () => {
  const dataFile = join(mkdtempSync(join(tmpdir(), "linkshort-visits-")), "state.json");
  let time = START;
  const sandbox = await startSandbox({ seed: "demo", dataFile, now: () => time });
  const link = sandbox.store.state.links[0]!;
  const clicksBefore = link.stats.clicks;
  const visitAt = async (at: number) => {
    time = at;
    const answer = await fetch(`${sandbox.baseUrl}/${link.alias}`, { redirect: "manual" });
    expect([200, 302]).toContain(answer.status);
  };
  for (const at of [START, START + 500, START + HOUR, START + 3 * HOUR, START + 2 * HOUR, START + 3 * HOUR]) await visitAt(at);
  expect(link.stats.clicks).toBe(clicksBefore + 6);
  expect(link.stats.times).toEqual([START / 1000, 2, START / 1000 + 3600, 1, START / 1000 + 7200, 1, START / 1000 + 10800, 2]);
  expect(visitsBetween(link.stats.times, START, START + 2 * HOUR)).toBe(3);
  expect(visitsBetween(link.stats.times, START + 2 * HOUR, START + 4 * HOUR)).toBe(3);
  await sandbox.close();

  const again = await startSandbox({ dataFile, now: () => time });
  try {
    expect(visitsBetween(again.store.state.links[0]!.stats.times, START, START + 4 * HOUR)).toBe(6);
  } finally {
    await again.close();
  }
});
